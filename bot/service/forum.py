"""The service's side of Discord as the forum: where a new game is played (its own thread or in place),
its live table, the reminder before a turn times out, the result line for a thread's home, what the
home's own channel says about the games of its threads, and what the front end needs after a restart
— where to catch up, which answers are still to deliver and which finished games' threads are still
to close.

Functions here run inside a unit of work the croupier opened (like :mod:`bot.service.corrections`); none of
them touches the network or knows Discord's markup: a front end draws what they answer.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from bot.games import GAMES, language_of
from bot.replies import Live, Reply
from bot.service.rendering import Narrator, Table, namer
from bot.store import GameRecord, ThreadGame, UnitOfWork
from bot.store.records import Unreminded
from bot.store.repositories import forum as stored
from engine import dice as dice_mod
from engine.errors import CroupierError, IllegalCommand
from engine.game import Game, Join

THREAD_PLACES = frozenset({"forum", "post"})  # a forum has no message box: games always get a post
TEXT_PLACES = frozenset({"text", "thread"})  # a text channel: a thread unless its setting says no
REMINDER_SHARE = 5  # remind when a fifth of the turn time is left …
REMINDER_FLOOR_S = 60  # … but at least a minute before the deadline …
REMINDER_CAP_SHARE = 2  # … and never earlier than halfway through the turn
LEADERS_NAMED = 10  # a result line names this many tied leaders and counts the others
THREAD = stored.THREAD  # a step of a finished game's closing: its thread archived and locked
RESULT = stored.RESULT  # the other step: its home's result line posted (or none needed: a forum)
PLAYED_IN_THREAD = "played_in_thread"  # the refusal that points at a game's thread (``Reply.elsewhere``)
POINTED_MAX = 10_000  # (game, player) pairs remembered as pointed at their thread (the oldest go first)


def default_tournament(narrator: Narrator, lang: str) -> str:
    """The name of a tournament a game's opening starts on the spot, in the language the opening
    speaks ("Turnier", "Tournament", "Tournoi"): stored as it is, so it keeps that name."""
    return narrator.line("common.default_tournament", {}, lang, literal=True)


def thread_title(narrator: Narrator, game: Game[Any], number: int, tournament: str, lang: str) -> str:
    """ "Durchgang 3 · Frühjahrsturnier": the game's title and its tournament, as plain text (a thread
    name shows no markup; the front end makes it one line and short enough)."""
    title = narrator.line("game.round", {"number": number}, lang, game=game, literal=True)
    facts = {"title": title, "tournament": tournament}
    return narrator.line("discord.thread.title", facts, lang, literal=True)


def wants_thread(place: str, threads_setting: bool) -> bool:
    """A new game gets a thread of its own in a forum (always) and in a text channel or one of its
    threads (unless the channel's setting turned threads off); never on the console or in a replay
    (``place``: see ``Incoming.place``)."""
    return place in THREAD_PLACES or (place in TEXT_PLACES and threads_setting)


def takes_sign_ups(game: Game[Any], state: Any) -> bool:
    """Whether the game would seat a newcomer now (a dry run of a sign-up: the state is immutable)."""
    try:
        game.apply(state, "\x00newcomer", Join("newcomer"), dice_mod.ScriptedDice(()))
    except CroupierError:
        return False
    return True


def live_of(record: GameRecord, game: Game[Any], state: Any, verifiable: bool) -> Live | None:
    """The live table of a game that has one (a game in a thread of its own), as it stands now."""
    if record.live_message is None:
        return None
    finished = game.finished(state)
    return Live(
        message=record.live_message,
        commitment=record.commitment if verifiable else None,
        seed=record.seed.hex() if finished and verifiable else None,
        options=tuple((str(key), str(value)) for key, value in sorted(record.options.items())),
        joinable=not finished and takes_sign_ups(game, state),
        finished=finished,
    )


def result_line(
    narrator: Narrator, record: GameRecord, game: Game[Any], state: Any, title: str, lang: str
) -> str:
    """The line a finished game's home gets when the game was played in a thread of its own: who
    finished ahead (the highest points of the final table); "" for a game played in place."""
    if record.live_message is None:
        return ""
    seats = list(game.table(state))
    if not seats:
        return narrator.line("discord.thread.result_empty", {"title": title}, lang, game=game)
    best = max(seat.points for seat in seats)
    ahead = [seat.player for seat in seats if seat.points == best]
    if len(ahead) > LEADERS_NAMED:  # a line, not a list: the others are counted
        facts = {"title": title, "players": ahead[:LEADERS_NAMED], "more": len(ahead) - LEADERS_NAMED}
        return narrator.line(
            "discord.thread.result_many", {**facts, "points": best}, lang, game=game, name_of=namer(seats)
        )
    facts = {"title": title, "players": ahead, "points": best}
    return narrator.line("discord.thread.result", facts, lang, game=game, name_of=namer(seats))


def reminder_lead(turn_timeout_s: int) -> timedelta:
    """How long before the deadline the player to act is reminded (see the constants above)."""
    lead = max(turn_timeout_s / REMINDER_SHARE, REMINDER_FLOOR_S)
    return timedelta(seconds=min(lead, turn_timeout_s / REMINDER_CAP_SHARE))


@dataclass(frozen=True)
class Reminder:
    """A reminder to post: where, and the reply (the table, the board, a ping for the player to act)."""

    channel: str
    reply: Reply


def reminders_in(
    uow: UnitOfWork,
    narrator: Narrator,
    now: datetime,
    verifiable: bool,
    guilds: Collection[str] | None = None,
) -> list[Reminder]:
    """Claim and render the reminders that are due (each at most once, across processes) — only in
    ``guilds`` when given (the guilds a front end serves and has caught up with)."""
    due: list[Reminder] = []
    for game in _due(uow, now, guilds):
        if not uow.forum.claim_reminder(game.game_id, game.version, now):
            continue  # another process reminded, or the game just moved on
        channel = uow.channels.state(game.guild, game.channel, game.home)
        record = channel.game
        if record is None or record.kind not in GAMES or record.to_act is None:
            continue
        due.append(Reminder(record.channel, _reminder(narrator, record, language_of(channel), verifiable)))
    uow.commit()
    return due


def reminder_due(uow: UnitOfWork, now: datetime, guilds: Collection[str] | None = None) -> bool:
    """Whether some player is due a reminder: a read first, as most rounds of the turn clock find none
    and a writing transaction would take SQLite's write lock for nothing."""
    return next(_due(uow, now, guilds), None) is not None


def _due(uow: UnitOfWork, now: datetime, guilds: Collection[str] | None) -> Iterator[Unreminded]:
    """The open games whose player to act is due a reminder (see :func:`reminders_in`)."""
    timeouts: dict[tuple[str, str], int] = {}
    for game in uow.forum.unreminded(now):
        if guilds is not None and game.guild not in guilds:
            continue
        key = (game.guild, game.home)
        if key not in timeouts:
            timeouts[key] = uow.settings.get(*key).turn_timeout_seconds
        if game.turn_deadline - now <= reminder_lead(timeouts[key]):
            yield game


def _reminder(narrator: Narrator, record: GameRecord, lang: str, verifiable: bool) -> Reply:
    game = GAMES[record.kind]
    state = game.load(record.snapshot)
    table = Table(game, record.id, record.number, record.version, state)
    seats = game.table(state)
    line = narrator.line(
        "discord.reminder.line", {"player": record.to_act}, lang, game=game, name_of=namer(seats)
    )
    reply = narrator.about(table, [line], lang, wake=record.to_act, deadline=record.turn_deadline)
    return replace(reply, live=live_of(record, game, state, verifiable))


@dataclass(frozen=True)
class Pending:
    """An answer an earlier process logged but never saw delivered, to be posted (once) now."""

    log_id: int
    message_id: str  # "discord:…", "interaction:…", "timeout:…"
    channel: str
    actor: str
    logged_at: datetime
    reply: Reply


def pending_in(uow: UnitOfWork, narrator: Narrator, before: datetime, verifiable: bool) -> list[Pending]:
    """The answers still pending from before ``before``, in log order; the newest answer of a game
    that has not moved on since gets its board and live table back (the log keeps neither)."""
    found: list[Pending] = []
    games: dict[int, GameRecord | None] = {}
    for entry in uow.delivery.pending(before):
        reply = replace(Reply.from_log(entry.reply), duplicate=False, log_id=entry.id)
        if entry.game_id is not None and reply.game_id is not None:
            if entry.game_id not in games:
                games[entry.game_id] = uow.games.get(entry.game_id)
            record = games[entry.game_id]
            if record is not None and record.kind in GAMES and record.version == reply.version:
                reply = _current(narrator, record, reply, verifiable)
        found.append(Pending(entry.id, entry.message_id, entry.channel, entry.actor, entry.created_at, reply))
    return found


def _current(narrator: Narrator, record: GameRecord, reply: Reply, verifiable: bool) -> Reply:
    game = GAMES[record.kind]
    state = game.load(record.snapshot)
    table = Table(game, record.id, record.number, record.version, state)
    board = narrator.board(table, reply.language, namer(game.table(state))) if record.is_open else None
    return replace(reply, board=board, live=live_of(record, game, state, verifiable))


@dataclass(frozen=True)
class Closing:
    """A finished game whose thread closing an earlier process did not finish: what is left —
    ``close`` (archive and lock the thread) and ``post`` (the home's result line) — and the game's
    final reply to draw it from (its live table, with the revealed seed, and its result line)."""

    game_id: int
    guild: str
    channel: str  # the game's thread
    ended_at: datetime
    close: bool
    post: bool
    reply: Reply


def closings_in(uow: UnitOfWork, narrator: Narrator, before: datetime, verifiable: bool) -> list[Closing]:
    """The closings left undone by games that ended before ``before``, the oldest first, each with the
    game's final state rendered (the log keeps no live table)."""
    found: list[Closing] = []
    for unclosed in uow.forum.unclosed(before):
        record = uow.games.get(unclosed.game_id)
        if record is None or record.kind not in GAMES or record.live_message is None:
            continue  # a game no longer installed cannot be drawn; its thread stays as it is
        channel = uow.channels.state(unclosed.guild, unclosed.channel, unclosed.home)
        reply = _final(narrator, record, language_of(channel), verifiable)
        found.append(
            Closing(
                game_id=record.id,
                guild=unclosed.guild,
                channel=unclosed.channel,
                ended_at=unclosed.closed_at,
                close=not unclosed.thread_closed,
                post=not unclosed.result_posted,
                reply=reply,
            )
        )
    return found


def _final(narrator: Narrator, record: GameRecord, lang: str, verifiable: bool) -> Reply:
    game = GAMES[record.kind]
    state = game.load(record.snapshot)
    table = Table(game, record.id, record.number, record.version, state)
    reply = narrator.about(table, [], lang)
    return replace(
        reply,
        live=live_of(record, game, state, verifiable),
        result=result_line(narrator, record, game, state, reply.title, lang),
    )


def closing_done(uow: UnitOfWork, game_id: int, step: str, now: datetime) -> None:
    """Record a step of a game's thread closing (:data:`THREAD` or :data:`RESULT`) as done."""
    uow.forum.closing_done(game_id, step, now)
    uow.commit()


# ---------------------------------------------------------------------- the home and its threads


@dataclass(frozen=True)
class Elsewhere:
    """Where a request made in a home's own channel is carried out instead: the game of one of its
    threads (a sign-up typed where the opening was announced)."""

    channel: str  # the game's thread
    place: str  # "post" in a forum, "thread" in a text channel (see ``Incoming.place``)


class Pointed:
    """The players already pointed at their game's thread from its home (once per player and game:
    somebody who keeps typing beside the thread is not answered line after line). Bounded; kept by
    the process, which is the one serving that guild."""

    def __init__(self, size: int = POINTED_MAX) -> None:
        self._size = size
        self._seen: OrderedDict[tuple[int, str], None] = OrderedDict()

    def first(self, game_id: int, player: str) -> bool:
        key = (game_id, player)
        if key in self._seen:
            return False
        self._seen[key] = None
        if len(self._seen) > self._size:
            self._seen.popitem(last=False)
        return True


def thread_place(place: str) -> str:
    """The place of a home's thread game, seen from where the home was spoken in."""
    return "post" if place in THREAD_PLACES else "thread"


def in_threads(uow: UnitOfWork, guild: str, home: str) -> tuple[ThreadGame, ...]:
    """The home's open games played in threads of their own, of kinds still installed."""
    return tuple(g for g in uow.forum.in_threads_of(guild, home) if g.kind in GAMES)


def sign_up_target(uow: UnitOfWork, games: tuple[ThreadGame, ...]) -> ThreadGame | None:
    """The one thread game a sign-up made in the home joins: the only one, else the only one still
    taking sign-ups (None when that is not one game)."""
    if len(games) == 1:
        return games[0]
    open_to_join = []
    for found in games:
        record = uow.games.get(found.game_id)
        if record is not None and takes_sign_ups(GAMES[found.kind], GAMES[found.kind].load(record.snapshot)):
            open_to_join.append(found)
    return open_to_join[0] if len(open_to_join) == 1 else None


def pointer(narrator: Narrator, found: ThreadGame, lang: str, *, private: bool = False) -> Reply:
    """The refusal that sends a request made in the home to the game's thread (``Reply.elsewhere``:
    a front end with threads names it as a link)."""
    game = GAMES[found.kind]
    title = narrator.line("game.round", {"number": found.number}, lang, game=game)
    refused = narrator.refusal(
        IllegalCommand(PLAYED_IN_THREAD, title=title), lang, game=game, game_id=found.game_id, private=private
    )
    return replace(refused, title=title, elsewhere=found.channel)


def played_by(
    games: tuple[ThreadGame, ...], player: str, reads: Mapping[str, object] | None = None
) -> ThreadGame | None:
    """The oldest thread game ``player`` is seated in — of those whose kind reads the line as one of
    its words, when ``reads`` (a typed line's readings by kind) is given."""
    for found in games:
        if player in found.players and (reads is None or reads.get(found.kind) is not None):
            return found
    return None
