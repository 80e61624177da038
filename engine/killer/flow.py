"""The turn machine both Killer games share: keep phases, rolls, turns, cycles, setup, removal.

Where the two rule texts part ways (a keep phase's outcome, an attack's rolls, the turn order, the
end) it asks the state's variant (:mod:`engine.killer.variant`), which calls back the helpers here.

Every roll is made as soon as it is due (K5-R1): a command changes the state, then :func:`settle`
makes the rolls that follow from it, one atomic :func:`step` at a time. When a scripted dice source
runs dry during those follow-up rolls, the state simply stays at the step whose roll is due; the
next command that needs that roll settles it strictly and fails as a whole.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from engine.dice import DiceSource
from engine.errors import DiceExhausted
from engine.game import Event
from engine.killer import events as ev
from engine.killer.health import gain, lose
from engine.killer.rules import Side
from engine.killer.state import KillerState, Turn

Result = tuple[KillerState, list[Event]]


def roll(dice: DiceSource, count: int) -> tuple[int, ...]:
    return tuple(dice.roll() for _ in range(count))


def current_turn(state: KillerState) -> Turn:
    if state.turn is None:
        raise RuntimeError("no turn in progress")
    return state.turn


def with_turn(state: KillerState, **changes: Any) -> KillerState:
    return dataclasses.replace(state, turn=dataclasses.replace(current_turn(state), **changes))


def settle(state: KillerState, dice: DiceSource, *, strict: bool) -> Result:
    """Make every roll that is due. ``strict``: running out of dice is an error, not a pause."""
    events: list[Event] = []
    while not state.over and state.turn is not None and state.turn.due:
        try:
            state, more = step(state, dice)
        except DiceExhausted:
            if strict:
                raise
            break
        events += more
    return state, events


def step(state: KillerState, dice: DiceSource) -> Result:
    """Make the one roll that is due now."""
    turn = current_turn(state)
    if turn.step in ("setup", "keep"):
        return _keep_roll(state, dice)
    if turn.step == "regenerate":
        return _regenerate(state, dice)
    if turn.step == "attack":
        return state.variant.attack_roll(state, dice)
    if turn.step == "revive":
        return _revive(state, dice)
    raise RuntimeError(f"no roll is due at step {turn.step!r}")


# Keep phases (K5-K1, K5-R1)


def _keep_roll(state: KillerState, dice: DiceSource) -> Result:
    turn = current_turn(state)
    left = state.rules.dice - len(turn.kept)
    if left == 1:
        face = dice.roll()
        kept = (*turn.kept, face)
        state, outcome = finish_keep_phase(with_turn(state, kept=kept))
        return state, [ev.LastDieKept(turn.player, face, kept, sum(kept)), *outcome]
    faces = roll(dice, left)
    state = with_turn(state, roll=faces)
    events: list[Event] = [ev.Rolled(turn.player, faces, turn.kept)]
    if turn.step == "keep" and not turn.kept and state.rules.mythic:
        state, more = _mythic(state, faces)
        events += more
    return state, events


def _mythic(state: KillerState, faces: Sequence[int]) -> Result:
    """K5-M1: a first roll all in {5, 6} or all in {1, 2} gains 1 PDV, all in {3, 4} loses 1."""
    shown = set(faces)
    if shown <= {5, 6} or shown <= {1, 2}:
        delta = 1
    elif shown <= {3, 4}:
        delta = -1
    else:
        return state, []
    player_id = current_turn(state).player
    if delta > 0:
        state, more = gain(state, player_id, 1, regeneration=False)
    else:
        state, more = lose(state, player_id, 1)
    events: list[Event] = [ev.Mythic(player_id, tuple(faces), delta, state.player(player_id).hp), *more]
    if state.player(player_id).status == "dead":  # a zombie turned to dust: nothing left to play
        state, after = end_turn(state)
        events += after
    return state, events


def keep(state: KillerState, values: Sequence[int]) -> Result:
    """Set ``values`` (already checked against the roll) aside; the reroll is then due."""
    turn = current_turn(state)
    chosen = tuple(sorted(values, reverse=True))
    kept = turn.kept + chosen
    left = state.rules.dice - len(kept)
    state = with_turn(state, kept=kept, roll=())
    events: list[Event] = [ev.Kept(turn.player, chosen, kept, sum(kept), left)]
    if left == 0:
        state, more = finish_keep_phase(state)
        events += more
    return state, events


def finish_keep_phase(state: KillerState) -> Result:
    """Setup sets the starting PDV; any other keep phase ends as the variant's rule text says."""
    turn = current_turn(state)
    score = sum(turn.kept)
    if turn.step != "setup":
        return state.variant.outcome(state, score)
    player = dataclasses.replace(state.player(turn.player), hp=score)
    state, more = next_setup(state.replace_player(player), turn.player)
    return state, [ev.HitPointsSet(turn.player, score), *more]


def _regenerate(state: KillerState, dice: DiceSource) -> Result:
    player_id = current_turn(state).player
    face = dice.roll()
    state, more = gain(state, player_id, face, regeneration=True)
    state = with_turn(state, regenerated=True)
    state, after = end_turn(state)
    return state, [ev.Regenerated(player_id, face, state.player(player_id).hp), *more, *after]


def _revive(state: KillerState, dice: DiceSource) -> Result:
    """K5-Z1: a dead player's turn is one die; 5 or 6 brings them back as a zombie with 1 PDV."""
    player_id = current_turn(state).player
    face = dice.roll()
    risen = face >= 5
    if risen:
        state = state.replace_player(dataclasses.replace(state.player(player_id), status="zombie", hp=1))
    state, after = end_turn(state)
    outcome: Event = ev.RoseAsZombie(player_id, 1) if risen else ev.StillDead(player_id)
    return state, [ev.ZombieRolled(player_id, face, risen), outcome, *after]


