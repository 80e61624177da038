"""The read-only service behind the web pages and ``croupier stats``.

Every method is ONE read-only unit of work (``store.run(..., read_only=True)``) and answers plain
frozen values that hold only what may be shown: display names (never participant ids), the games'
public facts, the logged dice and answers, and a seed only once its game is closed. A channel's pages
exist only while a moderator has put it on the web (``/settings web=on``); every page is found
through the channel's token, so a hidden channel answers None like a token nobody ever had.

The web front end (:mod:`bot.web`) only draws these values; it never opens a unit of work itself.
A read that meets a pooled connection the server dropped is read once more on a fresh one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, TypeVar

from bot import markup
from bot.exports import StandingsTable
from bot.games import DEFAULT_LANGUAGE, GAMES
from bot.markup import plain
from bot.replies import logged
from bot.service.corrections import correction_line, named_as_shown
from bot.service.fairness import DiceMemo, Fairness, fairness_of
from bot.service.rendering import Narrator
from bot.service.standings import standings_of
from bot.service.topics import explained
from bot.shown_names import distinguished
from bot.spelling import CONSOLE
from bot.store import Correction, GameRecord, LogEntry, Store, StoreUnavailable, Tournament, UnitOfWork
from bot.store.repositories import VisibleChannel
from engine.game import Game

T = TypeVar("T")

# A croupier's line on the page: its text split at its code spans (the commitments and seeds the
# catalogues quote) — text, code, text, …, text; the odd positions are code.
Line = tuple[str, ...]

# Discord mentions in typed text, shown as names, never as ids: the mention markup (<@123>, <@!123>,
# <@&123>, <#123>) and the bare ``@123…`` the Discord front end stores for a mention of a person
# (bot.discord.mentions.service_text), a snowflake of 15 to 20 digits.
_MENTION = re.compile(r"<(@!?|@&|#)(\d+)>|(?<![\w@<])@(\d{15,20})(?!\d)")


# --- what the pages show ---------------------------------------------------------------------------


@dataclass(frozen=True)
class TournamentLink:
    """A tournament on the start page."""

    token: str
    tournament_id: int
    name: str
    language: str
    games: int
    current: bool  # the channel's newest tournament (the one /t/<token> shows)
    created_at: datetime


@dataclass(frozen=True)
class GameLink:
    """A game in a tournament's list."""

    game_id: int
    number: int
    title: str  # "Die verflixte 6! · Durchgang 3"
    status: str  # "open" | "closed"
    players: tuple[str, ...]
    dice: int


@dataclass(frozen=True)
class TournamentPage:
    token: str
    tournament_id: int
    name: str
    scoring: str
    language: str
    current: bool
    # The same table as `croupier export --format json`, moderators' corrections counted: its notes
    # hold each points adjustment and each disqualified player, with the reason.
    standings: StandingsTable
    games: tuple[GameLink, ...]
    fairness: Fairness
    others: tuple[tuple[int, str], ...]  # the channel's other tournaments: (id, name)
    corrections: tuple[str, ...] = ()  # every correction as `/corrections` words it, oldest first


@dataclass(frozen=True)
class Seat:
    name: str
    role: str  # localised
    points: int
    to_act: bool


@dataclass(frozen=True)
class Voided:
    """Why a move no longer counts: the moderator's undo (its dice stay used and are still checked)."""

    by: str  # the moderator's display name
    reason: str

    def to_json(self) -> dict[str, str]:
        return {"by": self.by, "reason": self.reason}


@dataclass(frozen=True)
class Move:
    """One logged message of a game: who, what they typed, the dice it used, the croupier's answer."""

    cursor: int  # the log entry's position in the whole log: the live page asks for those after it
    actor: str  # a display name, or "" for someone not seated (a moderator, the turn clock)
    kind: str  # the logged command's type ("Open", "Typed"…), "" when none
    text: str
    dice: tuple[int, ...]
    dice_from: int
    lines: tuple[Line, ...]
    at: datetime
    voided: Voided | None = None  # undone by a moderator


