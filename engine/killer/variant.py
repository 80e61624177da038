"""Where the two Killer rule texts differ, as the methods of a variant object.

In the spirit of python-chess's variant boards: :class:`Variant` is the 5-dice game (rules part A),
and :class:`engine.killer.classic.Classic`, the older 6-dice revision (part B), overrides only what it
does differently. Parameters (dice, modes) stay plain values on :class:`Rules`; the turn machine
(:mod:`engine.killer.flow`) asks ``state.variant`` wherever the texts part ways, so no other module
needs to know which game it plays.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.dice import DiceSource
from engine.game import Command, Event
from engine.killer import events as ev
from engine.killer.commands import Attack, Auto, Direction, Keep, KeepAll
from engine.killer.flow import Result, current_turn, end_turn, finish, roll, with_turn
from engine.killer.health import lose
from engine.killer.odds import Goal
from engine.killer.rules import Rules, judge, rescue, rules_from_options
from engine.killer.state import KillerState, Player, Status, Step

_KEEPING: tuple[type[Command], ...] = (Keep, KeepAll, Auto)


@dataclasses.dataclass(frozen=True)
class Variant:
    """The 5-dice game with its variants (3 … 10 dice) and optional modes."""

    name: ClassVar[str] = "killer"
    self_attack: ClassVar[bool] = True  # K5-A1: an attack launched without a target turns on the attacker
    play_goal: ClassVar[Goal] = "attack"  # what a turn's keep phase is played for (advice, auto)
    # Which player commands each waiting step accepts.
    accepts: ClassVar[Mapping[Step, tuple[type[Command], ...]]] = {
        "setup": _KEEPING,
        "keep": _KEEPING,
        "direction": (Direction,),
        "target": (Attack,),
    }

    def rules(self, options: Mapping[str, Any]) -> Rules:
        """The moderator's options, validated: any number of dice from 3 to 10, any modes."""
        return rules_from_options(options)

    def started(self, players: tuple[str, ...], rules: Rules) -> Event:
        return ev.Started(players, rules.dice, rules.low, rules.high, rules.modes)

    def turn_order(self, players: Sequence[Player]) -> tuple[tuple[str, ...], list[Event]]:
        """K5-S1: turns follow the sign-up order."""
        return tuple(p.id for p in players), []

    def immune(self, player: Player, value: int) -> bool:
        """K5-T1: a Terminator of level k shrugs off attacks of 1 … k, never a 6."""
        return value < 6 and value <= player.terminator

    def after_loss(self, state: KillerState, player: Player, hp: int) -> tuple[Status, list[Event]]:
        """K5-D1: below 0 a living player is dying; K5-Z1: a zombie at 0 or less is dust again.

        What can still save a dying player is said when they fall, and again when a loss pushes them
        past what a regeneration can win back — except on their own deciding turn, which ends their
        fate anyway (K5-D1).
        """
        if player.status == "alive" and hp < 0:
            return "dying", [_dying(state.rules, player.id, hp)]
        if player.status == "dying" and not _deciding(state, player.id):
            now = rescue(state.rules, hp)
            if now != rescue(state.rules, player.hp):
                return "dying", [_dying(state.rules, player.id, hp)]
        if player.status == "zombie" and hp <= 0:
            return "dead", [ev.TurnedToDust(player.id, hp)]
        return player.status, []

    def outcome(self, state: KillerState, score: int) -> Result:
        """K5-O1: a keep phase's score gives an attack, a regeneration or a loss of PDV."""
        turn = current_turn(state)
        player_id = turn.player
        verdict = judge(state.rules, score, turn.direction)
        if verdict.kind == "attack":
            assert verdict.side is not None
            state = with_turn(state, step="target", value=verdict.value, roll=())
            events: list[Event] = [
                ev.AttackObtained(player_id, score, verdict.value, verdict.side, turn.deciding)
            ]
            if turn.deciding:
                events.append(ev.SuicideAttack(player_id, verdict.value))
            return state, events
        if verdict.kind == "regeneration":
            return with_turn(state, step="regenerate", roll=()), [ev.RegenerationEarned(player_id, score)]
        state, more = lose(state, player_id, verdict.value)
        hp = state.player(player_id).hp
        if verdict.side is not None and turn.direction is not None:
            first: Event = ev.WrongSide(player_id, score, turn.direction, hp)
        else:
            first = ev.Missed(player_id, score, verdict.value, hp)
        state, after = end_turn(state)
        return state, [first, *more, *after]

    def attack_roll(self, state: KillerState, dice: DiceSource) -> Result:
        """K5-A1: dice showing the value are set aside and the rest rolled again until a roll shows
        none; when all are set aside, all are rolled again."""
        turn = current_turn(state)
        assert turn.target is not None
        faces = roll(dice, turn.left)
        matched = faces.count(turn.value)
        hits = turn.hits + matched
        left = turn.left - matched
        again = matched > 0 and left == 0
        event = ev.AttackRolled(turn.player, turn.target, turn.value, faces, matched, hits, again)
        if matched == 0:
            state, more = self._resolve_attack(with_turn(state, hits=hits, left=0))
            return state, [event, *more]
        events: list[Event] = [event]
        if again:
            events.append(ev.RollAllAgain(turn.player, turn.value, hits))
        return with_turn(state, hits=hits, left=left or state.rules.dice), events

    def _resolve_attack(self, state: KillerState) -> Result:
        turn = current_turn(state)
        assert turn.target is not None
        target = state.player(turn.target)
        if self.immune(target, turn.value):  # only an attack turned on an immune attacker gets here
            events: list[Event] = [ev.Immune(turn.player, target.id, turn.value, target.terminator)]
        elif turn.hits == 0:  # not one die showed the value: nothing lost, said as such
            events = [ev.Unharmed(turn.player, target.id, turn.value, target.hp)]
        else:
            damage = turn.hits * turn.value
            state, more = lose(state, target.id, damage)
            hp = state.player(target.id).hp
            events = [ev.Damaged(turn.player, target.id, turn.value, turn.hits, damage, hp), *more]
        state, after = end_turn(state)
        return state, events + after

    def ending(self, state: KillerState, *, cycle_over: bool) -> Result | None:
        """K5-E1: only at the end of a cycle, and only when at most one player is still in the game
        (alive or dying; zombies never count) and that one is not dying."""
        if not cycle_over:
            return None
        left = [p for p in state.players if p.in_game]
        if not left:
            return finish(state, None)
        if len(left) == 1 and left[0].status == "alive":
            return finish(state, left[0].id)
        return None


def _dying(rules: Rules, player_id: str, hp: int) -> Event:
    """The announcement of a dying player at ``hp``: what their next turn can still do (K5-D1)."""
    can = rescue(rules, hp)
    if can == "regeneration":
        return ev.Dying(player_id, hp)
    if can == "mythic":
        return ev.DyingMythicRescue(player_id, hp, rules.low, rules.high)
    return ev.DyingBeyondRescue(player_id, hp, rules.rescue, rules.low, rules.high)


def _deciding(state: KillerState, player_id: str) -> bool:
    turn = state.turn
    return turn is not None and turn.player == player_id and turn.deciding
