"""Admission to the store (bot/store/uow.py): units of work run on worker threads, first come, first
served — SQLite's writers one at a time on one thread, readers beside them — and waiting ends: by
cancellation, by a clear "unavailable" error, or with the unit of work run.

Under load a unit of work that just finished used to take the connection a long-waiting one had been
woken for, so some channels waited seconds while others never waited; a queue in arrival order keeps
every channel's turn fair.
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from collections.abc import Callable
from contextlib import suppress

import pytest

from bot.store import Store, StoreUnavailable
from bot.store.uow import UnitOfWork

SQLITE_ONLY = pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True)
POSTGRES_ONLY = pytest.mark.parametrize(
    "db_backend", [pytest.param("postgresql", marks=pytest.mark.postgres)], indirect=True
)


def holding(gate: threading.Event, started: threading.Event) -> Callable[[UnitOfWork], str]:
    """A unit of work that keeps its thread until ``gate`` opens."""

    def work(uow: UnitOfWork) -> str:
        started.set()
        assert gate.wait(timeout=10), "the test never let the holder go"
        return "holder"

    return work


async def hold_writer(store: Store) -> tuple[threading.Event, asyncio.Task[str]]:
    gate, started = threading.Event(), threading.Event()
    task = asyncio.create_task(store.run(holding(gate, started)))
    assert await asyncio.to_thread(started.wait, 5)
    return gate, task


@SQLITE_ONLY
async def test_writers_run_in_the_order_they_asked(store: Store) -> None:
    gate, holder = await hold_writer(store)
    order: list[str] = []

    def note(name: str) -> Callable[[UnitOfWork], None]:
        return lambda uow: order.append(name)

    waiting = [asyncio.create_task(store.run(note(f"channel-{i}"))) for i in range(5)]
    await asyncio.sleep(0.05)
    assert order == []  # all five are queued behind the holder
    gate.set()
    await holder
    # The holder asks again at once: it must queue behind the five, not barge in front of them.
    await asyncio.gather(*waiting, store.run(note("holder-again")))
    assert order == [*(f"channel-{i}" for i in range(5)), "holder-again"]


@POSTGRES_ONLY
async def test_postgresql_units_of_work_run_in_the_order_they_asked_when_every_worker_is_held(
    store: Store,
) -> None:
    """The pool's threads taken by holders, waiters queue in arrival order; a freed thread takes the
    longest waiting, and a holder that asks again queues behind all of them."""
    held = [await hold_writer(store) for _ in range(store.workers.connections)]
    order: list[str] = []

    def note(name: str) -> Callable[[UnitOfWork], None]:
        def work(uow: UnitOfWork) -> None:
            uow.channels.state("g", name)  # a real statement on the worker's connection
            order.append(name)

        return work

    waiting = []
    for i in range(8):
        waiting.append(asyncio.create_task(store.run(note(f"channel-{i}"))))
        await asyncio.sleep(0.005)  # each asks after the one before
    await asyncio.sleep(0.05)
    assert order == []  # every worker is held: all eight wait
    first_gate, first_holder = held[0]
    first_gate.set()
    await first_holder
    again = asyncio.create_task(store.run(note("holder-again")))
    await asyncio.wait_for(asyncio.gather(*waiting), 10)  # one free thread works through the queue
    assert order[:8] == [f"channel-{i}" for i in range(8)]
    for gate, task in held[1:]:
        gate.set()
        await task
    await asyncio.wait_for(again, 5)
    assert order == [*(f"channel-{i}" for i in range(8)), "holder-again"]


@SQLITE_ONLY
async def test_sqlite_readers_go_on_while_a_writer_holds_the_writer_thread(store: Store) -> None:
    gate, holder = await hold_writer(store)
    second_writer = asyncio.create_task(store.run(lambda uow: "second"))
    state = await asyncio.wait_for(store.run(lambda uow: uow.channels.state("g", "c"), read_only=True), 5)
    assert state.game is None
    await asyncio.sleep(0.05)
    assert not second_writer.done()
    gate.set()
    assert await holder == "holder"
    assert await asyncio.wait_for(second_writer, 5) == "second"


async def test_waiting_too_long_is_a_clear_unavailable_error_and_the_work_never_runs(store: Store) -> None:
    store.admission_timeout = 0.05
    writers = 1 if store.dialect == "sqlite" else store.workers.connections
    held = [await hold_writer(store) for _ in range(writers)]
    ran: list[str] = []
    with pytest.raises(StoreUnavailable) as raised:
        await store.run(lambda uow: ran.append("late"))
    assert "no connection came free within 0.05 s" in str(raised.value)
    assert str(raised.value).startswith(f"cannot use the database {store.url}")  # the masked URL
    for gate, task in held:
        gate.set()
        await task
    await asyncio.sleep(0.05)
    assert ran == []  # withdrawn, not run later behind everyone's back
    store.admission_timeout = 5
    assert await store.run(lambda uow: "again") == "again"


@SQLITE_ONLY
async def test_every_unit_of_work_waiting_too_long_is_withdrawn_and_a_shorter_wait_is_kept_too(
    store: Store,
) -> None:
    """One watch over the waiting, not a timer each: it goes off for the earliest admission time,
    even one that came after a later one, and withdraws every unit of work past its time."""
    gate, holder = await hold_writer(store)
    ran: list[str] = []
    patient = asyncio.create_task(store.run(lambda uow: ran.append("patient")))
    await asyncio.sleep(0.01)
    store.admission_timeout = 0.05
    hasty = [asyncio.create_task(store.run(lambda uow: ran.append("hasty"))) for _ in range(3)]
    done = await asyncio.wait_for(asyncio.gather(*hasty, return_exceptions=True), 5)
    assert all(isinstance(error, StoreUnavailable) for error in done)
    assert not patient.done()  # its own 30 s are not up
    store.admission_timeout = 5
    gate.set()
    await holder
    await asyncio.wait_for(patient, 5)
    assert ran == ["patient"]


def _eventfds() -> int:
    count = 0
    for fd in os.listdir("/proc/self/fd"):
        with suppress(OSError):  # the listing's own descriptor, gone by now
            count += os.readlink(f"/proc/self/fd/{fd}") == "anon_inode:[eventfd]"
    return count


@pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="answers come back through an eventfd on Linux"
)
def test_a_closed_store_leaves_no_file_descriptor_behind(db_url: str) -> None:
    """Each event loop a store served had a descriptor its answers came back through: closing the
    store closes them, whether the loop still runs or is long closed."""
    before = _eventfds()
    store = Store.open_now(db_url)
    asyncio.run(store.run(lambda uow: None))  # a loop that is closed by the time the store closes

    async def served_and_closed() -> None:
        await store.run(lambda uow: None)
        await store.run(lambda uow: None, read_only=True)
        assert _eventfds() > before
        await store.close()

    asyncio.run(served_and_closed())
    assert _eventfds() == before


@SQLITE_ONLY
async def test_a_cancelled_wait_gives_its_place_back(store: Store) -> None:
    gate, holder = await hold_writer(store)
    ran: list[str] = []
    cancelled = asyncio.create_task(store.run(lambda uow: ran.append("cancelled")))
    await asyncio.sleep(0.01)
    cancelled.cancel()
    with pytest.raises(asyncio.CancelledError):
        await cancelled
    gate.set()
    await holder
    assert await asyncio.wait_for(store.run(lambda uow: "next"), 5) == "next"
    assert ran == []


@SQLITE_ONLY
def test_a_store_works_under_one_event_loop_after_another(db_url: str) -> None:
    """The store keeps no asyncio primitive: a store kept across ``asyncio.run`` calls (the CLI, the
    tests) works in each."""
    store = Store.open_now(db_url)
    try:
        for _ in range(2):
            assert asyncio.run(store.run(lambda uow: uow.channels.state("g", "c").game)) is None
    finally:
        store.close_now()


async def test_a_failed_unit_of_work_leaves_its_place(store: Store) -> None:
    def boom(uow: UnitOfWork) -> None:
        raise RuntimeError("boom")

    for _ in range(store.workers.connections + 2):
        with pytest.raises(RuntimeError, match="boom"):
            await store.run(boom)
    state = await asyncio.wait_for(store.run(lambda uow: uow.channels.state("g", "c")), 5)
    assert state.game is None


@SQLITE_ONLY
async def test_closing_the_store_lets_the_running_unit_of_work_end_and_withdraws_the_waiting(
    db_url: str,
) -> None:
    store = await Store.open(db_url)
    gate, holder = await hold_writer(store)
    ran: list[str] = []
    waiting = asyncio.create_task(store.run(lambda uow: ran.append("waiting")))
    await asyncio.sleep(0.01)
    closing = asyncio.create_task(store.close())
    await asyncio.sleep(0.05)
    assert not holder.done()  # the running one is not cut off …
    gate.set()
    assert await holder == "holder"  # … it ends and answers
    await closing
    with pytest.raises(asyncio.CancelledError):
        await waiting  # the waiting one was withdrawn, never run
    assert ran == []
    with pytest.raises(RuntimeError, match="closed"):
        await store.run(lambda uow: "too late")
