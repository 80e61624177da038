"""Group commit (bot/store/group.py, bot/store/lanes.py): SQLite's writer commits the units of work
waiting together, with one COMMIT, each in a savepoint of its own.

The writer is held by a first unit of work while the others queue up behind it, as when many
channels play at once; what each unit of work sees, keeps and is told must be what it would have
been alone.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import event

from bot.store import Mark, Store, UnitOfWork

NOW = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)
SQLITE_ONLY = pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True)


def logs(message_id: str, *, commit: bool = True, fail: bool = False) -> Callable[[UnitOfWork], str]:
    """A unit of work that logs ``message_id`` (and commits, or fails after writing)."""

    def work(uow: UnitOfWork) -> str:
        uow.log.append(message_id, channel="c", actor="anna", text="wurf", now=NOW)
        if fail:
            raise RuntimeError(f"{message_id} failed after writing")
        if commit:
            uow.commit()
        return message_id

    return work


async def queued_behind_a_held_writer(store: Store, works: list[Callable[[UnitOfWork], Any]]) -> list[Any]:
    """Run ``works`` queued while the writer is busy with another unit of work, so that they wait
    together; each one's result or error, in order."""
    started, release = threading.Event(), threading.Event()

    def hold(uow: UnitOfWork) -> None:
        started.set()
        release.wait(10)

    holder = asyncio.create_task(store.run(hold))
    await asyncio.to_thread(started.wait, 10)
    waiting: list[Awaitable[Any]] = [asyncio.create_task(store.run(work)) for work in works]
    await asyncio.sleep(0.05)  # every one of them handed to the writer's queue
    release.set()
    await holder
    return list(await asyncio.gather(*waiting, return_exceptions=True))


def commits_of(store: Store) -> list[int]:
    """Counts the COMMITs the store's connections make (SQLAlchemy's commit event)."""
    counted: list[int] = []
    event.listen(store.engine, "commit", lambda _connection: counted.append(1))
    return counted


def logged(store: Store, *message_ids: str) -> list[str]:
    with store.transaction(read_only=True) as uow:
        return [message_id for message_id in message_ids if uow.log.find(message_id) is not None]


@SQLITE_ONLY
async def test_units_of_work_waiting_together_are_committed_with_one_commit(store: Store) -> None:
    counted = commits_of(store)
    names = [f"m{number}" for number in range(12)]
    results = await queued_behind_a_held_writer(store, [logs(name) for name in names])
    assert results == names
    assert len(counted) == 1  # the twelve together (the holder committed nothing)
    assert logged(store, *names) == names


@SQLITE_ONLY
async def test_a_failing_unit_of_work_undoes_only_its_own_writes(store: Store) -> None:
    results = await queued_behind_a_held_writer(
        store,
        [logs("kept-1"), logs("failed", fail=True), logs("kept-2"), logs("never-committed", commit=False)],
    )
    assert results[0] == "kept-1"
    assert isinstance(results[1], RuntimeError)
    assert results[2:] == ["kept-2", "never-committed"]
    assert logged(store, "kept-1", "failed", "kept-2", "never-committed") == ["kept-1", "kept-2"]


@SQLITE_ONLY
async def test_a_unit_of_work_that_rolls_back_keeps_what_it_committed_before(store: Store) -> None:
    def commits_then_rolls_back(uow: UnitOfWork) -> None:
        logs("first")(uow)
        uow.log.append("second", channel="c", actor="anna", text="wurf", now=NOW)
        uow.rollback()
        logs("third")(uow)

    results = await queued_behind_a_held_writer(store, [logs("before"), commits_then_rolls_back])
    assert results == ["before", None]
    assert logged(store, "before", "first", "second", "third") == ["before", "first", "third"]


@SQLITE_ONLY
async def test_a_message_logged_twice_in_one_group_is_refused_the_second_time(store: Store) -> None:
    """Exactly-once holds inside a group: the second unit sees the first one's entry."""
    results = await queued_behind_a_held_writer(store, [logs("same"), logs("same"), logs("other")])
    assert results[0] == "same"
    assert type(results[1]).__name__ == "DuplicateMessage"
    assert results[2] == "other"


@SQLITE_ONLY
async def test_when_the_group_commit_fails_every_unit_of_work_in_it_hears_so(store: Store) -> None:
    """Nobody is answered before the commit: if it fails, every unit of work of the group gets the
    error and none of their writes is kept."""

    def fail_commit(_connection: Any) -> None:
        raise OSError("disk I/O error")

    event.listen(store.engine, "commit", fail_commit)
    try:
        results = await queued_behind_a_held_writer(store, [logs("a"), logs("b"), logs("c")])
    finally:
        event.remove(store.engine, "commit", fail_commit)
    assert all(isinstance(result, Exception) for result in results), results
    assert logged(store, "a", "b", "c") == []
    assert await store.run(logs("after")) == "after"  # the writer goes on


def settles(scope: str | None) -> Callable[[UnitOfWork], Mark | None]:
    """A writing unit of work in ``scope`` that asks first, writes, commits and leaves a mark."""

    def work(uow: UnitOfWork) -> Mark | None:
        uow.unchanged_since(None, scope)
        uow.settings.set("g", scope or "", language="en")
        uow.commit()
        return uow.mark()

    return work


def still(mark: Mark | None, scope: str | None) -> Callable[[UnitOfWork], bool]:
    return lambda uow: uow.unchanged_since(mark, scope)


@SQLITE_ONLY
async def test_a_channels_mark_survives_other_channels_commits_alone_and_in_groups(store: Store) -> None:
    """The warm-channel shortcut across interleaved channels: a channel's mark holds while only other
    channels commit, one by one or in a group, and misses once its own channel or an unscoped unit
    of work (a moderator's action, a tool) commits."""
    mark = await store.run(settles("a"))
    assert mark is not None
    await store.run(settles("b"))
    assert await store.run(still(mark, "a"))
    results = await queued_behind_a_held_writer(store, [settles("c"), settles("d"), still(mark, "a")])
    assert results[2] is True
    assert not await store.run(still(mark, "b"))  # a mark holds for its own channel only
    mark_b = await store.run(settles("b"))
    await store.run(settles(None))
    assert not await store.run(still(mark, "a"))
    assert not await store.run(still(mark_b, "b"))


@SQLITE_ONLY
async def test_a_lost_group_commit_ends_every_mark(store: Store) -> None:
    mark = await store.run(settles("a"))

    def fail_commit(_connection: Any) -> None:
        raise OSError("disk I/O error")

    event.listen(store.engine, "commit", fail_commit)
    try:
        await queued_behind_a_held_writer(store, [settles("b"), settles("c")])
    finally:
        event.remove(store.engine, "commit", fail_commit)
    assert not await store.run(still(mark, "a"))
