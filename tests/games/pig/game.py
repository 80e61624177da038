"""Pig behind the :class:`engine.game.Game` face: plain frozen state, pure steps, facts as events."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from engine.commands import fold, near_miss, valid_now
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
    Result,
    Seat,
    Start,
    Timeout,
    Topic,
)

DEFAULT_TARGET = 30


@dataclasses.dataclass(frozen=True)
class Roll(Command):
    """``roll``: the croupier rolls one more die for the player to act."""


@dataclasses.dataclass(frozen=True)
class Hold(Command):
    """``hold``: bank the turn's pips."""


@dataclasses.dataclass(frozen=True)
class PigEvent(Event):
    namespace: ClassVar[str] = "pig"


@dataclasses.dataclass(frozen=True)
class Joined(PigEvent):
    player: str


@dataclasses.dataclass(frozen=True)
class Left(PigEvent):
    player: str


@dataclasses.dataclass(frozen=True)
class Started(PigEvent):
    player: str  # the first to roll


@dataclasses.dataclass(frozen=True)
class Rolled(PigEvent):
    player: str
    face: int
    turn: int  # the turn's pips so far


@dataclasses.dataclass(frozen=True)
class Pigged(PigEvent):
    """A 1: the turn's pips are gone."""

    player: str
    lost: int


@dataclasses.dataclass(frozen=True)
class Held(PigEvent):
    player: str
    banked: int
    total: int


@dataclasses.dataclass(frozen=True)
class YourTurn(PigEvent):
    player: str
    total: int


@dataclasses.dataclass(frozen=True)
class Won(PigEvent):
    player: str
    total: int


@dataclasses.dataclass(frozen=True)
class Closed(PigEvent):
    """The moderator closed the game before anyone reached the target."""


@dataclasses.dataclass(frozen=True)
class Player:
    id: str
    name: str
    total: int = 0


@dataclasses.dataclass(frozen=True)
class PigState:
    target: int = DEFAULT_TARGET
    players: tuple[Player, ...] = ()
    started: bool = False
    current: int = 0  # index of the player to act
    turn: int = 0  # the turn's unbanked pips
    winner: str | None = None
    over: bool = False


_WORDS = {"roll": Roll, "würfeln": Roll, "wuerfeln": Roll, "lancer": Roll, "hold": Hold, "halten": Hold}
_WORDS |= {"garder": Hold, "stop": Hold}


