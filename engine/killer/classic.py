"""The older 6-dice revision of Killer (rules part B) as a variant of the 5-dice game.

It overrides only what its text does differently: six dice and no modes, a turn order by starting
PDV (K6-S1), an attack strength of sum − 30 instead of targets (K6-F1), a single attack roll that may
sweep every opponent and may be repeated (K6-A1), and out below 0 with the end at any moment (K6-E1).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.dice import DiceSource
from engine.errors import InvalidCommand, OptionChecks
from engine.game import Command, Event
from engine.killer import events as ev
from engine.killer.commands import Attack, Pass
from engine.killer.flow import Result, current_turn, end_turn, finish, roll, with_turn
from engine.killer.health import lose
from engine.killer.odds import Goal
from engine.killer.rules import Rules, check_option_names, dice_option, modes_option
from engine.killer.state import KillerState, Player, Status, Step
from engine.killer.variant import Variant

DICE = 6
BASE = 30  # the strength is six kept dice minus 30 (K6-F1)


def strength(score: int) -> int:
    """K6-F1: the attack strength of a keep phase's score, at most 6."""
    return score - BASE


@dataclasses.dataclass(frozen=True)
class Classic(Variant):
    """The older 6-dice revision."""

    name: ClassVar[str] = "killer-classic"
    self_attack: ClassVar[bool] = False  # K6-A1: no self-attack; `attaque` alone is refused with a reminder
    play_goal: ClassVar[Goal] = "sum"  # the strength grows with the kept sum
    # K6-F1: a positive strength *may* attack; K6-A1: after a hit, attack again or pass.
    accepts: ClassVar[Mapping[Step, tuple[type[Command], ...]]] = {
        **Variant.accepts,
        "target": (Attack, Pass),
        "again": (Attack, Pass),
    }

    def rules(self, options: Mapping[str, Any]) -> Rules:
        """Six dice, no modes; options that merely restate that are tolerated. Every bad one is
        refused at once."""
        checks = OptionChecks()
        check_option_names(options, checks)
        if "dice" in options and checks.value(lambda: dice_option(options["dice"]), DICE) != DICE:
            checks.refuse(InvalidCommand("killer_classic_dice", dice=options["dice"], required=DICE))
        if checks.value(lambda: modes_option(options.get("modes", [])), set[str]()):
            checks.refuse(InvalidCommand("killer_classic_modes", modes=options["modes"]))
        checks.done()
        return Rules(dice=DICE)

    def started(self, players: tuple[str, ...], rules: Rules) -> Event:
        return ev.ClassicStarted(players, rules.dice)

    def turn_order(self, players: Sequence[Player]) -> tuple[tuple[str, ...], list[Event]]:
        """K6-S1: by starting PDV, highest first; equal PDV keep the sign-up order (a stable sort)."""
        order = tuple(p.id for p in sorted(players, key=lambda p: -p.hp))
        return order, [ev.TurnOrder(order)]

    def immune(self, player: Player, value: int) -> bool:
        """No Terminators in this text."""
        return False

    def after_loss(self, state: KillerState, player: Player, hp: int) -> tuple[Status, list[Event]]:
        """K6-E1: below 0 a player is out at once."""
        if player.status == "alive" and hp < 0:
            return "dead", [ev.Eliminated(player.id, hp)]
        return player.status, []

    def outcome(self, state: KillerState, score: int) -> Result:
        """K6-F1: a negative strength costs its size in PDV, zero passes, a positive one may attack."""
        player_id = current_turn(state).player
        value = strength(score)
        events: list[Event] = [ev.StrengthSet(player_id, score, value)]
        if value > 0:
            return with_turn(state, step="target", value=value, roll=()), events
        if value < 0:
            state, more = lose(state, player_id, -value)
            events += [ev.StrengthLost(player_id, -value, state.player(player_id).hp), *more]
        else:
            events.append(ev.StrengthZero(player_id))
        state, after = end_turn(state)
        return state, events + after

    def attack_roll(self, state: KillerState, dice: DiceSource) -> Result:
        """K6-A1: one roll of six dice; each die showing the strength scores it."""
        turn = current_turn(state)
        assert turn.target is not None
        faces = roll(dice, turn.left)
        matched = faces.count(turn.value)
        hits = turn.hits + matched
        event = ev.AttackRolled(turn.player, turn.target, turn.value, faces, matched, hits, False)
        state, more = self._hit(with_turn(state, hits=hits, left=0), matched)
        return state, [event, *more]

    def _hit(self, state: KillerState, matched: int) -> Result:
        """No die showing the strength passes the turn; all six hit every opponent still in the
        game; after a hit the player may attack again."""
        turn = current_turn(state)
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
        ended = self.ending(state, cycle_over=False)
        if ended is not None:
            return ended[0], events + ended[1]
        return with_turn(state, step="again", target=None, hits=0), events

    def ending(self, state: KillerState, *, cycle_over: bool) -> Result | None:
        """K6-E1: the moment at most one player with PDV ≥ 0 is left, that player (if any) wins."""
        left = [p for p in state.players if p.status == "alive"]
        if len(left) > 1:
            return None
        return finish(state, left[0].id if left else None)
