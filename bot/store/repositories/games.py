"""``uow.games``: games with their snapshots and participant rows, saved against their version."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from functools import cache
from itertools import zip_longest
from typing import Any

from sqlalchemy import (
    Integer,
    Row,
    Select,
    bindparam,
    delete,
    exc,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.dialects import postgresql
from sqlalchemy.dialects.postgresql import ARRAY, JSONB

from bot.store.errors import (
    Conflict,
    GameAlreadyOpen,
    StaleVersion,
    UnknownGame,
    UnknownTournament,
)
from bot.store.models import (
    GAME_STATUSES,
    KIND_MAX,
    OPEN_GAME_PER_CHANNEL,
)
from bot.store.records import (
    GameRecord,
    GameSave,
    LogEntry,
    NewLogEntry,
    ParticipantRecord,
    SeatLike,
)
from bot.store.repositories.forum import LOCK_TOURNAMENT
from bot.store.repositories.log import LOGGED, CommandLog, log_conflicts, log_row, logged_entry
from bot.store.repositories.prepared import Prepared
from bot.store.repositories.tables import (
    IS_OPEN,
    PARTICIPANT_FIELDS,
    games_t,
    log_t,
    participants_t,
    select_games,
    tournaments_t,
)
from bot.store.repositories.transaction import Transaction, check_instant, violated
from engine.records import evolve

# The statements of the command path are prepared once: every command runs them (see .prepared).
_SAVED_COLUMNS = ("version", "snapshot", "dice_used", "to_act", "turn_deadline", "status", "closed_at")
# Set on every save (the version and the state); the others only when they change, so that a move
# does not rewrite the entries of indexes whose columns it leaves alone (status, deadline, closing).
_ALWAYS_SET = ("version", "snapshot")
_REMINDED = "reminded_at"  # cleared by a save: a new turn's reminder is still to come


@cache
def _update_game(columns: tuple[str, ...]) -> Prepared:
    """The version-checked update of a game, setting ``columns`` (of ``_SAVED_COLUMNS`` and
    ``reminded_at``)."""
    values: dict[str, Any] = {name: bindparam(f"b_{name}") for name in columns if name != _REMINDED}
    if _REMINDED in columns:
        values[_REMINDED] = None
    return Prepared(
        update(games_t)
        .where(games_t.c.id == bindparam("b_id"), games_t.c.version == bindparam("b_expected"))
        .values(values)
    )


def _changed_columns(known: GameRecord | None, save: GameSave) -> tuple[str, ...]:
    """The game columns ``save`` changes against the stored row ``known`` (all of them when unknown)."""
    if known is None:
        return (*_SAVED_COLUMNS, _REMINDED)
    changed = list(_ALWAYS_SET)
    if save.dice_used != known.dice_used:
        changed.append("dice_used")
    if save.to_act != known.to_act:
        changed.append("to_act")
    if save.turn_deadline != known.turn_deadline:
        changed.append("turn_deadline")
    if save.status != known.status:
        changed.append("status")
    if save.closed_at != known.closed_at:
        changed.append("closed_at")
    if known.reminded_at is not None:
        changed.append(_REMINDED)
    return tuple(changed)


_GAME_VERSION = Prepared(select(games_t.c.version).where(games_t.c.id == bindparam("b_id")))
_DELETE_PARTICIPANTS = Prepared(
    delete(participants_t).where(participants_t.c.game_id == bindparam("b_game_id"))
)
_SEAT_COLUMNS = ("game_id", *PARTICIPANT_FIELDS)
_SEAT_PARAMETERS = tuple(f"b_{name}" for name in _SEAT_COLUMNS)  # of both statements below
_INSERT_PARTICIPANTS = Prepared(
    insert(participants_t).values(dict(zip(_SEAT_COLUMNS, map(bindparam, _SEAT_PARAMETERS), strict=True)))
)
_UPDATE_PARTICIPANT = Prepared(
    update(participants_t)
    .where(
        participants_t.c.game_id == bindparam("b_game_id"),
        participants_t.c.player == bindparam("b_player"),
    )
    .values(
        name=bindparam("b_name"),
        position=bindparam("b_position"),
        role=bindparam("b_role"),
        points=bindparam("b_points"),
    )
)
_POSTGRESQL = postgresql.dialect()  # type: ignore[no-untyped-call]
_LOG_PARAMETERS = tuple(f"b_log_{name}" for name in LOGGED)  # the log row's, in the one-statement move


@cache
def _save_and_log_postgresql(columns: tuple[str, ...]) -> Prepared:
    """One statement for a move on PostgreSQL (see ``Games.save_and_log``): the version-checked game
    update of ``columns``, then — only if it matched — the participant rows (new or changed ones
    written, those of players no longer seated deleted) and the log entry."""
    seat_columns = ", ".join(
        f"{name} {participants_t.c[name].type.compile(dialect=_POSTGRESQL)}" for name in PARTICIPANT_FIELDS
    )
    fields = ", ".join(PARTICIPANT_FIELDS)
    changed = ", ".join(f"{name} = excluded.{name}" for name in PARTICIPANT_FIELDS if name != "player")
    assignments = ", ".join(
        f"{name} = NULL" if name == _REMINDED else f"{name} = :b_{name}" for name in columns
    )
    statement = text(
        f"""
        WITH saved AS (
            UPDATE games
            SET {assignments}
            WHERE id = :b_id AND version = :b_expected
            RETURNING id
        ), seats AS (
            INSERT INTO participants (game_id, {fields})
            SELECT saved.id, {", ".join(f"s.{name}" for name in PARTICIPANT_FIELDS)}
            FROM saved, jsonb_to_recordset(:b_seats) AS s({seat_columns})
            ON CONFLICT (game_id, player) DO UPDATE SET {changed}
        ), gone AS (
            DELETE FROM participants USING saved
            WHERE participants.game_id = saved.id AND participants.player <> ALL(:b_players)
        )
        INSERT INTO command_log ({", ".join(LOGGED)})
        SELECT {", ".join(f":{name}" for name in _LOG_PARAMETERS)} FROM saved
        RETURNING id
        """
    )
    typed = [bindparam(f"b_{name}", type_=games_t.c[name].type) for name in columns if name != _REMINDED]
    typed += [bindparam("b_id", type_=Integer()), bindparam("b_expected", type_=Integer())]
    typed += [
        bindparam("b_seats", type_=JSONB()),
        bindparam("b_players", type_=ARRAY(participants_t.c.player.type)),
    ]
    typed += [
        bindparam(parameter, type_=log_t.c[name].type)
        for name, parameter in zip(LOGGED, _LOG_PARAMETERS, strict=True)
    ]
    return Prepared(statement.bindparams(*typed).columns(log_t.c.id))


@cache
def _insert_game(kinds: int) -> Prepared:
    """A new game at version 1, numbered next among the tournament's games of ``kinds`` kinds (its
    own and those numbered with it: Durchgang 1, 2 … and Killer 1, 2 …, either rule set)."""
    next_number = (
        select(func.coalesce(func.max(games_t.c.number), 0) + 1)
        .where(
            games_t.c.tournament_id == bindparam("b_tournament_id"),
            games_t.c.kind.in_([bindparam(f"b_numbered_{index}") for index in range(kinds)]),
        )
        .scalar_subquery()
    )
    given = (
        *("tournament_id", "channel", "kind", "options", "seed", "commitment", "snapshot", "to_act"),
        *("turn_deadline", "opened_at", "live_message"),
    )
    values: dict[str, Any] = {name: bindparam(f"b_{name}") for name in given}
    values.update(number=next_number, status="open", dice_used=0, version=1, closed_at=None)
    return Prepared(insert(games_t).values(values).returning(*games_t.c), name="GameRow")


_COUNT_IN = Prepared(
    select(func.count().label("games"))
    .select_from(games_t)
    .where(games_t.c.tournament_id == bindparam("b_tournament_id"))
)


@cache
def _game_by_id(dialect: str) -> Select[Any]:
    return select_games(dialect).where(games_t.c.id == bindparam("b_id"))


@cache
def _open_game_in(dialect: str) -> Select[Any]:
    return select_games(dialect).where(games_t.c.channel == bindparam("b_channel"), IS_OPEN)


class Games:
    """``uow.games``: games with their snapshots. Writes are optimistic: :meth:`save` only succeeds
    against the version it was loaded at, so two processes cannot both apply a move."""

    def __init__(self, tx: Transaction) -> None:
        self._tx = tx
        # Games as stored, for those this unit of work loaded or wrote. A successful save proves
        # nobody else wrote since, so save writes only the participant rows that changed and
        # builds its answer without reading the game back.
        self._known: dict[int, GameRecord] = {}

    def get(self, game_id: int) -> GameRecord | None:
        return self._first(_game_by_id(self._tx.dialect), {"b_id": game_id})

    def open_in(self, channel: str) -> GameRecord | None:
        """The channel's open game, if it has one (it has at most one)."""
        return self._first(_open_game_in(self._tx.dialect), {"b_channel": channel})

    def create(
        self,
        tournament_id: int,
        channel: str,
        kind: str,
        options: Mapping[str, Any],
        seed: bytes,
        commitment: str,
        snapshot: Mapping[str, Any],
        to_act: str | None,
        now: datetime,
        *,
        turn_deadline: datetime | None = None,
        participants: Sequence[SeatLike] = (),
        live_message: str | None = None,
        numbered_with: Sequence[str] = (),
    ) -> GameRecord:
        """Open a game as the tournament's next number, at version 1 (``live_message``: where its live
        table is, ``"<channel>:<message>"``, when it has a thread of its own; ``numbered_with``: the
        other kinds whose games count with this one's — rule sets of one game, told apart by number).

        Raises :class:`GameAlreadyOpen` when the channel has an open game (also when another process
        opened one a moment ago) and :class:`UnknownTournament` for a missing tournament.
        """
        if not kind or len(kind) > KIND_MAX:
            raise ValueError(f"kind must be a game's name of 1 to {KIND_MAX} characters, not {kind!r}")
        check_instant("now", now)
        check_instant("turn_deadline", turn_deadline)
        seats = _seat_rows(0, participants)  # validated before anything is written
        # Locking the tournament row serialises game creation within it (PostgreSQL; SQLite's unit of
        # work already holds the write lock), so the number below is never taken twice and a second
        # game racing for the channel fails on the open-game index, as GameAlreadyOpen.
        if self._tx.run(LOCK_TOURNAMENT, {"b_id": tournament_id}).first() is None:
            raise UnknownTournament(tournament_id)
        kinds = sorted({kind, *numbered_with})
        parameters = {
            "b_tournament_id": tournament_id,
            "b_channel": channel,
            "b_kind": kind,
            "b_options": dict(options),
            "b_seed": bytes(seed),
            "b_commitment": commitment,
            "b_snapshot": dict(snapshot),
            "b_to_act": to_act,
            "b_turn_deadline": turn_deadline,
            "b_opened_at": now,
            "b_live_message": live_message,
            **{f"b_numbered_{index}": numbered for index, numbered in enumerate(kinds)},
        }
        try:
            row = self._tx.run(_insert_game(len(kinds)), parameters).one()
        except exc.IntegrityError as error:
            if violated(error, OPEN_GAME_PER_CHANNEL, "games.channel"):
                raise GameAlreadyOpen(channel) from error
            if violated(
                error, "uq_games_tournament_id_kind_number", "games.tournament_id, games.kind, games.number"
            ):
                raise Conflict(f"another game was just created in tournament {tournament_id}") from error
            raise
        self._replace_participants(row.id, seats, had_rows=False)
        created = _game(row, row.snapshot, [ParticipantRecord(row.id, *seat) for seat in seats])
        self._known[created.id] = created
        return created

    def save(
        self,
        game_id: int,
        expected_version: int,
        snapshot: Mapping[str, Any],
        dice_used: int,
        to_act: str | None,
        turn_deadline: datetime | None,
        participants: Sequence[SeatLike],
        status: str = "open",
        closed_at: datetime | None = None,
    ) -> GameRecord:
        """Store the game's new state as version ``expected_version + 1`` and replace its participants.

        The update only matches while the stored version is still ``expected_version``; otherwise
        :class:`StaleVersion` is raised and nothing is written (so a second process that loaded the
        same version loses, whatever the timing).
        """
        save = GameSave(
            game_id,
            expected_version,
            dict(snapshot),
            dice_used,
            to_act,
            turn_deadline,
            participants,
            status,
            closed_at,
        )
        return self._save(save)

    def _save(self, save: GameSave) -> GameRecord:
        game_id = save.game_id
        parameters = _save_parameters(save)
        known = self._known.get(game_id)
        stored = known.participants if known is not None else ()
        records, changed, same_players = _seat_records(game_id, save.participants, stored)  # validated first
        if self._tx.run(_update_game(_changed_columns(known, save)), parameters).rowcount != 1:
            raise self._not_saved(save)
        if known is not None and same_players:
            self._update_participants(game_id, changed)
        else:
            had_rows = known is None or bool(known.participants)
            self._replace_participants(game_id, [_row_of(record) for record in records], had_rows=had_rows)
        if known is None:  # saved without loading it first: read the rest of the row back
            reloaded = self.get(game_id)
            assert reloaded is not None  # the update above just matched it
            return reloaded
        return self._saved(known, save, records)

    def save_and_log(
        self, save: GameSave, entry: NewLogEntry, *, commit: bool = False
    ) -> tuple[GameRecord, LogEntry]:
        """A move's whole write: the game as :meth:`save` stores it, and the message that made the move
        as ``CommandLog.append`` logs it, with the same errors. ``commit``: and commit the unit of work
        with it (a command's last write; raised errors leave nothing of it behind).

        On PostgreSQL, for a game loaded in this unit of work (as the croupier always does), this is
        ONE statement: the game's update, the participant rows that changed and the log entry, so a
        command costs one round trip for its writes instead of three — its COMMIT travelling with it.
        (A version that no longer matches writes nothing: the commit then keeps nothing either.) On
        SQLite, where round trips are calls into the same process, it is the two calls one after the
        other.
        """
        known = self._known.get(save.game_id)
        if self._tx.dialect != "postgresql" or known is None:
            written = self._save(save), CommandLog(self._tx).append_entry(entry)
            if commit:
                self._tx.commit()
            return written
        parameters = _save_parameters(save)
        records, changed, _ = _seat_records(save.game_id, save.participants, known.participants)
        row = log_row(entry)
        statement_parameters = {
            **parameters,
            "b_seats": [dict(zip(PARTICIPANT_FIELDS, seat, strict=True)) for seat in changed],
            "b_players": [record.player for record in records],
            **dict(zip(_LOG_PARAMETERS, row, strict=True)),
        }
        with log_conflicts(entry):
            statement = _save_and_log_postgresql(_changed_columns(known, save))
            written = self._tx.run(statement, statement_parameters, commit=commit).first()
        if written is None:
            raise self._not_saved(save)
        return self._saved(known, save, records), logged_entry(written.id, row)

    def _not_saved(self, save: GameSave) -> UnknownGame | StaleVersion:
        """Why an update matched no row: the game is gone, or another process saved it first."""
        actual = self._tx.run(_GAME_VERSION, {"b_id": save.game_id}).scalar()
        if actual is None:
            return UnknownGame(save.game_id)
        return StaleVersion(save.game_id, save.expected_version, actual)

    def _saved(self, known: GameRecord, save: GameSave, records: tuple[ParticipantRecord, ...]) -> GameRecord:
        saved = evolve(
            known,
            version=save.expected_version + 1,
            snapshot=save.snapshot,
            dice_used=save.dice_used,
            to_act=save.to_act,
            turn_deadline=save.turn_deadline.astimezone(UTC) if save.turn_deadline else None,
            status=save.status,
            closed_at=save.closed_at.astimezone(UTC) if save.closed_at else None,
            participants=records,
            reminded_at=None,
        )
        self._known[save.game_id] = saved
        return saved

    def count_in(self, tournament_id: int) -> int:
        """How many games the tournament has had (open or closed), without loading them."""
        return int(self._tx.run(_COUNT_IN, {"b_tournament_id": tournament_id}).one()[0])

    def open_by_kind(self) -> dict[str, int]:
        """How many games are open, by kind of game (every channel's, every process's)."""
        statement = select(games_t.c.kind, func.count()).where(IS_OPEN).group_by(games_t.c.kind)
        rows: list[Any] = list(self._tx.execute(statement))
        return {str(kind): int(count) for kind, count in rows}

    def closed_in(self, tournament_id: int) -> tuple[GameRecord, ...]:
        """The tournament's closed games in number order, with participants: the standings' input."""
        return self._many(
            (games_t.c.tournament_id == tournament_id) & (games_t.c.status == "closed"),
            games_t.c.number,
        )

    def due(self, now: datetime) -> tuple[GameRecord, ...]:
        """Open games whose player to act let the turn deadline pass, most overdue first."""
        check_instant("now", now)
        return self._many(
            IS_OPEN & games_t.c.turn_deadline.is_not(None) & (games_t.c.turn_deadline <= now),
            games_t.c.turn_deadline,
        )

    def list_closed(self, game_id: int | None = None) -> tuple[GameRecord, ...]:
        """Closed games (seeds revealed) for verification: all of them, or only ``game_id``."""
        condition = games_t.c.status == "closed"
        if game_id is not None:
            condition = condition & (games_t.c.id == game_id)
        return self._many(condition, games_t.c.id)

    def closed_of(self, guild: str, home: str, game_id: int | None = None) -> tuple[GameRecord, ...]:
        """Closed games of one guild for verification: one by id (only if it is this guild's), else
        those of the tournaments played in ``home``."""
        statement = closed_of_guild(self._tx.dialect, guild, home, game_id)
        return tuple(self.loaded(row) for row in self._tx.execute(statement))

    def _first(self, statement: Select[Any], parameters: dict[str, Any]) -> GameRecord | None:
        row = (self._tx.execute(statement, parameters)).first()
        return None if row is None else self.loaded(row)

    def _many(self, condition: Any, order: Any) -> tuple[GameRecord, ...]:
        statement = select_games(self._tx.dialect).where(condition).order_by(order, games_t.c.id)
        return tuple(self.loaded(row) for row in self._tx.execute(statement))

    def remember(self, record: GameRecord) -> None:
        """Take ``record`` as the game's stored row, as if loaded in this unit of work (the caller knows
        it is: see ``bot.service.warm_channels``), so a save writes only what changed."""
        self._known[record.id] = record

    def loaded(self, row: Row[Any]) -> GameRecord:
        """The record of a row of :func:`select_games` (remembered, so a save need not read it back)."""
        seats = sorted(
            (ParticipantRecord(row.id, *seat) for seat in row.seats or ()), key=lambda seat: seat.position
        )
        record = _game(row, row.snapshot, seats)
        self._known[record.id] = record
        return record

    def _update_participants(self, game_id: int, changed: Sequence[_SeatRow]) -> None:
        """Write the rows of the seats a save changed, the same players being seated."""
        if len(changed) == 1:  # a move changes one seat, mostly: one statement, not a batch of one
            self._tx.run(_UPDATE_PARTICIPANT, _seat_parameters(game_id, changed[0]))
        elif changed:
            self._tx.run_many(_UPDATE_PARTICIPANT, [_seat_parameters(game_id, seat) for seat in changed])

    def _replace_participants(self, game_id: int, seats: Sequence[_SeatRow], *, had_rows: bool) -> None:
        """Make the game's participant rows ``seats`` (``had_rows``: it may have rows to delete first)."""
        if had_rows:
            self._tx.run(_DELETE_PARTICIPANTS, {"b_game_id": game_id})
        if seats:
            self._tx.run_many(_INSERT_PARTICIPANTS, [_seat_parameters(game_id, seat) for seat in seats])


