"""The turn machine of both Killer games: keep phases, outcomes, attacks, turn order, the end.

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
from engine.killer.health import gain, immune, lose
from engine.killer.rules import Side, judge, strength
from engine.killer.state import KillerState, Turn

Result = tuple[KillerState, list[Event]]


def roll(dice: DiceSource, count: int) -> tuple[int, ...]:
    return tuple(dice.roll() for _ in range(count))


def _turn(state: KillerState) -> Turn:
    if state.turn is None:
        raise RuntimeError("no turn in progress")
    return state.turn


def _with_turn(state: KillerState, **changes: Any) -> KillerState:
    return dataclasses.replace(state, turn=dataclasses.replace(_turn(state), **changes))


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
    turn = _turn(state)
    if turn.step in ("setup", "keep"):
        return _keep_roll(state, dice)
    if turn.step == "regenerate":
        return _regenerate(state, dice)
    if turn.step == "attack":
        return _attack_roll(state, dice)
    if turn.step == "revive":
        return _revive(state, dice)
    raise RuntimeError(f"no roll is due at step {turn.step!r}")


# Keep phases (K5-K1, K5-R1)


def _keep_roll(state: KillerState, dice: DiceSource) -> Result:
    turn = _turn(state)
    left = state.rules.dice - len(turn.kept)
    if left == 1:
        face = dice.roll()
        kept = (*turn.kept, face)
        state, outcome = finish_keep_phase(_with_turn(state, kept=kept))
        return state, [ev.LastDieKept(turn.player, face, kept, sum(kept)), *outcome]
    faces = roll(dice, left)
    state = _with_turn(state, roll=faces)
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
    player_id = _turn(state).player
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
    turn = _turn(state)
    chosen = tuple(sorted(values, reverse=True))
    kept = turn.kept + chosen
    left = state.rules.dice - len(kept)
    state = _with_turn(state, kept=kept, roll=())
    events: list[Event] = [ev.Kept(turn.player, chosen, kept, sum(kept), left)]
    if left == 0:
        state, more = finish_keep_phase(state)
        events += more
    return state, events


def finish_keep_phase(state: KillerState) -> Result:
    turn = _turn(state)
    score = sum(turn.kept)
    player_id = turn.player
    if turn.step == "setup":
        player = dataclasses.replace(state.player(player_id), hp=score)
        state, more = next_setup(state.replace_player(player), player_id)
        return state, [ev.HitPointsSet(player_id, score), *more]
    if state.rules.classic:
        return _strength(state, score)
    verdict = judge(state.rules, score, turn.direction)
    if verdict.kind == "attack":
        state = _with_turn(state, step="target", value=verdict.value, roll=())
        assert verdict.side is not None
        events: list[Event] = [
            ev.AttackObtained(player_id, score, verdict.value, verdict.side, turn.deciding)
        ]
        if turn.deciding:
            events.append(ev.SuicideAttack(player_id, verdict.value))
        return state, events
    if verdict.kind == "regeneration":
        return _with_turn(state, step="regenerate", roll=()), [ev.RegenerationEarned(player_id, score)]
    state, more = lose(state, player_id, verdict.value)
    hp = state.player(player_id).hp
    if verdict.side is not None and turn.direction is not None:
        first: Event = ev.WrongSide(player_id, score, turn.direction, hp)
    else:
        first = ev.Missed(player_id, score, verdict.value, hp)
    state, after = end_turn(state)
    return state, [first, *more, *after]


def _strength(state: KillerState, score: int) -> Result:
    """K6-F1: negative strength costs PDV, zero passes, positive gives an attack."""
    player_id = _turn(state).player
    value = strength(score)
    events: list[Event] = [ev.StrengthSet(player_id, score, value)]
    if value > 0:
        return _with_turn(state, step="target", value=value, roll=()), events
    if value < 0:
        state, more = lose(state, player_id, -value)
        events += [ev.StrengthLost(player_id, -value, state.player(player_id).hp), *more]
    else:
        events.append(ev.StrengthZero(player_id))
    state, after = end_turn(state)
    return state, events + after


def _regenerate(state: KillerState, dice: DiceSource) -> Result:
    player_id = _turn(state).player
    face = dice.roll()
    state, more = gain(state, player_id, face, regeneration=True)
    state = _with_turn(state, regenerated=True)
    state, after = end_turn(state)
    return state, [ev.Regenerated(player_id, face, state.player(player_id).hp), *more, *after]


def _revive(state: KillerState, dice: DiceSource) -> Result:
    """K5-Z1: a dead player's turn is one die; 5 or 6 brings them back as a zombie with 1 PDV."""
    player_id = _turn(state).player
    face = dice.roll()
    risen = face >= 5
    if risen:
        state = state.replace_player(dataclasses.replace(state.player(player_id), status="zombie", hp=1))
    state, after = end_turn(state)
    risen_event: list[Event] = [ev.RoseAsZombie(player_id, 1)] if risen else []
    return state, [ev.ZombieRolled(player_id, face, risen), *risen_event, *after]


def choose_direction(state: KillerState, side: Side) -> Result:
    player_id = _turn(state).player
    event: Event = (
        ev.AimedHigh(player_id, state.rules.high)
        if side == "high"
        else ev.AimedLow(player_id, state.rules.low)
    )
    return _with_turn(state, step="keep", direction=side), [event]


# Attacks (K5-A1, K6-A1)