@dataclass(frozen=True)
class TopicSection:
    """A topic the game explains (``/info``), about this game: its entries split at code spans."""

    name: str
    title: str
    summary: str
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class GamePage:
    token: str
    tournament_id: int
    tournament: str
    game_id: int
    number: int
    title: str
    status: str
    language: str
    commitment: str
    seed: str | None  # hex; only once the game is closed
    dice_used: int
    version: int
    moves: tuple[Move, ...]
    table: tuple[Seat, ...]
    cursor: int  # the newest move's cursor (0 when none)
    topics: tuple[TopicSection, ...] = ()  # what the game explains on request, about this game

    @property
    def closed(self) -> bool:
        return self.status == "closed"


@dataclass(frozen=True)
class LiveGame:
    """What changed in an open game since the page's cursor: the table, and the moves after it."""

    status: str
    version: int
    dice_used: int
    table: tuple[Seat, ...]
    moves: tuple[Move, ...]
    cursor: int
    voided: Mapping[int, Voided] = field(default_factory=dict)  # every voided move so far, by cursor

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "version": self.version,
            "dice_used": self.dice_used,
            "cursor": self.cursor,
            "table": [
                {"name": s.name, "role": s.role, "points": s.points, "to_act": s.to_act} for s in self.table
            ],
            "moves": [
                {
                    "cursor": m.cursor,
                    "actor": m.actor,
                    "text": m.text,
                    "dice": list(m.dice),
                    "dice_from": m.dice_from,
                    "lines": [list(line) for line in m.lines],  # text, code, text, …, text
                    "voided": m.voided.to_json() if m.voided else None,
                }
                for m in self.moves
            ],
            # An undo voids a move the page may already show: the page marks these rows.
            "voided": [{"cursor": cursor, **why.to_json()} for cursor, why in sorted(self.voided.items())],
        }


# --- the service ---------------------------------------------------------------------------------