def _save_parameters(save: GameSave) -> dict[str, Any]:
    """The game update's parameters, validated before anything is written."""
    if save.status not in GAME_STATUSES:
        raise ValueError(f"status must be one of {', '.join(GAME_STATUSES)}, not {save.status!r}")
    if (save.status == "closed") != (save.closed_at is not None):
        raise ValueError("closed_at is given exactly when the status is 'closed'")
    if save.dice_used < 0:
        raise ValueError(f"dice_used cannot be negative ({save.dice_used})")
    check_instant("turn_deadline", save.turn_deadline)
    check_instant("closed_at", save.closed_at)
    return {
        "b_id": save.game_id,
        "b_expected": save.expected_version,
        "b_version": save.expected_version + 1,
        "b_snapshot": save.snapshot,
        "b_dice_used": save.dice_used,
        "b_to_act": save.to_act,
        "b_turn_deadline": save.turn_deadline,
        "b_status": save.status,
        "b_closed_at": save.closed_at,
    }


# A participant row as written: its PARTICIPANT_FIELDS in that order (player, name, position, role, points).
_SeatRow = tuple[str, str, int, str, int]


def _seat_rows(game_id: int, seats: Sequence[SeatLike]) -> list[_SeatRow]:
    """The participant rows of a new game's ``seats`` (refused if a player sits twice)."""
    return [_row_of(record) for record in _seat_records(game_id, seats, ())[0]]


