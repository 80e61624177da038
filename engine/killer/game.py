"""Killer and its older revision behind the :class:`engine.game.Game` face.

``apply`` checks who may act and which commands the current step accepts (the variant's table), then
hands over to :mod:`engine.killer.flow`; the rolls that follow are settled before returning. Every
refusal raises before anything is built, so the given state is never touched.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, ClassVar

from engine.commands import valid_now
from engine.dice import DiceSource
from engine.errors import CroupierError, IllegalCommand, InvalidCommand, NotYourTurn
from engine.game import (
    Candidates,
    Choice,
    Close,
    Command,
    Event,
    Highlight,
    Join,
    Leave,
    Line,
    OptionSpec,
    Remove,
    Seat,
    Skip,
    Start,
    Timeout,
    Topic,
)
from engine.game import (
    Result as GameResult,
)
from engine.killer import choices, flow, odds, signup, snapshot, words
from engine.killer.advice import advice, auto_keep, goal
from engine.killer.classic import Classic
from engine.killer.commands import Advice, Attack, Auto, Direction, Keep, KeepAll, Pass
from engine.killer.events import RollOnTable, TimedOut
from engine.killer.names import resolve
from engine.killer.prompts import prompt, targets
from engine.killer.rules import MAX_DICE, MIN_DICE, MODES
from engine.killer.state import KillerState, Turn
from engine.killer.variant import Variant

Result = tuple[KillerState, list[Event]]

# The refusal that says what a waiting step expects (which commands it accepts is the variant's).
EXPECTING: Mapping[str, str] = {
    "setup": "killer_expect_keep",
    "keep": "killer_expect_keep",
    "direction": "killer_expect_direction",
    "target": "killer_expect_target",
    "again": "killer_expect_again",
}
EXPECTING_BARE_ATTACK = "killer_expect_bare_attack"  # a target step with nobody left to attack


class _KillerGame:
    """The shared implementation; the two games differ only by their variant."""

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]]
    language: ClassVar[str] = "fr"
    catalogue: ClassVar[str] = "engine.killer"
    options: ClassVar[tuple[OptionSpec, ...]]
    ranked: ClassVar[bool] = False
    colour: ClassVar[int] = 0x4B2A6B
    default: ClassVar[bool] = False
    topics: ClassVar[tuple[Topic, ...]] = ()
    variant: ClassVar[Variant]

    def open(self, options: Mapping[str, Any]) -> KillerState:
        return KillerState(self.variant, self.variant.rules(options))

    def parse(self, text: str) -> Command | None:
        return words.parse(text)

    def near_miss(self, text: str, state: KillerState | None = None) -> str | None:
        accepts = None if state is None else valid_now(lambda: choices.choices(state), words.parse)
        return words.near_miss(text, accepts)

    def misread(self, state: KillerState, actor: str, error: InvalidCommand) -> CroupierError:
        """A line that is not this player's to send gets the refusal of any move of theirs."""
        return _barred(state, actor) or error

    def apply(
        self, state: KillerState, actor: str, command: Command, dice: DiceSource
    ) -> tuple[KillerState, Sequence[Event]]:
        if isinstance(command, Advice):
            return state, [advice(state, actor)]
        if isinstance(command, Join):
            return signup.join(state, actor, command.name)
        if isinstance(command, Leave):
            return signup.leave(state, actor)
        if state.over:
            raise IllegalCommand("killer_over")
        if isinstance(command, Start):
            new, events = signup.start(state)
            return _settled(new, events, dice)
        if isinstance(command, Skip):
            return signup.move_to_end(state, resolve(state, command.target))
        if isinstance(command, Remove):
            target = resolve(state, command.target)
            if not state.started:
                return signup.drop(state, target)
            if state.player(target).removed:
                raise IllegalCommand("killer_already_out", player=target)
            new, events = flow.remove(state, target)
            return _settled(new, events, dice)
        if isinstance(command, Close):
            return flow.close(state)
        if not state.started:
            raise IllegalCommand("killer_not_started")
        return self._play(state, actor, command, dice)

    def _play(self, state: KillerState, actor: str, command: Command, dice: DiceSource) -> Result:
        turn = state.turn
        assert turn is not None  # a started game that is not over always has a turn
        if not isinstance(command, Timeout) and actor != turn.player:
            raise _not_your_turn(turn, actor)
        if turn.due:  # a roll left pending when the dice ran out: this command needs it now
            state, before = flow.settle(state, dice, strict=True)
            if state.over:
                raise IllegalCommand("killer_over")
            new, events = self._play(state, actor, command, dice)
            return new, before + events
        if isinstance(command, Timeout):
            new, events = _timeout(state, turn)
            return _settled(new, [TimedOut(turn.player, turn.step), *events], dice)
        if not isinstance(command, state.variant.accepts.get(turn.step, ())):
            raise IllegalCommand(_expecting(state, turn), player=turn.player, value=turn.value)
        new, events = _perform(state, turn, command)
        return _settled(new, events, dice)

    def prepare(self, state: KillerState, command: Command) -> Callable[[], object] | None:
        """``auto`` and a timeout in a keep phase keep what the exact-odds solver says: build its
        table for the game's dice and the phase's goal first (up to a second for ten dice)."""
        turn = state.turn
        if state.over or turn is None or not isinstance(command, Auto | Timeout):
            return None
        if turn.step not in ("setup", "keep") and not turn.due:
            return None
        dice, target = state.rules.dice, goal(state, turn)
        return None if odds.solver.ready(dice, target) else partial(odds.solver, dice, target)

    def dump(self, state: KillerState) -> dict[str, Any]:
        return snapshot.dump(state)

    def load(self, data: Mapping[str, Any]) -> KillerState:
        return snapshot.load(data, self.variant)

    def table(self, state: KillerState) -> Sequence[Seat]:
        """Seats in turn order (sign-up order until the order is fixed); points are PDV."""
        ids = list(state.order) + [p.id for p in state.players if p.id not in state.order]
        to_act = self.to_act(state)
        return [
            Seat(
                player.id,
                player.name,
                player.status,
                player.hp,
                player.id == to_act,
                (("terminator", player.terminator),) if player.terminator else (),
            )
            for player in map(state.player, ids)
        ]

    def to_act(self, state: KillerState) -> str | None:
        return state.to_act

    def finished(self, state: KillerState) -> bool:
        return state.over

    def choices(self, state: KillerState) -> Sequence[Choice]:
        return choices.choices(state)

    def prompt(self, state: KillerState) -> Sequence[Event]:
        """The keep, side, target or attack-or-pass the player to act is asked for — a keep with the
        roll on the table first, since no move of this answer rolled it."""
        turn = state.turn
        if state.over or turn is None or turn.due or turn.step not in ("setup", "keep"):
            return prompt(state)
        return [RollOnTable(turn.player, turn.roll, turn.kept), *prompt(state)]

    def highlights(
        self, before: KillerState, after: KillerState, events: Sequence[Event]
    ) -> Sequence[Highlight]:
        return ()

    def results(self, state: KillerState) -> Mapping[str, GameResult]:
        return {}

    def info(self, state: KillerState | None, topic: str) -> Sequence[Line]:
        return ()

    def suggest(self, state: KillerState, what: str) -> Candidates | None:
        return None  # names and dice are typed as they are: nothing to complete

    def summary(self, state: KillerState) -> dict[str, Any]:
        """The ``croupier replay`` contract: statuses, PDV, Terminator levels, winner, finished."""
        players = {p.id: {"status": p.status, "hp": p.hp, "terminator": p.terminator} for p in state.players}
        return {"players": players, "winner": state.winner, "finished": state.over}