@dataclass
class Pages:
    """Read-only answers for the web pages, each one unit of work on the store."""

    store: Store
    narrator: Narrator = field(default_factory=Narrator)
    _dice: DiceMemo = field(default_factory=lambda: DiceMemo(), repr=False)

    async def index(self) -> tuple[TournamentLink, ...]:
        """Every tournament of the channels listed on the start page (on the web, and listed by their
        moderators), newest channel tournament first per channel."""
        return await self._read(self._index)

    async def tournament(self, token: str, tournament_id: int | None = None) -> TournamentPage | None:
        """A visible channel's tournament (its newest when no id is given); None if not on the web."""
        return await self._read(lambda uow: self._tournament(uow, token, tournament_id))

    async def game(self, token: str, game_id: int) -> GamePage | None:
        """A game of a visible channel's tournaments; None otherwise."""
        return await self._read(lambda uow: self._game(uow, token, game_id))

    async def live(self, token: str, game_id: int, after: int = 0) -> LiveGame | None:
        """The game's table now and its moves after the cursor ``after``."""
        return await self._read(lambda uow: self._live(uow, token, game_id, after))

    async def stats(
        self, channel: str = "console", tournament_id: int | None = None
    ) -> tuple[str, Tournament, Fairness] | None:
        """``croupier stats``: a tournament's fairness figures and the language to word them in.

        Not limited to channels on the web: this is the operator's command line."""
        return await self._read(lambda uow: self._stats(uow, channel, tournament_id))

    async def _read(self, work: Callable[[UnitOfWork], T]) -> T:
        """One read-only unit of work; once more when the pooled connection turned out dead (the
        server restarted since): reading twice changes nothing, and the reader gets the page."""
        try:
            return await self.store.run(work, read_only=True)
        except StoreUnavailable as error:
            if not error.retryable:
                raise
            return await self.store.run(work, read_only=True)

    # --- inside the unit of work -------------------------------------------------------------------

    def _index(self, uow: UnitOfWork) -> tuple[TournamentLink, ...]:
        links: list[TournamentLink] = []
        for visible in uow.web.listed():
            tournaments = _tournaments_of(uow, visible)
            for tournament in reversed(tournaments):
                games = uow.web.games_in(tournament.id)
                links.append(
                    TournamentLink(
                        token=visible.token,
                        tournament_id=tournament.id,
                        name=without_ids(tournament.name, _names(games)),
                        language=_language(uow, visible, games),
                        games=len(games),
                        current=tournament is tournaments[-1],
                        created_at=tournament.created_at,
                    )
                )
        return tuple(links)

    def _tournament(self, uow: UnitOfWork, token: str, tournament_id: int | None) -> TournamentPage | None:
        visible = uow.web.channel_of(token)
        if visible is None:
            return None
        tournaments = _tournaments_of(uow, visible)
        if not tournaments and tournament_id is None:
            return _no_tournament_yet(token, _language(uow, visible, ()))
        chosen = tournaments[-1] if tournament_id is None else _by_id(tournaments, tournament_id)
        if chosen is None:
            return None
        games = uow.web.games_in(chosen.id)
        lang = _language(uow, visible, games)
        # Each game's title: its link's, and the one an undo's line names, as /corrections words it.
        titles = {game.id: self._title(game, lang) for game in games}
        closed = tuple(game for game in games if not game.is_open)
        names = _names(games)
        fairness, counted = self._dice.get(games, lambda: uow.web.dice_in([game.id for game in games]), names)
        corrections = tuple(  # typed words: their mentions become names (the rendered lines name seats)
            replace(
                c,
                reason=without_ids(c.reason, names),
                voided_text=None if c.voided_text is None else without_ids(c.voided_text, names),
            )
            for c in named_as_shown(uow.corrections.of_tournament(chosen.id), _stored_names(games))
        )
        return TournamentPage(
            token=token,
            tournament_id=chosen.id,
            name=without_ids(chosen.name, names),
            scoring=chosen.scoring,
            language=lang,
            current=chosen.id == tournaments[-1].id,
            standings=standings_of(chosen, closed, corrections, lang),
            games=tuple(self._link(game, lang, counted.get(game.id, 0), titles[game.id]) for game in games),
            fairness=fairness,
            others=tuple((t.id, without_ids(t.name, names)) for t in tournaments if t.id != chosen.id),
            corrections=tuple(
                plain(correction_line(self.narrator, c, lang, titles.get(c.game_id or 0, "–")))
                for c in corrections
            ),
        )

    def _link(self, record: GameRecord, lang: str, dice: int, title: str) -> GameLink:
        return GameLink(
            game_id=record.id,
            number=record.number,
            title=title,
            status=record.status,
            players=tuple(_names((record,)).values()),
            dice=dice,
        )

    def _game(self, uow: UnitOfWork, token: str, game_id: int) -> GamePage | None:
        found = _visible_game(uow, token, game_id)
        if found is None:
            return None
        visible, tournament, record = found
        lang = _language(uow, visible, (record,))
        entries = uow.log.of_game(record.id)
        moves = self._moves(record, entries, lang, _undos(uow, record.id))
        return GamePage(
            token=token,
            tournament_id=tournament.id,
            tournament=without_ids(tournament.name, _names((record,))),
            game_id=record.id,
            number=record.number,
            title=self._title(record, lang),
            status=record.status,
            language=lang,
            commitment=record.commitment,
            seed=None if record.is_open else record.seed.hex(),
            dice_used=record.dice_used,
            version=record.version,
            moves=moves,
            table=self._seats(record, lang),
            cursor=moves[-1].cursor if moves else 0,
            topics=self._topics(record, lang),
        )

    def _live(self, uow: UnitOfWork, token: str, game_id: int, after: int) -> LiveGame | None:
        found = _visible_game(uow, token, game_id)
        if found is None:
            return None
        visible, _, record = found
        lang = _language(uow, visible, (record,))
        undos = _undos(uow, record.id)
        moves = self._moves(record, uow.web.log_after(record.id, after), lang, undos)
        return LiveGame(
            status=record.status,
            version=record.version,
            dice_used=record.dice_used,
            table=self._seats(record, lang),
            moves=moves,
            cursor=moves[-1].cursor if moves else after,
            voided={
                undo.voided_entry: _voided(undo, _names((record,)))
                for undo in undos.values()
                if undo.voided_entry is not None
            },
        )

    def _stats(
        self, uow: UnitOfWork, channel: str, tournament_id: int | None
    ) -> tuple[str, Tournament, Fairness] | None:
        tournament = (
            uow.tournaments.get(tournament_id)
            if tournament_id is not None
            else uow.tournaments.current(channel)
        )
        if tournament is None:
            return None
        games = uow.web.games_in(tournament.id)
        visible = VisibleChannel(tournament.guild, tournament.channel, "")
        rolled = uow.web.dice_in([game.id for game in games])
        fairness = fairness_of(((r.actor, r.dice) for r in rolled), _names(games))
        return _language(uow, visible, games), tournament, fairness

    # --- rendering helpers (the catalogues, in the channel's language) ------------------------------

    def _title(self, record: GameRecord, lang: str) -> str:
        game = GAMES.get(record.kind)
        if game is None:
            return f"{record.kind} {record.number}"
        return self.narrator.line("game.round", {"number": record.number}, lang, game=game, literal=True)

    def _seats(self, record: GameRecord, lang: str) -> tuple[Seat, ...]:
        game = GAMES.get(record.kind)
        names = _names((record,))
        return tuple(
            Seat(
                name=names[p.player],
                role=self._role(game, p.role, lang),
                points=p.points,
                to_act=record.is_open and p.player == record.to_act,
            )
            for p in record.participants
        )

    def _topics(self, record: GameRecord, lang: str) -> tuple[TopicSection, ...]:
        game = GAMES.get(record.kind)
        if game is None or not game.topics:
            return ()
        return tuple(
            TopicSection(one.name, one.title, one.summary, tuple(web_line(line) for line in one.lines))
            for one in explained(self.narrator, game, game.load(record.snapshot), lang)
        )

    def _role(self, game: Game[Any] | None, role: str, lang: str) -> str:
        return role if game is None else self.narrator.line(f"role.{role}", {}, lang, game=game, literal=True)

    def _moves(
        self,
        record: GameRecord,
        entries: Sequence[LogEntry],
        lang: str,
        undos: Mapping[int, Correction] | None = None,
    ) -> tuple[Move, ...]:
        names = {p.player: p.name for p in record.participants}
        for entry in entries:  # someone who left the game keeps the name the log's tables knew
            for row in _reply(entry).get("table", ()) or ():
                if isinstance(row, Mapping) and "player" in row and "name" in row:
                    names.setdefault(str(row["player"]), str(row["name"]))
        shown = distinguished(names)
        return tuple(_move(entry, shown, undos or {}) for entry in entries)


