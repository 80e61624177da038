"""``uow.log``: the command log, one row per handled message, keyed by the message id."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Row,
    bindparam,
    exc,
    insert,
    select,
)
from sqlalchemy.dialects import postgresql, sqlite

from bot.store.errors import (
    DuplicateMessage,
    UnknownGame,
)
from bot.store.records import (
    LogEntry,
    NewLogEntry,
)
from bot.store.repositories.prepared import Prepared
from bot.store.repositories.tables import log_t
from bot.store.repositories.transaction import Transaction, check_instant, violated

# The columns a log entry writes, in order: a LogEntry's fields after its id are the same, in the same
# order, so an entry is made from the row as written (see log_row, logged_entry).
LOGGED = tuple(column.name for column in log_t.c if column.name != "id")
if tuple(field.name for field in dataclasses.fields(LogEntry))[1:] != LOGGED:
    raise ImportError("LogEntry's fields must be the command log's columns, in order")
_PARAMETERS = tuple(f"b_{name}" for name in LOGGED)
_VALUES: dict[str, Any] = dict(zip(LOGGED, map(bindparam, _PARAMETERS), strict=True))

# Prepared once: every command runs them (see .prepared).
_FIND_LOG = Prepared(select(log_t).where(log_t.c.message_id == bindparam("b_message_id")), name="LogRow")
_INSERT_LOG = Prepared(insert(log_t).values(_VALUES).returning(log_t.c.id))
_INSERT_LOG_ROW = Prepared(insert(log_t).values(_VALUES))  # SQLite's: the id is the row's rowid (Ran)
# A message logged unless it was already: one statement instead of a look-up and an insert.
_INSERT_LOG_ONCE = {
    dialect: Prepared(
        dialect_insert(log_t)
        .values(_VALUES)
        .on_conflict_do_nothing(index_elements=[log_t.c.message_id])
        .returning(log_t.c.id)
    )
    for dialect, dialect_insert in (("sqlite", sqlite.insert), ("postgresql", postgresql.insert))
}


class CommandLog:
    """``uow.log``: every handled message, once. The message id is unique, so a redelivery cannot
    be applied twice: :meth:`append` raises :class:`DuplicateMessage` for an id already logged."""

    def __init__(self, tx: Transaction) -> None:
        self._tx = tx

    def find(self, message_id: str) -> LogEntry | None:
        """The entry of an already handled message (to repeat its reply), if any."""
        row = self._tx.run(_FIND_LOG, {"b_message_id": message_id}).first()
        return None if row is None else _log_entry(row)

    def append(
        self,
        message_id: str,
        *,
        channel: str,
        actor: str,
        text: str,
        now: datetime,
        game_id: int | None = None,
        command: Mapping[str, Any] | None = None,
        events: Sequence[Any] = (),
        dice: Sequence[int] = (),
        dice_from: int = 0,
        reply: Any = None,
        delivery: str | None = None,
        commit: bool = False,
    ) -> LogEntry:
        """Log one handled message (``delivery="pending"``: its answer is still to be posted). A
        duplicate id raises :class:`DuplicateMessage`; the unit of work must then be abandoned (on
        PostgreSQL the transaction is already aborted). ``commit``: and commit the unit of work with it
        (on PostgreSQL in the same round trip)."""
        entry = NewLogEntry(
            message_id,
            channel,
            actor,
            text,
            now,
            game_id,
            dict(command) if command is not None else None,
            events,
            dice,
            dice_from,
            reply,
            delivery,
        )
        return self.append_entry(entry, commit=commit)

    def append_entry(self, entry: NewLogEntry, *, commit: bool = False) -> LogEntry:
        """:meth:`append` for an entry already put together."""
        row = log_row(entry)
        parameters = dict(zip(_PARAMETERS, row, strict=True))
        try:  # (``with log_conflicts(entry)``, without its frames on every command's path)
            if self._tx.dialect == "sqlite":
                key = self._tx.run(_INSERT_LOG_ROW, parameters, commit=commit).lastrowid
            else:
                key = self._tx.run(_INSERT_LOG, parameters, commit=commit).scalar()
        except exc.IntegrityError as error:
            problem = conflict(error, entry)
            if problem is None:
                raise
            raise problem from error
        assert key is not None  # (an inserted row has its rowid)
        return logged_entry(key, row)

    def append_once(self, entry: NewLogEntry, *, commit: bool = False) -> LogEntry | None:
        """:meth:`append_entry`, except that an id already logged writes nothing and gives None (the
        transaction goes on; :meth:`find` has the earlier entry) — how a refusal is logged: one
        ``INSERT … ON CONFLICT DO NOTHING RETURNING`` instead of a look-up before the insert."""
        row = log_row(entry)
        parameters = dict(zip(_PARAMETERS, row, strict=True))
        with log_conflicts(entry):
            key = self._tx.run(_INSERT_LOG_ONCE[self._tx.dialect], parameters, commit=commit).scalar()
        return None if key is None else logged_entry(key, row)

    def of_game(self, game_id: int) -> tuple[LogEntry, ...]:
        """A game's entries in the order they were written (for verify and export)."""
        result = self._tx.execute(select(log_t).where(log_t.c.game_id == game_id).order_by(log_t.c.id))
        return tuple(_log_entry(row) for row in result)