def _expecting(state: KillerState, turn: Turn) -> str:
    """The refusal code that names what the waiting step expects: with nobody left to attack (every
    opponent dead or immune), that is the bare ``attaque`` — not ``attaque NOM``, which no name would
    complete."""
    if turn.step == "target" and state.variant.self_attack and not targets(state, turn):
        return EXPECTING_BARE_ATTACK
    return EXPECTING[turn.step]


def _not_your_turn(turn: Turn, actor: str) -> NotYourTurn:
    return NotYourTurn("not_your_turn", player=turn.player, actor=actor)


def _barred(state: KillerState, actor: str) -> CroupierError | None:
    """Why ``actor`` may not make a move now, as :meth:`_KillerGame.apply` refuses one; None when they
    may (a game that is over, or not started yet, takes no move from anybody)."""
    if state.over:
        return IllegalCommand("killer_over")
    turn = state.turn
    if not state.started or turn is None:
        return IllegalCommand("killer_not_started")
    return _not_your_turn(turn, actor) if actor != turn.player else None


def _settled(state: KillerState, events: list[Event], dice: DiceSource) -> Result:
    """Make the rolls that are due, then ask the player to act what they must type now."""
    state, more = flow.settle(state, dice, strict=False)
    return state, events + more + prompt(state)