def _no_tournament_yet(token: str, lang: str) -> TournamentPage:
    """The page of a channel on the web that has not started a tournament yet."""
    return TournamentPage(
        token=token,
        tournament_id=0,
        name="",
        scoring="sum",
        language=lang,
        current=True,
        standings=StandingsTable(tournament="", scoring="sum", durchgaenge=(), rows=()),
        games=(),
        fairness=fairness_of((), {}),
        others=(),
    )


DISCORD_PREFIXES = ("discord:", "interaction:")  # the message ids of the Discord front end


def _reply(entry: LogEntry) -> Mapping[str, Any]:
    return entry.reply if isinstance(entry.reply, Mapping) else {}


def _move(entry: LogEntry, names: Mapping[str, str], undos: Mapping[int, Correction] | None = None) -> Move:
    """One log entry as the page shows it. Only what people typed has its mentions turned into names;
    the croupier's lines already carry the seats' names, and any mention or ``@<digits>`` in them is
    text someone chose (a nickname may be another player's id, a tournament's name a mention): it
    never becomes a name, and its id is not shown either (``@…``)."""
    reply = _reply(entry)
    private = bool(reply.get("private"))
    written = () if private else tuple(str(line) for line in reply.get("lines", ()) or ())
    # An older version kept each medium's own text: Discord's escapes are not ours (bot.replies.logged).
    said = logged(reply, discord=entry.message_id.startswith(DISCORD_PREFIXES))
    lines = tuple(_no_ids(web_line(said(line))) for line in written)
    kind = str(entry.command.get("type", "")) if isinstance(entry.command, Mapping) else ""
    undo = (undos or {}).get(entry.voided_by) if entry.voided_by is not None else None
    return Move(
        cursor=entry.id,
        actor=names.get(entry.actor, ""),
        kind=kind,
        text=without_ids(entry.text, names),
        dice=tuple(int(face) for face in entry.dice),
        dice_from=entry.dice_from,
        lines=lines,
        at=entry.created_at,
        voided=None if not entry.voided else _voided(undo, names),
    )


