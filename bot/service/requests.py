"""What a front end may ask the service: one typed, frozen record per request, handed to
:meth:`bot.service.croupier.Croupier.handle`, which answers what the record's type parameter says
(a :class:`~bot.replies.Reply` for everything a person asked; data for the few queries a front end
draws itself). This module and ``handle`` are all a front end sees of the service — so it also names
the records and codes the answers carry (a pending delivery, a reminder, a refusal code).

Requests that act in a channel carry the :class:`Incoming` message that asked; the service handles
them in one frame (:meth:`bot.service.croupier.Croupier.handle`): one at a time per channel, exactly
once per message id, a refusal recorded, the request counted.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, TypeVar

from bot.exports import StandingsTable
from bot.replies import Reply
from bot.service.actions import ChangeSettings, ModeratorAction, NewTournament, OpenGame
from bot.service.corrections import MAX_ADJUSTMENT, MAX_REASON, Adjust, Audit, Disqualify, Reinstate, Undo
from bot.service.fairness import FACES, Fairness, p_text, verdict
from bot.service.forum import PLAYED_IN_THREAD, RESULT, THREAD, Closing, Pending, Reminder
from bot.service.moves import might_be_command
from bot.service.pages import GamePage, LiveGame, TournamentLink, TournamentPage, Voided
from bot.service.suggestions import Suggestion
from bot.service.verify import Report
from bot.store import CatchUpPoint, ChannelDefaults, Tournament
from engine.game import Command
from engine.numbers import SNOWFLAKE_MAX, whole_number

T = TypeVar("T")

NOTHING_OPEN = "nothing_open"  # a game's word where no game is open: the refusal code of the hint


@dataclass(frozen=True)
class Incoming:
    """A message from any front end, already stripped of its transport."""

    message_id: str  # Discord message / interaction id, console line id, …: the exactly-once key
    guild: str
    channel: str
    author: str  # participant id (Discord user id; the name on the console)
    author_name: str
    text: str = ""
    is_moderator: bool = False  # a moderator whatever the channel says (Manage Server, --moderator)
    is_admin: bool = False
    roles: tuple[tuple[str, str], ...] = ()  # (id, name) of the author's roles, for the moderator role
    parent: str = ""  # the channel a thread belongs to; "" when the message was typed in a channel
    # Where it was typed: "text" (a text channel), "forum" (a forum itself), "thread" (a thread of a text
    # channel), "post" (a forum post), "" (anywhere else: the console, a replay). Decides where a new
    # game is played (see :class:`Open`).
    place: str = ""
    tracked: bool = False  # the front end acknowledges each answer's delivery (command_log.delivery)

    @property
    def home(self) -> str:
        """Where the tournament, its settings and its standings live: a thread's parent channel, or
        the channel itself. Games live in ``channel`` (a Durchgang's thread)."""
        return self.parent or self.channel


class Request(Generic[T]):
    """A request whose answer is a ``T``."""

    __slots__ = ()


# What each feature module gives the service's table: the request types it handles, with its handler
# (called with the service and the request).
Handlers = dict[type[Request[Any]], Callable[..., Awaitable[Any]]]


class InChannel(Request[Reply]):
    """A request about the channel of ``msg``, answered in the frame: one per channel at a time, so
    answers leave in the order they were decided. ``counted``: a move or an action, counted and logged
    once settled (:mod:`bot.observability.requests`); ``action``: a moderator's."""

    __slots__ = ()
    msg: Incoming
    counted = False
    action = False


# --- moves ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Line(InChannel):
    """A typed chat line: a command of the channel's open game, or chit-chat (answered ``silent``) —
    unless ``required``: words sent as a command (Discord's ``/zug``), refused when they hold none."""

    msg: Incoming
    counted = True
    required: bool = False


@dataclass(frozen=True)
class Pick(InChannel):
    """A list picked from what the open game offers for ``what`` (Discord's ``/joker wählen``): sent as
    the line the game says it in, like words sent as a command."""

    msg: Incoming
    counted = True
    what: str
    picked: str


@dataclass(frozen=True)
class Move(InChannel):
    """A command a front end built (a slash command, the console's /join …), applied exactly once."""

    msg: Incoming
    counted = True
    command: Command


@dataclass(frozen=True)
class Press(InChannel):
    """A press on a board drawn for ``version`` of game ``game_id``: the indices of the picked choices."""

    msg: Incoming
    counted = True
    game_id: int
    version: int
    picked: tuple[int, ...]


# --- moderation (the actions: bot/service/actions.py, the corrections: bot/service/corrections.py) ----


@dataclass(frozen=True)
class Moderate(InChannel):
    """A moderator's action — a tournament, a game opened, settings, a correction — checked for the
    right, validated, and logged in one transaction."""

    msg: Incoming
    act: ModeratorAction
    counted = True
    action = True


@dataclass(frozen=True)
class Refuse(InChannel):
    """A refusal the front end found itself (an unknown command, a malformed line), said in the
    channel's language."""

    msg: Incoming
    code: str
    facts: Mapping[str, Any] = field(default_factory=dict)


# --- questions answered with a Reply ---------------------------------------------------------------


@dataclass(frozen=True)
class Standings(InChannel):
    """The running tournament table, for everybody."""

    msg: Incoming


@dataclass(frozen=True)
class Tournaments(InChannel):
    """The channel's tournaments with their ids and dates, newest last."""

    msg: Incoming


@dataclass(frozen=True)
class Export(InChannel):
    """The standings as a paste-ready file (``format``: markdown, csv, json); admins only."""

    msg: Incoming
    format: str


@dataclass(frozen=True)
class Verify(InChannel):
    """The dice of closed games (or of game ``game_id``) re-derived from their seeds and compared."""

    msg: Incoming
    game_id: int | None = None


@dataclass(frozen=True)
class Help(InChannel):
    """The front end's commands and the open game's words."""

    msg: Incoming


@dataclass(frozen=True)
class Rules(InChannel):
    """A summary of the open game's rules (between games the last one's)."""

    msg: Incoming


@dataclass(frozen=True)
class Info(InChannel):
    """What the channel's game explains about one of its topics (``odds``, ``jokers``, …), or the
    list of its topics when ``topic`` is empty."""

    msg: Incoming
    topic: str = ""


@dataclass(frozen=True)
class Corrections(InChannel):
    """Every correction of the current tournament — when, who, what, why."""

    msg: Incoming


# --- questions answered with data -----------------------------------------------------------------


@dataclass(frozen=True)
class Suggest(Request[list[Suggestion]]):
    """Choices for an option being typed (Discord's autocomplete): ``what`` is ``players``, ``options``
    (of the game ``kind``), ``topics``, or anything the open game offers (``Game.suggest``)."""

    msg: Incoming
    what: str
    typed: str
    kind: str = ""


@dataclass(frozen=True)
class TableOf(Request[StandingsTable | None]):
    """A tournament's table (``croupier export``): the channel's current one, or the one given by id
    or name. LookupError for a name several tournaments carry."""

    channel: str
    tournament: str | None = None


@dataclass(frozen=True)
class VerifyAll(Request[list[tuple[bool, str]]]):
    """Every closed game\'s verification (or game ``game_id``\'s): whether it holds, and its line in
    English (``croupier verify``)."""

    game_id: int | None = None


@dataclass(frozen=True)
class AuditOf(Request[list[str] | None]):
    """A game's whole log as lines, voided entries with the undo that voided them (``croupier audit``)."""

    game_id: int


@dataclass(frozen=True)
class Defaults(Request[ChannelDefaults]):
    """The settings every channel has until a moderator changes them (from the bot's configuration)."""


@dataclass(frozen=True)
class FinalState(Request[tuple[dict[str, Any], int] | None]):
    """A game's replay summary and the dice it used (``croupier replay``)."""

    guild: str
    channel: str
    game_id: int


# --- the web pages (bot/service/pages.py): read-only, answered outside any channel frame ----------------


@dataclass(frozen=True)
class WebIndex(Request[tuple[TournamentLink, ...]]):
    """The tournaments of the channels their moderators listed on the start page."""


@dataclass(frozen=True)
class WebTournament(Request[TournamentPage | None]):
    """A tournament of the channel whose pages ``token`` opens (its newest without an id); None when
    the channel is not on the web."""

    token: str
    tournament_id: int | None = None


@dataclass(frozen=True)
class WebGame(Request[GamePage | None]):
    """A game of the channel whose pages ``token`` opens; None otherwise."""

    token: str
    game_id: int


@dataclass(frozen=True)
class WebLive(Request[LiveGame | None]):
    """An open game's table now and its moves after the log cursor ``after``."""

    token: str
    game_id: int
    after: int = 0


@dataclass(frozen=True)
class WebStats(Request[tuple[str, Tournament, Fairness] | None]):
    """A tournament's fairness figures and the language to word them in (``croupier stats``; any
    channel, on the web or not: the operator's command line)."""

    channel: str = "console"
    tournament_id: int | None = None


@dataclass(frozen=True)
class StoreAddress(Request[str]):
    """The database's address, for naming it in an outage (the web's 503 page logs it)."""


# --- the turn clock --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tick(Request[list[tuple[str, Reply]]]):
    """The turn clock: apply the turn-timeout rule to every game past its deadline (once each) — only
    in ``guilds`` when given. Answers (channel, reply) for each (``tracked``: deliveries acknowledged)."""

    tracked: bool = False
    guilds: Collection[str] | None = None


@dataclass(frozen=True)
class Remind(Request[list[Reminder]]):
    """Claim the reminders due now (once per deadline, across processes), only in ``guilds`` if given."""

    guilds: Collection[str] | None = None


# --- deliveries --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Delivered(Request[None]):
    """The answer of log entry ``log_id`` reached its channel (written with the next write)."""

    log_id: int


@dataclass(frozen=True)
class Undeliverable(Request[None]):
    """The answer of log entry ``log_id`` can never be posted (its channel is gone): stop trying."""

    log_id: int


@dataclass(frozen=True)
class Flush(Request[int]):
    """Write the waiting acknowledgements now (idle, or stopping); answers how many."""


@dataclass(frozen=True)
class Waiting(Request[int]):
    """How many acknowledgements wait to be written."""


@dataclass(frozen=True)
class DueIn(Request[float]):
    """Seconds until the waiting acknowledgements need a transaction of their own, when no write
    carries them within ``period`` seconds."""

    period: float


@dataclass(frozen=True)
class NoteReadsLater(Request[None]):
    """How far a front end has read its channels, written with the process's next write (or a flush)."""

    reads: Mapping[tuple[str, str], str]


@dataclass(frozen=True)
class PendingDeliveries(Request[list[Pending]]):
    """Answers logged before ``before`` whose delivery was never acknowledged, in log order."""

    before: datetime


@dataclass(frozen=True)
class PendingClosings(Request[list[Closing]]):
    """Finished games (ended before ``before``) whose thread closing was left unfinished."""

    before: datetime


@dataclass(frozen=True)
class ClosingDone(Request[None]):
    """A step (``thread`` or ``result``) of a finished game's thread closing is done."""

    game_id: int
    step: str


@dataclass(frozen=True)
class CatchUpPoints(Request[tuple[CatchUpPoint, ...]]):
    """Every open game's channel and the last chat line logged there (where a catch-up reads from)."""


@dataclass(frozen=True)
class NoteReads(Request[int]):
    """How far a front end has read its channels, (guild, channel) → newest message read; answers how
    many were kept."""

    reads: Mapping[tuple[str, str], str]


@dataclass(frozen=True)
class Recall(Request[str | None]):
    """A fact a front end kept between starts."""

    key: str


@dataclass(frozen=True)
class Remember(Request[None]):
    """Keep a fact between starts, replacing what was kept under ``key``."""

    key: str
    value: str


def role_id_of(role_setting: str) -> str | None:
    """The role's id when the setting gives one (``1234``, ``<@&1234>``, ``@1234``); None for a name."""
    wanted = role_setting.strip()
    for prefix in ("<@&", "@"):
        if wanted.startswith(prefix):
            wanted = wanted[len(prefix) :].rstrip(">")
            break
    found = whole_number(wanted, SNOWFLAKE_MAX)
    return None if found is None else str(found)


__all__ = [
    "FACES",
    "MAX_ADJUSTMENT",
    "MAX_REASON",
    "NOTHING_OPEN",
    "PLAYED_IN_THREAD",
    "RESULT",
    "THREAD",
    "Adjust",
    "Audit",
    "AuditOf",
    "CatchUpPoints",
    "ChangeSettings",
    "Closing",
    "ClosingDone",
    "Corrections",
    "Defaults",
    "Delivered",
    "Disqualify",
    "DueIn",
    "Export",
    "Fairness",
    "FinalState",
    "Flush",
    "GamePage",
    "Help",
    "InChannel",
    "Incoming",
    "Info",
    "Line",
    "LiveGame",
    "Moderate",
    "Move",
    "NewTournament",
    "NoteReads",
    "NoteReadsLater",
    "OpenGame",
    "Pending",
    "PendingClosings",
    "PendingDeliveries",
    "Pick",
    "Press",
    "Recall",
    "Refuse",
    "Reinstate",
    "Remember",
    "Remind",
    "Reminder",
    "Report",
    "Request",
    "Rules",
    "Standings",
    "StoreAddress",
    "Suggest",
    "Suggestion",
    "TableOf",
    "Tick",
    "TournamentLink",
    "TournamentPage",
    "Tournaments",
    "Undeliverable",
    "Undo",
    "Verify",
    "VerifyAll",
    "Voided",
    "Waiting",
    "WebGame",
    "WebIndex",
    "WebLive",
    "WebStats",
    "WebTournament",
    "might_be_command",
    "p_text",
    "role_id_of",
    "verdict",
]