def _seat_records(
    game_id: int, seats: Sequence[SeatLike], stored: Sequence[ParticipantRecord]
) -> tuple[tuple[ParticipantRecord, ...], list[_SeatRow], bool]:
    """The records of ``seats`` (refused if a player sits twice), the rows of those that differ from
    the ``stored`` records, and whether the same players are seated.

    A move changes one or two seats of many, and a seat it left as it was keeps its stored record:
    each seat is compared with the stored record at its place (stored records are in position order,
    one per player, as this module writes and loads them). The players are only checked when one
    sits where another did or the count changed. (Plain loops and attribute reads: every move runs
    this.)"""
    records: list[ParticipantRecord] = []
    changed: list[_SeatRow] = []
    moved = len(seats) != len(stored)
    for record, seat in zip_longest(stored, seats):
        if seat is None:  # players left
            break
        if (
            record is not None
            and record.points == seat.points
            and record.role == seat.role
            and record.player == seat.player
            and record.name == seat.name
        ):
            records.append(record)
            continue
        row = (seat.player, seat.name, len(records), seat.role, int(seat.points))
        records.append(ParticipantRecord(game_id, *row))
        changed.append(row)
        moved = moved or record is None or record.player != seat.player
    if not moved:  # the same players in the same places
        return tuple(records), changed, True
    players = {record.player for record in records}
    if len(players) != len(records):
        raise ValueError(f"game {game_id}: a participant appears twice in {[r.player for r in records]}")
    return tuple(records), changed, len(records) == len(stored) and players == {r.player for r in stored}