def web_line(line: str) -> Line:
    """A croupier's line (the neutral form of :mod:`bot.markup`) as the page draws it: text, code,
    text, …, text — the code (the commitments and seeds) shown as code, everything else as plain text
    that the page escapes for HTML; commands as the console types them."""
    parts: list[str] = [""]
    for kind, args in markup.spans(line):
        if kind == "code":
            parts += [args[-1] if args else "", ""]
        else:
            parts[-1] += CONSOLE.part(kind, args, "en")
    return tuple(parts)


def _no_ids(line: Line) -> Line:
    """A croupier's line with every mention in its text parts shown as a bare sign (see _move)."""
    return tuple(part if index % 2 else without_ids(part, {}) for index, part in enumerate(line))


def _undos(uow: UnitOfWork, game_id: int) -> dict[int, Correction]:
    """The undos that voided some of the game's moves, by correction id."""
    return {c.id: c for c in uow.corrections.of_game(game_id) if c.kind == "undo"}


def _voided(undo: Correction | None, names: Mapping[str, str]) -> Voided:
    if undo is None:  # voided by a correction the store no longer names: still shown as voided
        return Voided(by="", reason="")
    return Voided(by=undo.moderator_name, reason=without_ids(undo.reason, names))


def without_ids(text: str, names: Mapping[str, str]) -> str:
    """Typed text with Discord mentions of people turned into their display names (``@Anna``), and
    any other mention into a bare sign: the pages show no ids of people. ``names``: display names
    by participant id (a Discord user id); someone not among them is shown as ``@…``."""

    def shown(match: re.Match[str]) -> str:
        sign, ident, bare = match.group(1), match.group(2), match.group(3)
        if bare is not None:
            return "@" + names.get(bare, "…")
        if sign.startswith("@") and sign != "@&":
            return "@" + names.get(ident, "…")
        return ("#" if sign == "#" else "@") + "…"

    return _MENTION.sub(shown, text)


def _names(games: Sequence[GameRecord]) -> dict[str, str]:
    """Display names by participant id, as readers see them (look-alikes told apart); a later game's
    name wins."""
    return distinguished(_stored_names(games))


def _stored_names(games: Sequence[GameRecord]) -> dict[str, str]:
    return {p.player: p.name for game in games for p in game.participants}


def _tournaments_of(uow: UnitOfWork, visible: VisibleChannel) -> tuple[Tournament, ...]:
    return tuple(t for t in uow.tournaments.list(visible.channel) if t.guild == visible.guild)


def _by_id(tournaments: Sequence[Tournament], tournament_id: int) -> Tournament | None:
    return next((t for t in tournaments if t.id == tournament_id), None)


def _visible_game(
    uow: UnitOfWork, token: str, game_id: int
) -> tuple[VisibleChannel, Tournament, GameRecord] | None:
    visible = uow.web.channel_of(token)
    if visible is None:
        return None
    record = uow.games.get(game_id)
    if record is None:
        return None
    tournament = uow.tournaments.get(record.tournament_id)
    if tournament is None or tournament.channel != visible.channel or tournament.guild != visible.guild:
        return None
    return visible, tournament, record


def _language(uow: UnitOfWork, visible: VisibleChannel, games: Sequence[GameRecord]) -> str:
    """The channel's language: its setting, else the language of its newest game, else German."""
    settings = uow.settings.get(visible.guild, visible.channel)
    if settings.language:
        return settings.language
    for record in reversed(games):
        game = GAMES.get(record.kind)
        if game is not None:
            return game.language
    return DEFAULT_LANGUAGE