def log_row(entry: NewLogEntry) -> tuple[Any, ...]:
    """The log row's columns (:data:`LOGGED`, in order), validated and turned into JSON-ready values;
    the instant in UTC, as it is read back."""
    check_instant("now", entry.now)
    return (
        entry.message_id,
        entry.game_id,
        entry.channel,
        entry.actor,
        entry.text,
        dict(entry.command) if entry.command is not None else None,
        list(entry.events),
        list(map(int, entry.dice)),
        entry.dice_from,
        entry.reply,
        entry.now.astimezone(UTC),
        None,  # voided_by
        entry.delivery,
        None,  # delivered_at
    )


def logged_entry(entry_id: int, row: tuple[Any, ...]) -> LogEntry:
    """The entry of a row :func:`log_row` made, once written as ``entry_id`` — what
    ``LogEntry(entry_id, *row)`` makes, its fields filled at once instead of one by one through the
    frozen class's ``__init__`` (a plain frozen dataclass: checked below)."""
    entry = _new_entry(LogEntry)
    entry.__dict__.update(zip(_ENTRY_FIELDS, (entry_id, *row), strict=True))
    return entry


_new_entry = object.__new__
_ENTRY_FIELDS = ("id", *LOGGED)
if hasattr(LogEntry, "__post_init__") or "__slots__" in vars(LogEntry):
    raise ImportError("LogEntry must be a plain frozen dataclass (see logged_entry)")


class log_conflicts:  # lower case: used like the function it was, ``with log_conflicts(entry):``
    """A log insert's integrity errors as the store's own: the id was logged before, or no such game.
    (A class, not a generator-based context manager: it wraps every command's log insert.)"""

    __slots__ = ("_entry",)

    def __init__(self, entry: NewLogEntry) -> None:
        self._entry = entry

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, _tb: object) -> None:
        if not isinstance(error, exc.IntegrityError):
            return
        problem = conflict(error, self._entry)
        if problem is not None:
            raise problem from error


def conflict(error: exc.IntegrityError, entry: NewLogEntry) -> DuplicateMessage | UnknownGame | None:
    """What a log insert's integrity error means for ``entry`` (None: nothing the store names)."""
    if violated(error, "uq_command_log_message_id", "command_log.message_id"):
        return DuplicateMessage(entry.message_id)
    if entry.game_id is not None and "foreign" in str(error.orig).lower():
        return UnknownGame(entry.game_id)
    return None


def _log_entry(row: Row[Any]) -> LogEntry:
    return LogEntry(
        id=row.id,
        message_id=row.message_id,
        game_id=row.game_id,
        channel=row.channel,
        actor=row.actor,
        text=row.text,
        command=row.command,
        events=row.events,
        dice=row.dice,
        dice_from=row.dice_from,
        reply=row.reply,
        created_at=row.created_at,
        voided_by=row.voided_by,
        delivery=row.delivery,
        delivered_at=row.delivered_at,
    )
