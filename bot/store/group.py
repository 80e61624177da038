"""Group commit: the units of work waiting for SQLite's writer, committed together with one fsync.

A durable SQLite commit is an fsync, and one unit of work at a time pays one each. When several are
waiting (many channels playing at once), the writer runs them all in ONE transaction, each in a
savepoint of its own, and commits once; each caller hears its result only after that commit, so
nothing is answered that is not on disk.

Inside the group a unit of work behaves as alone: its ``commit`` releases its savepoint (and opens a
new one for what it writes next), its ``rollback`` and any error undo only its own writes since then,
so one failing unit of work does not undo the others. If the group's transaction itself is lost — its
COMMIT fails, or SQLite rolled the whole transaction back after an I/O error — every unit of work
whose writes were in it fails with that error, as its own commit would have, and the marks of the
connection stop matching (:func:`bot.store.marks.forget`), since what they describe never reached
the disk.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import suppress
from typing import Any, Protocol

from sqlalchemy import Connection
from sqlalchemy.engine import URL

from bot.store.db import driver_execute, reachable
from bot.store.marks import forget

GROUP_MAX = 256  # units of work committed together at most (a bound on the first one's wait)
_NAME = "croupier_unit"

Outcome = tuple[Any, BaseException | None]


class Savepoint:
    """One unit of work's transaction inside the group's: what its commit and rollback do there."""

    __slots__ = ("_connection",)

    def __init__(self, connection: Connection) -> None:
        self._connection = connection
        driver_execute(connection, f"SAVEPOINT {_NAME}")

    def commit(self) -> None:
        """Keep what the unit of work wrote so far (durable with the group's COMMIT)."""
        driver_execute(self._connection, f"RELEASE {_NAME}")
        driver_execute(self._connection, f"SAVEPOINT {_NAME}")

    def rollback(self) -> None:
        """Undo what the unit of work wrote since its last commit (it may go on)."""
        driver_execute(self._connection, f"ROLLBACK TO {_NAME}")

    def end(self) -> None:
        """The unit of work is over: undo what it did not commit."""
        driver_execute(self._connection, f"ROLLBACK TO {_NAME}")
        driver_execute(self._connection, f"RELEASE {_NAME}")


class Unit(Protocol):
    """A unit of work as the group runs it: its transaction is a savepoint."""

    def end(self) -> None: ...


def commit_together(
    connection: Connection,
    url: str | URL,
    works: Sequence[Callable[[Any], Any]],
    open_unit: Callable[[Savepoint], Unit],
) -> list[Outcome]:
    """Run ``works`` one after another in one transaction on ``connection``, each on a unit of work
    ``open_unit`` makes on a savepoint of its own, and commit once. Each one's result or error."""
    dbapi: Any = connection.connection.dbapi_connection
    outcomes: list[Outcome] = []
    kept: list[int] = []  # the units whose writes are in the open transaction
    for work in works:
        if not connection.in_transaction():
            with reachable(url):
                connection.begin()
        try:
            with reachable(url):
                savepoint = Savepoint(connection)
            unit = open_unit(savepoint)
            try:
                result = work(unit)
            finally:
                unit.end()
                if dbapi.in_transaction:
                    with reachable(url):
                        savepoint.end()
            outcomes.append((result, None))
            kept.append(len(outcomes) - 1)
        except BaseException as error:  # handed to the unit's caller, whatever it is
            outcomes.append((None, error))
            if not dbapi.in_transaction:  # SQLite ended the whole transaction: the others' writes too
                _lost(connection, outcomes, kept, error)
                kept = []
    if kept:
        try:
            with reachable(url):
                connection.commit()
        except BaseException as error:
            _lost(connection, outcomes, kept, error)
    return outcomes


def _lost(connection: Connection, outcomes: list[Outcome], kept: list[int], error: BaseException) -> None:
    """The group's transaction is gone: the units whose writes were in it fail with ``error``."""
    forget(connection.info)
    with suppress(Exception):
        connection.rollback()
    dbapi: Any = connection.connection.dbapi_connection if not connection.invalidated else None
    if dbapi is not None and dbapi.in_transaction:  # SQLAlchemy counts it as ended; SQLite does not
        with suppress(Exception):
            dbapi.rollback()
    for index in kept:
        outcomes[index] = (None, error)
