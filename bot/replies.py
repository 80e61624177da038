"""What the croupier answers: one :class:`Reply` that carries everything a front end draws.

The service renders every sentence and label in the channel's language before a reply leaves it, for
no medium in particular: the story, the title, the cards and the result are in the neutral form of
:mod:`bot.markup`, which each front end spells for its medium (:meth:`Reply.spelled`) before it arranges
the parts; front ends (console, Discord, replay, web) never look at a game's state. A reply is also
what the command log keeps — in the neutral form, marked ``"form": 2`` — so a redelivered message is
answered with exactly what it got the first time (:meth:`Reply.to_log`, :meth:`Reply.from_log`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from datetime import datetime
from functools import lru_cache
from operator import attrgetter
from typing import Any

from bot import markup
from bot.exports import StandingsTable
from bot.texts import DEFAULT, LANGUAGES, render


@dataclass(frozen=True)
class Row:
    """One seat of the running table as shown to people."""

    player: str  # participant id
    name: str
    role: str  # role code
    role_label: str  # localised
    points: int
    to_act: bool
    details: str = ""  # localised: what else the seat shows (jokers in hand, valve level …), or ""


@dataclass(frozen=True)
class Button:
    """One choice of the board: its place among the board's choices, and how it is shown."""

    index: int
    label: str
    action: str
    group: str = ""  # choices of one group form one select menu
    multi: bool = False
    limit: int = 0  # a multi group's most picks (0: all)
    tone: str = ""  # "" | "go" | "halt" | "good"


@dataclass(frozen=True)
class Board:
    """What the player to act may press now, bound to the game version it was drawn for."""

    game_id: int
    version: int
    player: str  # the only participant whose presses count
    buttons: tuple[Button, ...]
    placeholders: tuple[tuple[str, str], ...] = ()  # (group, what its select menu says when empty)

    def placeholder(self, group: str) -> str:
        return next((text for name, text in self.placeholders if name == group), "")


@dataclass(frozen=True)
class Card:
    """A highlight beside the story (the jokers a player brings): a heading and named entries."""

    title: str
    entries: tuple[tuple[str, str], ...]  # (shown name, its text)


@dataclass(frozen=True)
class Attachment:
    """A file a reply hands over (an export): a file name stem, its format and its text."""

    stem: str
    format: str
    text: str


@dataclass(frozen=True)
class Live:
    """Where a game's live table is (the first message of its thread) and what its header shows
    besides the running table, so a front end can redraw it from any reply about the game."""

    message: str  # "<channel>:<message>"
    commitment: str | None = None  # the dice commitment, public from the opening (None: scripted dice)
    seed: str | None = None  # the seed the commitment hides, revealed once the game is over (hex)
    options: tuple[tuple[str, str], ...] = ()  # the options the game was opened with, as typed
    joinable: bool = False  # the game still takes sign-ups
    finished: bool = False

    @property
    def channel(self) -> str:
        return self.message.partition(":")[0]

    @property
    def message_id(self) -> str:
        return self.message.partition(":")[2]


