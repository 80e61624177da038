"""A SQLite unit of work nobody listens to runs its transaction on the driver alone (bot/store/db.py
``unobserved``, repositories/prepared.py ``Driver``): what it keeps, undoes and raises must be what
SQLAlchemy's own transaction (taken whenever a listener is there) keeps, undoes and raises."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, func, select, text

from bot.store import DuplicateMessage, Store, UnitOfWork
from bot.store.db import DRIVER_BEGUN, unobserved
from bot.store.repositories.tables import log_t

NOW = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)
SQLITE_ONLY = pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True)


@contextmanager
def listened(store: Store, listen: bool) -> Iterator[None]:
    """With ``listen``: a listener on the engine's commits, so units of work take SQLAlchemy's way."""
    if not listen:
        yield
        return

    def commit(_connection: Any) -> None:
        pass

    event.listen(store.engine, "commit", commit)
    try:
        yield
    finally:
        event.remove(store.engine, "commit", commit)


def logged(store: Store) -> list[str]:
    with store.transaction(read_only=True) as uow:
        rows = uow._tx.execute(select(log_t.c.message_id).order_by(log_t.c.id))
        return [row[0] for row in rows]


def append(uow: UnitOfWork, message_id: str) -> None:
    uow.log.append(message_id, channel="c", actor="anna", text="wurf", now=NOW)


def outcome(store: Store, listen: bool, work: Callable[[UnitOfWork], Any]) -> tuple[list[str], str]:
    """What ``work`` leaves stored, and the error it raised (by type), run in a unit of work."""
    with listened(store, listen):
        connection = store.engine.connect()
        try:
            with store._on(connection) as uow:
                assert uow._tx.alone is not listen
                work(uow)
            raised = ""
        except Exception as error:
            raised = type(error).__name__
        # the connection is left clean: no transaction, SQLAlchemy's or the driver's, and no flag
        assert not connection.in_transaction()
        assert not connection.connection.dbapi_connection.in_transaction  # type: ignore[union-attr]
        assert not connection.info.get(DRIVER_BEGUN)
        connection.close()
    return logged(store), raised


def commits_twice(uow: UnitOfWork) -> None:
    append(uow, "a")
    uow.commit()
    append(uow, "b")  # a new transaction, begun by the statement
    uow.commit()
    append(uow, "never")  # not committed: undone when the unit of work ends


def mixes_sqlalchemy(uow: UnitOfWork) -> None:
    append(uow, "a")
    count = uow._tx.execute(select(func.count()).select_from(log_t)).scalar_one()  # SQLAlchemy joins
    assert count == 1
    append(uow, "b")
    uow.commit()
    uow._tx.execute(text("SELECT 1"))  # SQLAlchemy begins the next transaction itself
    append(uow, "c")
    uow.commit()
    append(uow, "never")


def survives_a_duplicate(uow: UnitOfWork) -> None:
    append(uow, "a")
    with pytest.raises(DuplicateMessage):
        append(uow, "a")  # a failed statement, not a failed transaction: "a" stays
    append(uow, "b")
    uow.commit()


def rolls_back(uow: UnitOfWork) -> None:
    append(uow, "a")
    uow.rollback()
    append(uow, "b")
    uow.commit()


def fails(uow: UnitOfWork) -> None:
    append(uow, "a")
    uow.commit()
    append(uow, "never")
    raise RuntimeError("after writing")


@SQLITE_ONLY
@pytest.mark.parametrize(
    ("work", "kept", "raised"),
    [
        (commits_twice, ["a", "b"], ""),
        (mixes_sqlalchemy, ["a", "b", "c"], ""),
        (survives_a_duplicate, ["a", "b"], ""),
        (rolls_back, ["b"], ""),
        (fails, ["a"], "RuntimeError"),
    ],
)
@pytest.mark.parametrize("listen", [False, True])
async def test_alone_or_through_sqlalchemy_a_unit_of_work_keeps_the_same(
    store: Store, work: Callable[[UnitOfWork], Any], kept: list[str], raised: str, listen: bool
) -> None:
    assert outcome(store, listen, work) == (kept, raised)


@SQLITE_ONLY
async def test_a_unit_of_work_alone_holds_the_write_lock_from_its_start(store: Store, tmp_path: Path) -> None:
    import sqlite3

    url = store.engine.url.database
    assert url is not None
    with store.transaction() as uow:
        assert uow._tx.alone
        other = sqlite3.connect(url, timeout=0, isolation_level=None)
        try:
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                other.execute("BEGIN IMMEDIATE")
        finally:
            other.close()
    with store.transaction(read_only=True) as uow:  # a reader takes no lock
        assert uow._tx.alone
        other = sqlite3.connect(url, timeout=0, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
            other.execute("ROLLBACK")
        finally:
            other.close()


@SQLITE_ONLY
async def test_the_workers_run_alone_and_count_their_commits(store: Store) -> None:
    def work(uow: UnitOfWork) -> bool:
        append(uow, "a")
        uow.commit()
        return uow._tx.alone and uow.commits == 1

    assert await store.run(work)
    assert logged(store) == ["a"]


@SQLITE_ONLY
@pytest.mark.parametrize(
    "name", ["begin", "commit", "rollback", "before_cursor_execute", "after_cursor_execute"]
)
@pytest.mark.parametrize("on_connection", [False, True])
async def test_any_listener_of_a_transaction_or_statement_gets_sqlalchemys_way(
    store: Store, name: str, on_connection: bool
) -> None:
    def listener(*_: Any) -> None:
        pass

    connection = store.engine.connect()
    try:
        assert unobserved(connection)
        target: Any = connection if on_connection else store.engine
        event.listen(target, name, listener)
        try:
            assert not unobserved(connection)
        finally:
            event.remove(target, name, listener)
        if not on_connection:
            assert unobserved(connection)
    finally:
        connection.close()