def declare_attack(state: KillerState, target: str | None) -> Result:
    """Start the attack rolls; ``None`` (allowed in K5 only) turns the attack on the attacker."""
    turn = _turn(state)
    if target is None:
        event: Event = ev.AttackTurned(turn.player, turn.value)
        target = turn.player
    else:
        event = ev.AttackDeclared(turn.player, target, turn.value)
    return _with_turn(state, step="attack", target=target, hits=0, left=state.rules.dice), [event]


def _attack_roll(state: KillerState, dice: DiceSource) -> Result:
    turn = _turn(state)
    assert turn.target is not None
    faces = roll(dice, turn.left)
    matched = faces.count(turn.value)
    hits = turn.hits + matched
    if state.rules.classic:  # one roll of six dice per attack
        event = ev.AttackRolled(turn.player, turn.target, turn.value, faces, matched, hits, False)
        state, more = _classic_hit(_with_turn(state, hits=hits, left=0), matched)
        return state, [event, *more]
    left = turn.left - matched
    again = matched > 0 and left == 0
    event = ev.AttackRolled(turn.player, turn.target, turn.value, faces, matched, hits, again)
    if matched == 0:
        state, more = _resolve_attack(_with_turn(state, hits=hits, left=0))
        return state, [event, *more]
    events: list[Event] = [event]
    if again:
        events.append(ev.RollAllAgain(turn.player, turn.value, hits))
    return _with_turn(state, hits=hits, left=left or state.rules.dice), events


def _resolve_attack(state: KillerState) -> Result:
    turn = _turn(state)
    assert turn.target is not None
    target = state.player(turn.target)
    if immune(target, turn.value):  # only an attack turned on an immune attacker gets here
        events: list[Event] = [ev.Immune(turn.player, target.id, turn.value, target.terminator)]
    else:
        damage = turn.hits * turn.value
        state, more = lose(state, target.id, damage)
        hp = state.player(target.id).hp
        events = [ev.Damaged(turn.player, target.id, turn.value, turn.hits, damage, hp), *more]
    state, after = end_turn(state)
    return state, events + after


def _classic_hit(state: KillerState, matched: int) -> Result:
    turn = _turn(state)
    assert turn.target is not None
    if matched == 0:
        state, after = end_turn(state)
        return state, [ev.NoHit(turn.player, turn.target, turn.value), *after]
    damage = matched * turn.value
    events: list[Event] = []
    if matched == state.rules.dice:
        victims = tuple(
            pid for pid in state.order if pid != turn.player and state.player(pid).status == "alive"
        )
        events.append(ev.Sweep(turn.player, turn.value, damage, victims))
    else:
        victims = (turn.target,)
    for victim in victims:
        state, more = lose(state, victim, damage)
        hp = state.player(victim).hp
        events += [ev.Damaged(turn.player, victim, turn.value, matched, damage, hp), *more]
    ended = _classic_end(state)
    if ended is not None:
        return ended[0], events + ended[1]
    return _with_turn(state, step="again", target=None, hits=0), events


def forfeit(state: KillerState) -> Result:
    """The turn time ran out before a target was named: the attack is lost, the turn ends."""
    turn = _turn(state)
    state, after = end_turn(state)
    return state, [ev.AttackForfeited(turn.player, turn.value), *after]


def pass_turn(state: KillerState) -> Result:
    player_id = _turn(state).player
    state, after = end_turn(state)
    return state, [ev.Passed(player_id), *after]


# Turns, cycles and the end (K5-D1, K5-E1, K6-E1)


def end_turn(state: KillerState) -> Result:
    """Settle a dying player's fate (K5-D1), then hand the turn on."""
    turn = _turn(state)
    player = state.player(turn.player)
    events: list[Event] = []
    if not state.rules.classic and player.status == "dying":
        if turn.regenerated and player.hp >= 0:
            state = state.replace_player(dataclasses.replace(player, status="alive"))
            events.append(ev.Saved(player.id, player.hp))
        elif turn.deciding:
            state = state.replace_player(dataclasses.replace(player, status="dead"))
            events.append(ev.Died(player.id, player.hp))
    if state.rules.classic:
        ended = _classic_end(state)
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
            if not state.rules.classic:
                ended = _cycle_end(state)
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


def _cycle_end(state: KillerState) -> Result | None:
    """K5-E1: at most one player still in the game ends it, unless that one is dying."""
    left = [p for p in state.players if p.in_game]
    if not left:
        return finish(state, None)
    if len(left) == 1 and left[0].status == "alive":
        return finish(state, left[0].id)
    return None


def _classic_end(state: KillerState) -> Result | None:
    """K6-E1: the moment one player with PDV ≥ 0 is left, that player wins."""
    left = [p for p in state.players if p.status == "alive"]
    if len(left) > 1:
        return None
    return finish(state, left[0].id if left else None)


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
    playing = [p for p in state.players if not p.removed]
    events: list[Event] = []
    if state.rules.classic:
        playing.sort(key=lambda p: -p.hp)  # stable: equal PDV keep the sign-up order
        order = tuple(p.id for p in playing)
        events.append(ev.TurnOrder(order))
        state = dataclasses.replace(state, order=order, cycle=1, turn=None)
        ended = _classic_end(state)
        if ended is not None:
            return ended[0], events + ended[1]
    else:
        state = dataclasses.replace(state, order=tuple(p.id for p in playing), cycle=1, turn=None)
    state, more = start_turn(state, 0)
    return state, events + more


def remove(state: KillerState, player_id: str) -> Result:
    """A moderator takes a player out for good; their pending turn, if any, is skipped."""
    player = state.player(player_id)
    state = state.replace_player(dataclasses.replace(player, status="dead", removed=True))
    events: list[Event] = [ev.Removed(player_id, player.hp)]
    if state.rules.classic and state.order:
        ended = _classic_end(state)
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
