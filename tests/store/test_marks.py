"""Marks (bot/store/marks.py): a SQLite writer can tell that the database is exactly as it left it.

A mark is what lets the croupier skip re-reading a channel it just wrote, so every way the database
can change behind it must make the mark miss: another process, another thread's connection, another
unit of work on the writer's own connection — and a PostgreSQL store never claims to know.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from bot.store import Mark, Store, UnitOfWork

NOW = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)
SQLITE_ONLY = pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True)


def settle(uow: UnitOfWork) -> Mark | None:
    """A writing unit of work that asks first, writes, commits and leaves a mark."""
    uow.unchanged_since(None)
    uow.settings.set("g", "c", language="en")
    uow.commit()
    return uow.mark()


def still(mark: Mark | None) -> object:
    return lambda uow: uow.unchanged_since(mark)


@SQLITE_ONLY
async def test_a_writer_finds_the_database_as_its_own_last_commit_left_it(store: Store) -> None:
    mark = await store.run(settle)
    assert mark is not None
    assert await store.run(still(mark))  # nothing happened since
    assert await store.run(still(mark))  # asking writes nothing


@SQLITE_ONLY
async def test_another_process_committing_makes_the_mark_miss(store: Store, db_url: str) -> None:
    mark = await store.run(settle)
    other = await Store.open(db_url)  # another process: its own engine and connections
    try:
        await other.run(lambda uow: (uow.settings.set("g", "c", language="fr"), uow.commit()))
    finally:
        await other.close()
    assert not await store.run(still(mark))


@SQLITE_ONLY
async def test_another_connection_of_this_process_committing_makes_the_mark_miss(store: Store) -> None:
    mark = await store.run(settle)

    def elsewhere() -> None:
        with store.transaction() as uow:  # a tool's unit of work on a connection of its own
            uow.settings.set("g", "c", language="fr")
            uow.commit()

    await asyncio.to_thread(elsewhere)
    assert not await store.run(still(mark))


@SQLITE_ONLY
async def test_any_other_commit_on_the_writers_own_connection_makes_the_mark_miss(store: Store) -> None:
    mark = await store.run(settle)
    await store.run(lambda uow: (uow.settings.set("g", "c", language="fr"), uow.commit()))
    assert not await store.run(still(mark))


@SQLITE_ONLY
async def test_a_commit_whose_transaction_did_not_ask_leaves_no_mark(store: Store) -> None:
    def unasked(uow: UnitOfWork) -> Mark | None:
        uow.settings.set("g", "c", language="en")
        uow.commit()
        return uow.mark()

    assert await store.run(unasked) is None
    assert await store.run(lambda uow: uow.mark()) is None  # nor does one that never committed


@SQLITE_ONLY
async def test_a_unit_of_work_that_fails_after_its_commit_still_makes_the_mark_miss(store: Store) -> None:
    mark = await store.run(settle)

    def committed_then_failed(uow: UnitOfWork) -> None:
        uow.settings.set("g", "c", language="fr")
        uow.commit()
        raise RuntimeError("after the commit")

    with pytest.raises(RuntimeError, match="after the commit"):
        await store.run(committed_then_failed)
    assert not await store.run(still(mark))


@SQLITE_ONLY
async def test_a_commit_that_never_happened_keeps_the_mark(store: Store) -> None:
    mark = await store.run(settle)

    def failing_hook(uow: UnitOfWork) -> None:
        def hook() -> None:
            raise RuntimeError("the hook failed")

        uow.settings.set("g", "c", language="fr")
        uow.before_commit(hook)
        uow.commit()

    with pytest.raises(RuntimeError, match="the hook failed"):
        await store.run(failing_hook)
    assert await store.run(still(mark))  # rolled back: the database is as the mark says


@SQLITE_ONLY
async def test_readers_never_claim_to_know(store: Store) -> None:
    mark = await store.run(settle)
    assert not await store.run(still(mark), read_only=True)


async def test_only_a_sqlite_writer_leaves_marks(store: Store) -> None:
    mark = await store.run(settle)
    assert (mark is not None) == (store.dialect == "sqlite")
    assert (await store.run(still(mark))) == (store.dialect == "sqlite")


@SQLITE_ONLY
async def test_a_recycled_connection_makes_the_mark_miss(store: Store) -> None:
    mark = await store.run(settle)
    store.recycle()  # the writer opens a new connection: its counts start afresh
    assert not await store.run(still(mark))