def _timeout(state: KillerState, turn: Turn) -> Result:
    """What the croupier does for a player whose time ran out (see docs/rules-killer.md): keep as
    ``auto`` would, announce high for a zombie, let a pending attack go (never turn it on the
    player), pass after a hit."""
    if turn.step in ("setup", "keep"):
        return flow.keep(state, auto_keep(state, turn))
    if turn.step == "direction":
        return flow.choose_direction(state, "high")
    if turn.step == "target":
        return flow.forfeit(state)
    return flow.pass_turn(state)


def _perform(state: KillerState, turn: Turn, command: Command) -> Result:
    if isinstance(command, Keep):
        return flow.keep(state, _checked_keep(turn, command.values))
    if isinstance(command, KeepAll):
        return flow.keep(state, turn.roll)
    if isinstance(command, Auto):
        return flow.keep(state, auto_keep(state, turn))
    if isinstance(command, Direction):
        return flow.choose_direction(state, command.side)
    if isinstance(command, Attack):
        return flow.declare_attack(state, _checked_target(state, turn, command.target))
    if isinstance(command, Pass):
        return flow.pass_turn(state)
    raise InvalidCommand("killer_unknown_command", command=type(command).__name__)


def _checked_keep(turn: Turn, values: Sequence[int]) -> tuple[int, ...]:
    if not values:
        raise InvalidCommand("killer_keep_none")
    for value in values:
        if not 1 <= value <= 6:
            raise InvalidCommand("killer_bad_die", value=value)
    if Counter(values) - Counter(turn.roll):
        raise IllegalCommand("killer_not_rolled", values=list(values), roll=list(turn.roll))
    return tuple(values)


def _checked_target(state: KillerState, turn: Turn, text: str | None) -> str | None:
    if text is None:
        if not state.variant.self_attack:  # remind the player to name someone
            raise IllegalCommand("killer_target_required", player=turn.player, value=turn.value)
        return None
    target = resolve(state, text)
    if target == turn.player:
        raise IllegalCommand("killer_self_target", player=turn.player)
    victim = state.player(target)
    if not victim.targetable:
        raise IllegalCommand("killer_target_out", target=target)
    if state.variant.immune(victim, turn.value):
        raise IllegalCommand("killer_target_immune", target=target, value=turn.value, level=victim.terminator)
    return target


class Killer(_KillerGame):
    """The 5-dice game with its variants (3 … 10 dice) and optional modes."""

    name: ClassVar[str] = Variant.name
    aliases: ClassVar[tuple[str, ...]] = ("killer5", "killer 5")
    options: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("dice", tuple(str(n) for n in range(MIN_DICE, MAX_DICE + 1))),
        OptionSpec("modes", MODES, multi=True),
    )
    variant: ClassVar[Variant] = Variant()


class KillerClassic(_KillerGame):
    """The older 6-dice revision."""

    name: ClassVar[str] = Classic.name
    aliases: ClassVar[tuple[str, ...]] = ("killerclassic", "killer6", "killer 6", "classic")
    options: ClassVar[tuple[OptionSpec, ...]] = ()
    variant: ClassVar[Variant] = Classic()


KILLER = Killer()
KILLER_CLASSIC = KillerClassic()