def _row_of(record: ParticipantRecord) -> _SeatRow:
    return (record.player, record.name, record.position, record.role, record.points)


def _seat_parameters(game_id: int, seat: _SeatRow) -> dict[str, Any]:
    return dict(zip(_SEAT_PARAMETERS, (game_id, *seat), strict=True))


def _game(row: Row[Any], snapshot: dict[str, Any], participants: Sequence[ParticipantRecord]) -> GameRecord:
    return GameRecord(
        id=row.id,
        tournament_id=row.tournament_id,
        channel=row.channel,
        kind=row.kind,
        number=row.number,
        options=row.options,
        status=row.status,
        seed=bytes(row.seed),
        commitment=row.commitment,
        dice_used=row.dice_used,
        snapshot=snapshot,
        version=row.version,
        to_act=row.to_act,
        turn_deadline=row.turn_deadline,
        opened_at=row.opened_at,
        closed_at=row.closed_at,
        participants=tuple(participants),
        live_message=row.live_message,
        reminded_at=row.reminded_at,
    )


def closed_of_guild(dialect: str, guild: str, home: str, game_id: int | None = None) -> Select[Any]:
    """The query of :meth:`Games.closed_of`: from the guild's tournaments to their games, so a player's
    ``/verify`` reads only rows of the asking guild, however many games other guilds closed.

    With an id: that game by its key, joined to its tournament by its key. Without: the tournaments
    of ``home`` (``ix_tournaments_channel_id``), then each one's games (the unique index that leads
    with ``tournament_id``) — never the closed games of the whole database by their status.
    """
    joined = tournaments_t.join(games_t, games_t.c.tournament_id == tournaments_t.c.id)
    # `status || ''`: the same test, but no index on status can serve it, so no planner (SQLite's has
    # no statistics) starts from the closed games of every guild.
    condition = (tournaments_t.c.guild == guild) & (games_t.c.status.concat("") == "closed")
    if game_id is not None:
        condition = condition & (games_t.c.id == game_id)
    else:
        condition = condition & (tournaments_t.c.channel == home)
    return select_games(dialect).select_from(joined).where(condition).order_by(games_t.c.id)
