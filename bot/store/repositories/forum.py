"""``uow.forum``: what Discord-as-the-forum needs besides moves — the open games of a home (a forum or
text channel whose threads hold the games), due reminders and timeouts, where to catch up after a
restart (and how far a front end has read each game channel), and the finished games whose thread
closing is not all done."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from sqlalchemy import and_, bindparam, delete, exists, func, literal_column, or_, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from bot.store.records import CatchUpPoint, Overdue, ThreadGame, Unclosed, Unreminded
from bot.store.repositories.prepared import Prepared
from bot.store.repositories.tables import (
    IS_OPEN,
    games_t,
    log_t,
    participants_t,
    reads_t,
    tournaments_t,
)
from bot.store.repositories.transaction import Transaction, check_instant

CHAT_PREFIX = "discord:"  # the log ids of chat lines; slash commands and presses are "interaction:…"
THREAD = "thread"  # a closing step: the thread archived and locked
RESULT = "result"  # a closing step: the home's result line posted (or none needed)
_STEP_COLUMNS = {THREAD: games_t.c.thread_closed_at, RESULT: games_t.c.result_posted_at}

# Prepared once: a moderator's opening runs them (see .prepared).
LOCK_TOURNAMENT = Prepared(
    select(tournaments_t.c.id).where(tournaments_t.c.id == bindparam("b_id")).with_for_update()
)
_OPEN_OF_KIND_IN_HOME = Prepared(
    select(games_t.c.id)
    .select_from(games_t.join(tournaments_t, tournaments_t.c.id == games_t.c.tournament_id))
    .where(
        IS_OPEN,
        games_t.c.kind == bindparam("b_kind"),
        tournaments_t.c.guild == bindparam("b_guild"),
        tournaments_t.c.channel == bindparam("b_home"),
    )
    .limit(1)
)
_UNREMINDED = (
    select(
        games_t.c.id,
        games_t.c.version,
        games_t.c.channel,
        games_t.c.turn_deadline,
        tournaments_t.c.guild,
        tournaments_t.c.channel.label("home"),
    )
    .select_from(games_t.join(tournaments_t, tournaments_t.c.id == games_t.c.tournament_id))
    .where(
        IS_OPEN,
        games_t.c.turn_deadline.is_not(None),
        games_t.c.turn_deadline > bindparam("b_now"),
        games_t.c.reminded_at.is_(None),
        games_t.c.to_act.is_not(None),
    )
    .order_by(games_t.c.turn_deadline, games_t.c.id)
)
_CLAIM_REMINDER = (
    update(games_t)
    .where(
        games_t.c.id == bindparam("b_id"),
        games_t.c.version == bindparam("b_version"),
        games_t.c.reminded_at.is_(None),
        IS_OPEN,
    )
    .values(reminded_at=bindparam("b_now"))
)
_LAST_CHAT_LINE = (
    select(log_t.c.message_id)
    .where(log_t.c.game_id == games_t.c.id, log_t.c.message_id.like(literal_column(f"'{CHAT_PREFIX}%'")))
    .order_by(log_t.c.id.desc())
    .limit(1)
    .correlate(games_t)
    .scalar_subquery()
)
_OPEN_GAMES = (
    select(
        games_t.c.id,
        games_t.c.channel,
        games_t.c.opened_at,
        tournaments_t.c.guild,
        _LAST_CHAT_LINE.label("last_line"),
        reads_t.c.newest,
    )
    .select_from(
        games_t.join(tournaments_t, tournaments_t.c.id == games_t.c.tournament_id).outerjoin(
            reads_t, and_(reads_t.c.guild == tournaments_t.c.guild, reads_t.c.channel == games_t.c.channel)
        )
    )
    .where(IS_OPEN)
    .order_by(games_t.c.id)
)
_OVERDUE = (
    select(
        games_t.c.id,
        games_t.c.version,
        games_t.c.channel,
        games_t.c.to_act,
        tournaments_t.c.guild,
        tournaments_t.c.channel.label("home"),
    )
    .select_from(games_t.join(tournaments_t, tournaments_t.c.id == games_t.c.tournament_id))
    .where(
        IS_OPEN,
        games_t.c.turn_deadline.is_not(None),
        games_t.c.turn_deadline <= bindparam("b_now"),
        games_t.c.to_act.is_not(None),
    )
    .order_by(games_t.c.turn_deadline, games_t.c.id)
)
_IN_THREADS_OF_HOME = (
    select(games_t.c.id, games_t.c.kind, games_t.c.number, games_t.c.channel, participants_t.c.player)
    .select_from(
        games_t.join(tournaments_t, tournaments_t.c.id == games_t.c.tournament_id).outerjoin(
            participants_t, participants_t.c.game_id == games_t.c.id
        )
    )
    .where(
        IS_OPEN,
        tournaments_t.c.guild == bindparam("b_guild"),
        tournaments_t.c.channel == bindparam("b_home"),
        games_t.c.channel != bindparam("b_home"),
    )
    .order_by(games_t.c.id, participants_t.c.position)
)
_FORGOTTEN_READS = delete(reads_t).where(
    ~exists(
        select(games_t.c.id)
        .select_from(games_t.join(tournaments_t, tournaments_t.c.id == games_t.c.tournament_id))
        .where(IS_OPEN, games_t.c.channel == reads_t.c.channel, tournaments_t.c.guild == reads_t.c.guild)
    )
)
_OPEN_GAME_CHANNELS = (
    select(tournaments_t.c.guild, games_t.c.channel)
    .select_from(games_t.join(tournaments_t, tournaments_t.c.id == games_t.c.tournament_id))
    .where(IS_OPEN, games_t.c.channel.in_(bindparam("b_channels", expanding=True)))
)
_IS_CLOSED = games_t.c.status == literal_column("'closed'")  # literals, so the partial index applies
_UNCLOSED = (
    select(
        games_t.c.id,
        games_t.c.channel,
        games_t.c.closed_at,
        games_t.c.thread_closed_at,
        games_t.c.result_posted_at,
        tournaments_t.c.guild,
        tournaments_t.c.channel.label("home"),
    )
    .select_from(games_t.join(tournaments_t, tournaments_t.c.id == games_t.c.tournament_id))
    .where(
        _IS_CLOSED,
        games_t.c.live_message.is_not(None),
        or_(games_t.c.thread_closed_at.is_(None), games_t.c.result_posted_at.is_(None)),
        games_t.c.closed_at <= bindparam("b_before"),
    )
    .order_by(games_t.c.closed_at, games_t.c.id)
)


class Forum:
    """``uow.forum``: open games by home, reminders, catch-up points."""

    def __init__(self, tx: Transaction) -> None:
        self._tx = tx

    def open_of_kind(
        self, guild: str, home: str, kind: str, *, lock_tournament: int | None = None
    ) -> int | None:
        """The id of an open game of ``kind`` in any thread of ``home`` (or in ``home`` itself), if any.

        ``lock_tournament``: first lock that tournament's row (PostgreSQL), as creating a game does,
        so two moderators opening at once are judged one after the other.
        """
        if lock_tournament is not None:
            self._tx.run(LOCK_TOURNAMENT, {"b_id": lock_tournament})
        found = self._tx.run(_OPEN_OF_KIND_IN_HOME, {"b_kind": kind, "b_guild": guild, "b_home": home})
        game_id = found.scalar()
        return None if game_id is None else int(game_id)

    def next_number(self, tournament_id: int, kind: str, numbered_with: Sequence[str] = ()) -> int:
        """The number the tournament's next game of ``kind`` will get (each game counts its own, its
        rule sets ``numbered_with`` together: see :meth:`GameRepository.create`)."""
        kinds = sorted({kind, *numbered_with})
        statement = select(func.coalesce(func.max(games_t.c.number), 0) + 1).where(
            games_t.c.tournament_id == tournament_id, games_t.c.kind.in_(kinds)
        )
        return int(self._tx.execute(statement).scalar_one())

    def unreminded(self, now: datetime) -> tuple[Unreminded, ...]:
        """Open games whose player to act still has time and was not reminded of this deadline yet,
        the nearest deadline first (few: one row per open game, no snapshot)."""
        check_instant("now", now)
        rows = self._tx.execute(_UNREMINDED, {"b_now": now})
        return tuple(
            Unreminded(row.id, row.version, row.guild, row.channel, row.home, row.turn_deadline)
            for row in rows
        )

    def claim_reminder(self, game_id: int, version: int, now: datetime) -> bool:
        """Mark the game's player to act as reminded — only if nobody did it first and the game is
        still at ``version`` (one conditional UPDATE: exactly one process wins, whatever the timing)."""
        check_instant("now", now)
        parameters = {"b_id": game_id, "b_version": version, "b_now": now}
        return int(self._tx.execute(_CLAIM_REMINDER, parameters).rowcount) == 1

    def catch_up_points(self) -> tuple[CatchUpPoint, ...]:
        """For every open game: its channel and the last chat line logged for it (a move or a refusal
        that named the game), found through the game's index of the log."""
        return tuple(
            CatchUpPoint(
                guild=row.guild,
                channel=row.channel,
                game_id=row.id,
                opened_at=row.opened_at,
                after=row.last_line.removeprefix(CHAT_PREFIX) if row.last_line else None,
                read=row.newest,
            )
            for row in self._tx.execute(_OPEN_GAMES)
        )

    def note_reads(self, reads: Mapping[tuple[str, str], str], now: datetime) -> int:
        """Keep, per (guild, channel), the newest message a front end read there with everything before
        it read too — for channels with an open game only (no other channel is ever caught up; what was
        kept for a channel whose game has ended goes); answers how many were kept. The front end gives
        only ever newer ids for a channel."""
        check_instant("now", now)
        if not reads:
            return 0
        self._tx.execute(_FORGOTTEN_READS)
        channels = sorted({channel for _, channel in reads})
        playing = {
            (row.guild, row.channel)
            for row in self._tx.execute(_OPEN_GAME_CHANNELS, {"b_channels": channels})
        }
        rows = [
            {"guild": guild, "channel": channel, "newest": newest, "noted_at": now}
            for (guild, channel), newest in sorted(reads.items())
            if (guild, channel) in playing
        ]
        if not rows:
            return 0
        make_insert = postgresql_insert if self._tx.dialect == "postgresql" else sqlite_insert
        statement = make_insert(reads_t)
        statement = statement.on_conflict_do_update(
            index_elements=[reads_t.c.guild, reads_t.c.channel],
            set_={"newest": statement.excluded.newest, "noted_at": statement.excluded.noted_at},
        )
        self._tx.execute(statement, rows)
        return len(rows)

    def overdue(self, now: datetime) -> tuple[Overdue, ...]:
        """Open games whose player to act let the turn deadline pass, most overdue first, with their
        guild (a process applies only its own guilds' timeouts); few rows, no snapshot."""
        check_instant("now", now)
        return tuple(
            Overdue(row.id, row.version, row.guild, row.channel, row.home, row.to_act)
            for row in self._tx.execute(_OVERDUE, {"b_now": now})
        )

    def in_threads_of(self, guild: str, home: str) -> tuple[ThreadGame, ...]:
        """The open games played in threads of ``home`` (not in ``home`` itself), oldest first, each with
        the players seated in it."""
        games: dict[int, ThreadGame] = {}
        for row in self._tx.execute(_IN_THREADS_OF_HOME, {"b_guild": guild, "b_home": home}):
            found = games.get(row.id) or ThreadGame(row.id, row.kind, row.number, row.channel, ())
            if row.player is not None:
                found = ThreadGame(
                    found.game_id, found.kind, found.number, found.channel, (*found.players, row.player)
                )
            games[row.id] = found
        return tuple(games.values())

    def unclosed(self, before: datetime) -> tuple[Unclosed, ...]:
        """Finished games with a live table (played in a thread of their own), closed no later than
        ``before`` (the start of the asking process: what it closes itself, it finishes itself), whose
        thread is not archived and locked yet or whose home lacks its result line; the oldest first."""
        check_instant("before", before)
        return tuple(
            Unclosed(
                game_id=row.id,
                guild=row.guild,
                channel=row.channel,
                home=row.home,
                closed_at=row.closed_at,
                thread_closed=row.thread_closed_at is not None,
                result_posted=row.result_posted_at is not None,
            )
            for row in self._tx.execute(_UNCLOSED, {"b_before": before})
        )

    def closing_done(self, game_id: int, step: str, now: datetime) -> bool:
        """Record that a step of a finished game's closing (:data:`THREAD` or :data:`RESULT`) is done;
        answers whether this call recorded it (False: done before, or the game is not closed)."""
        if step not in _STEP_COLUMNS:
            raise ValueError(f"a closing step is {THREAD!r} or {RESULT!r}, not {step!r}")
        check_instant("now", now)
        column = _STEP_COLUMNS[step]
        statement = (
            update(games_t)
            .where(games_t.c.id == game_id, column.is_(None), _IS_CLOSED)
            .values({column.name: now})
        )
        return int(self._tx.execute(statement).rowcount) == 1
