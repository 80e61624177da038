"""What the repositories hand out: plain frozen values, safe to keep after the transaction ends."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

from bot.settings import DEFAULT_TURN_TIMEOUT_SECONDS, Settings


@dataclasses.dataclass(frozen=True)
class Tournament:
    id: int
    guild: str
    channel: str
    name: str
    scoring: str  # "sum" | "placement"
    created_at: datetime


@dataclasses.dataclass(frozen=True)
class ParticipantRecord:
    game_id: int
    player: str
    name: str
    position: int
    role: str
    points: int


@dataclasses.dataclass(frozen=True)
class GameRecord:
    """A game as stored. ``seed`` is secret while the game is open: never show it before ``closed``."""

    id: int
    tournament_id: int
    channel: str
    kind: str  # "verflixte6" | "killer" | "killer-classic"
    number: int  # 1, 2, … within the tournament
    options: dict[str, Any]
    status: str  # "open" | "closed"
    seed: bytes = dataclasses.field(repr=False)
    commitment: str
    dice_used: int
    snapshot: dict[str, Any] = dataclasses.field(repr=False)
    version: int
    to_act: str | None
    turn_deadline: datetime | None
    opened_at: datetime
    closed_at: datetime | None
    participants: tuple[ParticipantRecord, ...] = ()
    live_message: str | None = None  # "<channel>:<message>" of the live table (a thread's first message)
    reminded_at: datetime | None = None  # the player to act was reminded of this deadline

    @property
    def is_open(self) -> bool:
        return self.status == "open"


@dataclasses.dataclass(frozen=True)
class LogEntry:
    """One handled message: what was typed, what the engine made of it, the dice and the reply."""

    id: int
    message_id: str
    game_id: int | None
    channel: str
    actor: str
    text: str
    command: dict[str, Any] | None
    events: list[Any]
    dice: list[int]
    dice_from: int
    reply: Any
    created_at: datetime
    voided_by: int | None = None  # the correction (an undo) that voided this move; its dice stay used
    delivery: str | None = None  # "pending" | "delivered" | "undeliverable"; None: answered in place
    delivered_at: datetime | None = None

    @property
    def voided(self) -> bool:
        return self.voided_by is not None


@dataclasses.dataclass(frozen=True)
class Correction:
    """A moderator's correction of a tournament (see ``uow.corrections``), as the audit trail shows it."""

    id: int
    tournament_id: int
    kind: str  # "undo" | "adjust" | "disqualify" | "reinstate"
    player: str | None  # participant id (an undo: whose move was voided)
    player_name: str | None
    points: int  # an adjustment's ± points; 0 for the other kinds
    reason: str
    moderator: str
    moderator_name: str
    game_id: int | None
    voided_entry: int | None  # the command-log entry an undo voided
    created_at: datetime
    message_id: str
    game_number: int | None = None  # the game's number in its tournament, when it names one
    voided_text: str | None = None  # what the voided move said ("weiter")


@dataclasses.dataclass(frozen=True)
class NewCorrection:
    """A correction about to be recorded (see ``Corrections.add``)."""

    tournament_id: int
    kind: str
    reason: str
    moderator: str
    moderator_name: str
    message_id: str
    now: datetime
    player: str | None = None
    player_name: str | None = None
    points: int = 0
    game_id: int | None = None
    voided_entry: int | None = None


@dataclasses.dataclass(frozen=True)
class GameSave:
    """A game's next state, written over version ``expected_version`` (see ``Games.save``)."""

    game_id: int
    expected_version: int
    snapshot: dict[str, Any]
    dice_used: int
    to_act: str | None
    turn_deadline: datetime | None
    participants: Sequence[SeatLike]
    status: str = "open"
    closed_at: datetime | None = None


@dataclasses.dataclass(frozen=True)
class NewLogEntry:
    """A handled message about to be logged (see ``CommandLog.append``)."""

    message_id: str
    channel: str
    actor: str
    text: str
    now: datetime
    game_id: int | None = None
    command: dict[str, Any] | None = None
    events: Sequence[Any] = ()
    dice: Sequence[int] = ()
    dice_from: int = 0
    reply: Any = None
    delivery: str | None = None  # "pending" when the front end tracks the answer's delivery


@dataclasses.dataclass(frozen=True)
class CatchUpPoint:
    """Where to start reading a game channel's history after the bot was away: after its last logged
    chat line (``after``, the front end's message id) or the newest line noted as read (``read``),
    whichever is newer; else from when the game was opened."""

    guild: str
    channel: str
    game_id: int
    opened_at: datetime
    after: str | None = None  # the message id of the last chat line logged there, if any
    read: str | None = None  # the newest message noted as read there (``uow.forum.note_reads``)


@dataclasses.dataclass(frozen=True)
class Overdue:
    """An open game whose player to act let the turn deadline pass: what applying the timeout needs."""

    game_id: int
    version: int
    guild: str
    channel: str
    home: str  # the channel of its tournament (a thread's parent)
    to_act: str


@dataclasses.dataclass(frozen=True)
class ThreadGame:
    """An open game played in a thread of a home (a forum post, a text channel's thread): what the
    home's own channel needs to point at it."""

    game_id: int
    kind: str
    number: int
    channel: str  # the game's thread
    players: tuple[str, ...]  # the participant ids seated in it


@dataclasses.dataclass(frozen=True)
class Unreminded:
    """An open game whose player to act has a deadline and was not reminded of it yet."""

    game_id: int
    version: int
    guild: str
    channel: str
    home: str  # the channel of its tournament (a thread's parent): its settings apply
    turn_deadline: datetime


@dataclasses.dataclass(frozen=True)
class Unclosed:
    """A finished game played in a thread of its own whose closing is not all done: its thread still
    to archive and lock (``thread_closed`` False), or its home still without its result line."""

    game_id: int
    guild: str
    channel: str  # the game's thread
    home: str  # the channel of its tournament (the thread's parent): its settings apply
    closed_at: datetime
    thread_closed: bool
    result_posted: bool


@dataclasses.dataclass(frozen=True)
class ChannelDefaults:
    """The bot-wide values a channel falls back on when neither it nor its guild overrides them."""

    language: str | None = None
    moderator_role: str | None = None
    turn_timeout_seconds: int = DEFAULT_TURN_TIMEOUT_SECONDS
    threads: bool = True  # a game opened in a text channel gets a thread of its own

    @classmethod
    def from_settings(cls, settings: Settings) -> ChannelDefaults:
        return cls(
            language=settings.croupier_language,
            moderator_role=settings.moderator_role,
            turn_timeout_seconds=settings.turn_timeout_seconds,
        )


@dataclasses.dataclass(frozen=True)
class ChannelSettings:
    """The settings in force in one channel, each field resolved channel → guild → defaults."""

    guild: str
    channel: str
    language: str | None  # None: the game's own language
    moderator_role: str | None
    turn_timeout_seconds: int
    threads: bool = True  # a game opened in a text channel gets its own thread (a forum's always does)


@dataclasses.dataclass(frozen=True)
class ChannelState:
    """What a command needs to know of its channel, read in one statement: settings and open game."""

    settings: ChannelSettings
    game: GameRecord | None
    last_kind: str | None = None  # without an open game: the kind of the current tournament's last game


class SeatLike(Protocol):
    """Anything shaped like a row of the running table (``engine.game.Seat``, ``ParticipantRecord``)."""

    @property
    def player(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def role(self) -> str: ...

    @property
    def points(self) -> int: ...