@dataclass(frozen=True)
class Reply:
    ok: bool
    lines: tuple[str, ...] = ()  # the story, in order
    title: str = ""  # the game's title ("Durchgang 3"), or what a plain answer is about
    table: tuple[Row, ...] = ()
    board: Board | None = None
    cards: tuple[Card, ...] = ()
    language: str = DEFAULT
    game_id: int | None = None
    game_kind: str | None = None
    version: int | None = None  # the game's version after this reply
    to_act: str | None = None
    wake: str | None = None  # whom to ping: the turn passed to someone who did not just act
    deadline: datetime | None = None  # when the player to act times out
    commitment: str | None = None
    seed: str | None = None
    error_code: str | None = None
    private: bool = False  # only for the person who asked (advice, a refusal of a press)
    silent: bool = False  # chit-chat: say nothing
    duplicate: bool = False  # answered from the log: the message was handled before
    attachment: Attachment | None = None
    standings: StandingsTable | None = None  # the tournament table, for front ends that draw it
    live: Live | None = None  # the game's live table, to redraw after this reply (threads only)
    log_id: int | None = None  # the command-log entry whose delivery the front end acknowledges
    thread_title: str = ""  # opening: the name of the game's thread ("Durchgang 3 · Frühjahrsturnier")
    result: str = ""  # a finished game in a thread: the line for its home ("Durchgang 3: Anna gewinnt")
    # The game this answers about is played in another channel than the one asked in (a thread of
    # it): that channel. A sign-up made in the home and carried out there, or a refusal pointing at it.
    elsewhere: str = ""

    @classmethod
    def nothing(cls) -> Reply:
        """The answer to chit-chat: say nothing (the console shows a dim note)."""
        return cls(ok=True, silent=True)

    def spelled(self, speller: markup.Speller) -> Reply:
        """The reply with its sentences spelled for one medium (story, title, cards, result)."""
        lang = self.language

        def spell(text: str) -> str:
            return speller.spell(text, lang) if text else text

        return replace(
            self,
            lines=tuple(spell(line) for line in self.lines),
            title=spell(self.title),
            cards=tuple(
                Card(spell(card.title), tuple((name, spell(text)) for name, text in card.entries))
                for card in self.cards
            ),
            result=spell(self.result),
        )

    @property
    def text(self) -> str:
        """The whole reply as lines: the story, then the running table (console, replay — once spelled
        for them, :meth:`spelled`)."""
        return text_of(self.lines, self.title, self.table, self.language)

    def to_log(self) -> dict[str, Any]:
        """The reply as the command log keeps it — without its board: a message answered again from the
        log is a repeat, and a repeat's buttons would be outdated anyway."""
        data = dict(zip(_SIMPLE_FIELDS, _simple_values(self), strict=True))
        data["lines"] = list(self.lines)
        data["title"], data["result"] = self.title, self.result
        data["table"] = [_plain(row) for row in self.table]
        data["cards"] = [
            {"title": card.title, "entries": [list(e) for e in card.entries]} for card in self.cards
        ]
        data["deadline"] = None if self.deadline is None else self.deadline.isoformat()
        data["attachment"] = None if self.attachment is None else _plain(self.attachment)
        data["form"] = markup.FORM
        return data

    @classmethod
    def from_log(cls, data: Mapping[str, Any]) -> Reply:
        """The reply as logged, marked as a repeat. Unknown keys (from older versions) are ignored; an
        entry without ``form`` was spelled for Discord by an older version (see :func:`logged`)."""
        said = logged(data)
        values = {name: data[name] for name in _SIMPLE_FIELDS if name in data}
        values["lines"] = tuple(said(str(line)) for line in data.get("lines", ()))
        values["title"] = said(str(data.get("title", "")))
        values["result"] = said(str(data.get("result", "")))
        values["table"] = tuple(Row(**row) for row in data.get("table", ()))
        values["cards"] = tuple(
            Card(said(card["title"]), tuple((str(n), said(str(t))) for n, t in card["entries"]))
            for card in data.get("cards", ())
        )
        deadline = data.get("deadline")
        values["deadline"] = None if deadline is None else datetime.fromisoformat(deadline)
        attachment = data.get("attachment")
        values["attachment"] = None if attachment is None else Attachment(**attachment)
        return replace(cls(ok=bool(data.get("ok", False))), **values, duplicate=True)


def text_of(lines: Sequence[str], title: str, table: Sequence[Row], lang: str) -> str:
    """:attr:`Reply.text` of these parts, for a caller that has them without a reply."""
    if not table:
        return "\n".join(lines)
    return "\n".join((*lines, f"— {title} —", *[_row_text(row, lang) for row in table]))


@lru_cache(maxsize=4096)
def _row_text(row: Row, lang: str) -> str:
    """One row of the running table as text ("▶ anna (en vie) : 0"). Remembered by row and language:
    from one move to the next most seats do not change, and a row is immutable — all its fields are
    text, whole numbers and a flag, so two equal rows say the same (the catalogues are read once)."""
    marker = "▶ " if row.to_act else "  "
    details = f" · {row.details}" if row.details else ""
    facts = {"name": row.name, "role": row.role_label, "points": row.points, "details": details}
    return marker + render("common.table_row", facts, lang)  # "anna (en vie) : 0"


LANGUAGES.on_refresh(_row_text.cache_clear)  # the catalogues were read again


def logged(data: Mapping[str, Any], *, discord: bool = True) -> Callable[[str], str]:
    """How to read a logged reply's sentences: as they are when the entry is in the neutral form, else
    (an entry of an older version, which stored each medium's own text) through
    :func:`bot.markup.from_legacy` — ``discord``: whether it was spelled for Discord."""
    if data.get("form") == markup.FORM:
        return lambda text: text
    return lambda text: markup.from_legacy(text, discord=discord) if text else text


# Structured fields are logged by hand; boards, standings, the live table and the entry's own id are not
# logged at all (a repeat draws no board and edits no live table).
_STRUCTURED = frozenset(
    {"lines", "table", "cards", "board", "deadline", "attachment", "duplicate", "standings", "live", "log_id"}
    | {"title", "result"}
)
_SIMPLE_FIELDS = tuple(f.name for f in fields(Reply) if f.name not in _STRUCTURED)


def _plain(value: Any) -> dict[str, Any]:
    got = _GETTERS.get(type(value))
    if got is None:  # once per class: dataclasses.fields builds its tuple anew on every call
        names = tuple(f.name for f in fields(value))
        read = attrgetter(*names) if len(names) > 1 else lambda one: (getattr(one, names[0]),)
        got = _GETTERS[type(value)] = (names, read)
    state: dict[str, Any] | None = getattr(value, "__dict__", None)
    if state is not None and tuple(state) == got[0]:  # its fields alone, in order (as __init__ set them)
        return state.copy()
    return dict(zip(got[0], got[1](value), strict=True))


# A class's field names, and the getter reading all of them at once (in C, not attribute by attribute).
_GETTERS: dict[type[Any], tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]]] = {}
_simple_values = attrgetter(*_SIMPLE_FIELDS)


__all__ = ["Attachment", "Board", "Button", "Card", "Live", "Reply", "Row"]