def choose_direction(state: KillerState, side: Side) -> Result:
    player_id = current_turn(state).player
    event: Event = (
        ev.AimedHigh(player_id, state.rules.high)
        if side == "high"
        else ev.AimedLow(player_id, state.rules.low)
    )
    return with_turn(state, step="keep", direction=side), [event]


# Attacks (K5-A1, K6-A1)


def declare_attack(state: KillerState, target: str | None) -> Result:
    """Start the attack rolls; ``None`` (where the variant allows it) turns the attack on the attacker."""
    turn = current_turn(state)
    if target is None:
        event: Event = ev.AttackTurned(turn.player, turn.value)
        target = turn.player
    else:
        event = ev.AttackDeclared(turn.player, target, turn.value)
    return with_turn(state, step="attack", target=target, hits=0, left=state.rules.dice), [event]


def forfeit(state: KillerState) -> Result:
    """The turn time ran out before a target was named: the attack is lost, the turn ends."""
    turn = current_turn(state)
    state, after = end_turn(state)
    return state, [ev.AttackForfeited(turn.player, turn.value), *after]


def pass_turn(state: KillerState) -> Result:
    player_id = current_turn(state).player
    state, after = end_turn(state)
    return state, [ev.Passed(player_id), *after]


# Turns, cycles and the end (K5-D1, K5-E1, K6-E1)


def end_turn(state: KillerState) -> Result:
    """Settle a dying player's fate (K5-D1; only the 5-dice game has dying players), see whether the
    game has ended (K6-E1 ends it at any moment), then hand the turn on."""
    turn = current_turn(state)
    player = state.player(turn.player)
    events: list[Event] = []
    if player.status == "dying":
        if turn.regenerated and player.hp >= 0:
            state = state.replace_player(dataclasses.replace(player, status="alive"))
            events.append(ev.Saved(player.id, player.hp))
        elif turn.deciding:
            state = state.replace_player(dataclasses.replace(player, status="dead"))
            events.append(ev.Died(player.id, player.hp))
    ended = state.variant.ending(state, cycle_over=False)
    if ended is not None:
        return ended[0], events + ended[1]
    state, more = start_turn(state, state.order.index(player.id) + 1)
    return state, events + more


def start_turn(state: KillerState, index: int) -> Result:
    """The turn of the next player who can play from ``index`` on; the end of a cycle may end the game."""
    events: list[Event] = []
    wrapped = False
    while True:
        if index >= len(state.order):
            ended = state.variant.ending(state, cycle_over=True)
            if ended is not None:
                return ended[0], events + ended[1]
            if wrapped:  # a whole cycle without anyone able to play
                state, more = finish(state, None)
                return state, events + more
            wrapped = True
            index = 0
            state = dataclasses.replace(state, cycle=state.cycle + 1)
        player = state.player(state.order[index])
        turn = _turn_for(state, player.id)
        if turn is not None:
            events.append(ev.TurnStarted(player.id, state.cycle, player.hp, player.status))
            return dataclasses.replace(state, turn=turn), events
        index += 1


def _turn_for(state: KillerState, player_id: str) -> Turn | None:
    player = state.player(player_id)
    if player.removed:
        return None
    if player.status == "dead":
        return Turn(player_id, "revive") if state.rules.zombie else None
    if player.status == "zombie":
        return Turn(player_id, "direction")
    return Turn(player_id, "keep", deciding=player.status == "dying")


def finish(state: KillerState, winner: str | None) -> Result:
    state = dataclasses.replace(state, over=True, turn=None, winner=winner)
    if winner is None:
        return state, [ev.NoWinner()]
    return state, [ev.Won(winner, state.player(winner).hp)]


# Setup (K5-S1, K6-S1)


def begin_setup(state: KillerState) -> Result:
    for player in state.players:
        if not player.removed:
            return dataclasses.replace(state, turn=Turn(player.id, "setup")), []
    return finish(state, None)


def next_setup(state: KillerState, after: str) -> Result:
    ids = [p.id for p in state.players]
    for player in state.players[ids.index(after) + 1 :]:
        if not player.removed:
            return dataclasses.replace(state, turn=Turn(player.id, "setup")), []
    return _begin_play(state)


def _begin_play(state: KillerState) -> Result:
    order, events = state.variant.turn_order([p for p in state.players if not p.removed])
    state = dataclasses.replace(state, order=order, cycle=1, turn=None)
    ended = state.variant.ending(state, cycle_over=False)
    if ended is not None:
        return ended[0], events + ended[1]
    state, more = start_turn(state, 0)
    return state, events + more


def remove(state: KillerState, player_id: str) -> Result:
    """A moderator takes a player out for good; their pending turn, if any, is skipped."""
    player = state.player(player_id)
    state = state.replace_player(dataclasses.replace(player, status="dead", removed=True))
    events: list[Event] = [ev.Removed(player_id, player.hp)]
    ended = state.variant.ending(state, cycle_over=False) if state.order else None
    if ended is not None:
        return ended[0], events + ended[1]
    turn = state.turn
    if turn is None or turn.player != player_id:
        return state, events
    if turn.step == "setup":
        state, more = next_setup(state, player_id)
    else:
        state, more = start_turn(state, state.order.index(player_id) + 1)
    return state, events + more


def close(state: KillerState) -> Result:
    """End the game as it stands: a winner only if one player alone is still (alive) in the game."""
    left = [p for p in state.players if p.in_game and not p.removed] if state.started else []
    winner = left[0].id if len(left) == 1 and left[0].status == "alive" else None
    state, more = finish(state, winner)
    return state, [ev.Closed(), *more]
