"""The face every game shows the croupier service, so one service runs them all.

A game is a set of pure functions over a plain, JSON-serialisable state: ``open`` builds the state
from the moderator's options, ``parse`` reads a chat line, ``apply`` performs one command with the
dice it is handed and returns the new state with the events to announce. ``apply`` must leave the
state it was given untouched when it raises (states are immutable).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Protocol, TypeVar

from engine.dice import DiceSource

_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")


def _snake(name: str) -> str:
    return _CAMEL.sub("_", name).lower()


@dataclasses.dataclass(frozen=True)
class Event:
    """A fact the croupier announces ("rolled 4", "robbed 2 from anna").

    Subclasses are frozen dataclasses; ``kind`` (the class name in snake case, prefixed by the game's
    ``namespace``) names the message-catalogue entry the reply is rendered from.
    """

    namespace: ClassVar[str] = ""

    @classmethod
    def kind(cls) -> str:
        name = _snake(cls.__name__)
        return f"{cls.namespace}.{name}" if cls.namespace else name

    def facts(self) -> dict[str, Any]:
        # Shallow on purpose: facts are flat values and tuples; a deep copy per event was a measurable
        # share of every command (bench/command_path.py --profile).
        return {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind(), **self.facts()}


@dataclasses.dataclass(frozen=True)
class Command:
    """A typed player or moderator command; ``moderator_only`` commands need the moderator right."""

    moderator_only: ClassVar[bool] = False


@dataclasses.dataclass(frozen=True)
class Seat:
    """One row of the running table shown under every reply."""

    player: str  # participant id
    name: str  # display name
    role: str  # game-specific role code ("jungfrau", "playing", "alive", "dying" …)
    points: int  # running total (verflixte 6) or hit points (Killer)
    to_act: bool = False


@dataclasses.dataclass(frozen=True)
class Choice:
    """Something the player to act may do now, as the words they would type.

    Front ends offer choices as buttons and selects; pressing one sends its ``words`` through the same
    path as a typed line, so a button can never do what typing could not. Choices sharing a ``group``
    form one select menu; in a ``multi`` group the chosen options' ``words`` are joined with
    ``separator`` after ``prefix`` (Killer's "garde 6 6 5", the joker choice "Joker: A, B").
    """

    action: str  # stable key: "continue", "stop", "joker", "rob", "fight", "keep_die", "attack" …
    words: str  # the forum words this choice sends
    label: str  # what a button or option shows (a joker's or player's name, a die, "Weiter")
    group: str = ""
    multi: bool = False
    prefix: str = ""
    separator: str = " "
    limit: int = 0  # a multi group's most picks (0: as many as it has options)

    def compose(self, picked: Sequence[str]) -> str:
        """The words a multi-select sends for the options picked (each a ``words`` of this group)."""
        return f"{self.prefix} {self.separator.join(picked)}".strip()


State = TypeVar("State")


class Game(Protocol[State]):
    """What a game module exposes (see ``engine/verflixte6/game.py`` and ``engine/killer/game.py``)."""

    name: ClassVar[str]  # "verflixte6", "killer", "killer-classic"
    language: ClassVar[str]  # the default reply language: "de" or "fr"

    def open(self, options: Mapping[str, Any]) -> State:
        """A new game with validated options; bad options raise InvalidCommand."""
        ...

    def parse(self, text: str) -> Command | None:
        """The command in a chat line; None for chit-chat; InvalidCommand for a malformed command."""
        ...

    def apply(
        self, state: State, actor: str, command: Command, dice: DiceSource
    ) -> tuple[State, Sequence[Event]]:
        """Perform one command by participant ``actor``; refusals raise a CroupierError."""
        ...

    def dump(self, state: State) -> dict[str, Any]: ...

    def load(self, data: Mapping[str, Any]) -> State: ...

    def table(self, state: State) -> Sequence[Seat]:
        """The running table, in turn order."""
        ...

    def to_act(self, state: State) -> str | None:
        """The participant whose move the game waits for, if any."""
        ...

    def finished(self, state: State) -> bool: ...

    def choices(self, state: State) -> Sequence[Choice]:
        """What the participant to act may do now (empty when nobody is to act)."""
        ...

    def summary(self, state: State) -> dict[str, Any]:
        """The state part of the ``croupier replay`` output (``players`` and, for Killer, the winner)."""
        ...


# Lifecycle commands shared by every game. Front ends build them from slash commands; each game's
# ``apply`` decides what they mean for it (and refuses those it has no use for).


@dataclasses.dataclass(frozen=True)
class Join(Command):
    """The actor signs up under a display name."""

    name: str


@dataclasses.dataclass(frozen=True)
class Leave(Command):
    """The actor withdraws before playing."""


@dataclasses.dataclass(frozen=True)
class Start(Command):
    """A moderator ends the sign-up phase where the game has one (Killer, shuffled order)."""

    moderator_only: ClassVar[bool] = True


@dataclasses.dataclass(frozen=True)
class Skip(Command):
    """A moderator moves a waiting participant to the end of the queue."""

    moderator_only: ClassVar[bool] = True
    target: str


@dataclasses.dataclass(frozen=True)
class Remove(Command):
    """A moderator takes a participant out of the game."""

    moderator_only: ClassVar[bool] = True
    target: str


@dataclasses.dataclass(frozen=True)
class Close(Command):
    """A moderator closes the game; pending decisions take their safe defaults."""

    moderator_only: ClassVar[bool] = True


@dataclasses.dataclass(frozen=True)
class Timeout(Command):
    """The player to act let the turn timeout pass (sent by the service, never typed)."""

    moderator_only: ClassVar[bool] = True