class Pig:
    name: ClassVar[str] = "pig"
    aliases: ClassVar[tuple[str, ...]] = ("schwein", "cochon")
    language: ClassVar[str] = "en"
    catalogue: ClassVar[str] = "tests.games.pig"
    options: ClassVar[tuple[OptionSpec, ...]] = (OptionSpec("target", ("20", "30", "50", "100")),)
    ranked: ClassVar[bool] = True
    colour: ClassVar[int] = 0xE8A0B4
    default: ClassVar[bool] = False
    topics: ClassVar[tuple[Topic, ...]] = (Topic("odds", "info.odds.title", "info.odds.summary"),)

    def open(self, options: Mapping[str, Any]) -> PigState:
        unknown = sorted(set(options) - {"target"})
        if unknown:
            raise InvalidCommand("pig_unknown_option", option=unknown[0])
        raw = str(options.get("target", DEFAULT_TARGET))
        if not raw.isdigit() or not 10 <= int(raw) <= 1000:
            raise InvalidCommand("pig_bad_target", value=raw)
        return PigState(target=int(raw))

    def parse(self, text: str) -> Command | None:
        words = fold(text).split()
        return _WORDS[words[0]]() if len(words) == 1 and words[0] in _WORDS else None

    def near_miss(self, text: str, state: PigState | None = None) -> str | None:
        accepts = None if state is None else valid_now(lambda: self.choices(state), self.parse)
        return near_miss(text, self.parse, {"roll": "roll", "hold": "hold"}, accepts=accepts)

    def suggest(self, state: PigState, what: str) -> Candidates | None:
        return None  # Pig asks for no value a player could be helped to type

    def misread(self, state: PigState, actor: str, error: InvalidCommand) -> CroupierError:
        """Pig's words take no arguments, so nothing is malformed; were it, the turn comes first."""
        acting = self.to_act(state)
        return NotYourTurn("pig_not_your_turn", player=acting) if acting not in (None, actor) else error

    def apply(
        self, state: PigState, actor: str, command: Command, dice: DiceSource
    ) -> tuple[PigState, Sequence[Event]]:
        if state.over:
            raise IllegalCommand("pig_over")
        if isinstance(command, Join):
            return _join(state, actor, command.name)
        if isinstance(command, Leave):
            return _leave(state, actor)
        if isinstance(command, Start):
            return _start(state)
        if isinstance(command, Close):
            return dataclasses.replace(state, over=True), [Closed()]
        if not state.players:
            raise IllegalCommand("pig_nobody")
        player = state.players[state.current]
        if isinstance(command, Timeout):
            command = Hold()
        elif actor != player.id:
            raise NotYourTurn("pig_not_your_turn", player=player.id)
        state, started = (state, []) if state.started else _start(state)
        if isinstance(command, Roll):
            new, events = _roll(state, player, dice.roll())
        elif isinstance(command, Hold):
            new, events = _hold(state, player)
        else:
            raise InvalidCommand("pig_unknown_command")
        return new, [*started, *events]

    def prepare(self, state: PigState, command: Command) -> Callable[[], object] | None:
        return None  # one die at a time: nothing is slow

    def dump(self, state: PigState) -> dict[str, Any]:
        return {"format": 1, **dataclasses.asdict(state)}

    def load(self, data: Mapping[str, Any]) -> PigState:
        if data.get("format") != 1:
            raise InvalidCommand("pig_bad_snapshot")
        fields = {key: value for key, value in data.items() if key != "format"}
        players = tuple(Player(**player) for player in fields.pop("players"))
        return PigState(players=players, **fields)

    def table(self, state: PigState) -> Sequence[Seat]:
        acting = self.to_act(state)
        return [Seat(p.id, p.name, _role(state, p), p.total, p.id == acting) for p in state.players]

    def to_act(self, state: PigState) -> str | None:
        return None if state.over or not state.players else state.players[state.current].id

    def finished(self, state: PigState) -> bool:
        return state.over

    def choices(self, state: PigState) -> Sequence[Choice]:
        if self.to_act(state) is None:
            return ()
        return (
            Choice("roll", "roll", tone="go"),
            Choice("hold", "hold", {"turn": state.turn}, tone="halt"),
        )

    def prompt(self, state: PigState) -> Sequence[Event]:
        """Whose turn it is; Pig's two words are on the buttons and in the help."""
        acting = self.to_act(state)
        if acting is None:
            return ()
        return (YourTurn(acting, state.players[state.current].total),)

    def highlights(self, before: PigState, after: PigState, events: Sequence[Event]) -> Sequence[Highlight]:
        return ()

    def info(self, state: PigState | None, topic: str) -> Sequence[Line]:
        """``odds``: how likely a roll is to lose the turn, and the target of the game."""
        if topic != "odds":
            return ()
        target = state.target if state is not None else DEFAULT_TARGET
        return (Line("info.odds", {"target": target}),)

    def results(self, state: PigState) -> Mapping[str, Result]:
        return {p.id: Result(points=p.total) for p in state.players}

    def summary(self, state: PigState) -> dict[str, Any]:
        players = {p.id: {"total": p.total} for p in state.players}
        return {"players": players, "winner": state.winner, "finished": state.over}


def _role(state: PigState, player: Player) -> str:
    if state.winner == player.id:
        return "winner"
    return "rolling" if not state.over and state.players[state.current].id == player.id else "waiting"


def _join(state: PigState, actor: str, name: str) -> tuple[PigState, list[Event]]:
    if state.started:
        raise IllegalCommand("pig_started")
    if any(p.id == actor for p in state.players):
        raise IllegalCommand("pig_already_joined")
    return dataclasses.replace(state, players=(*state.players, Player(actor, name))), [Joined(actor)]


def _leave(state: PigState, actor: str) -> tuple[PigState, list[Event]]:
    if state.started or all(p.id != actor for p in state.players):
        raise IllegalCommand("pig_cannot_leave")
    players = tuple(p for p in state.players if p.id != actor)
    return dataclasses.replace(state, players=players), [Left(actor)]


def _start(state: PigState) -> tuple[PigState, list[Event]]:
    if state.started:
        raise IllegalCommand("pig_started")
    if not state.players:
        raise IllegalCommand("pig_nobody")
    return dataclasses.replace(state, started=True), [Started(state.players[0].id)]


def _roll(state: PigState, player: Player, face: int) -> tuple[PigState, list[Event]]:
    if face == 1:
        lost = state.turn
        new, events = _next(dataclasses.replace(state, turn=0))
        return new, [Rolled(player.id, face, 0), Pigged(player.id, lost), *events]
    turn = state.turn + face
    return dataclasses.replace(state, turn=turn), [Rolled(player.id, face, turn)]


def _hold(state: PigState, player: Player) -> tuple[PigState, list[Event]]:
    banked = dataclasses.replace(player, total=player.total + state.turn)
    players = tuple(banked if p.id == player.id else p for p in state.players)
    state = dataclasses.replace(state, players=players, turn=0)
    held = Held(player.id, banked.total - player.total, banked.total)
    if banked.total >= state.target:
        return dataclasses.replace(state, winner=player.id, over=True), [held, Won(player.id, banked.total)]
    new, events = _next(state)
    return new, [held, *events]


def _next(state: PigState) -> tuple[PigState, list[Event]]:
    current = (state.current + 1) % len(state.players)
    player = state.players[current]
    return dataclasses.replace(state, current=current), [YourTurn(player.id, player.total)]


GAME = Pig()
