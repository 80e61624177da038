"""Admission to the store (bot/store/uow.py): first come, first served, whatever the pool does.

Under load a unit of work that just finished used to take the connection a long-waiting one had been
woken for, so some channels waited seconds while others never waited (bench/concurrency.py measured
a 4.5 s p99 at 128 channels with a 72 ms median). These tests pin the order, the SQLite writer queue,
and that waiting ends: by cancellation, by a clear "unavailable" error, or in a new event loop.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.store import Store, StoreUnavailable
from bot.store.uow import Admission


def admission(connections: int = 1, *, one_writer: bool = False, timeout: float = 30.0) -> Admission:
    return Admission("postgresql://u:secret@db/croupier", connections, one_writer, timeout)


async def test_units_of_work_are_admitted_in_the_order_they_asked() -> None:
    gate = admission(connections=1)
    order: list[str] = []
    held = await gate.enter(writing=True)

    async def unit(name: str) -> None:
        taken = await gate.enter(writing=True)
        order.append(name)
        await asyncio.sleep(0)
        gate.leave(taken)

    waiting = [asyncio.create_task(unit(f"channel-{i}")) for i in range(5)]
    await asyncio.sleep(0.01)
    assert order == []  # all five are queued behind the holder
    gate.leave(held)
    # The holder asks again at once: it must queue behind the five, not barge in front of them.
    again = asyncio.create_task(unit("holder-again"))
    await asyncio.gather(*waiting, again)
    assert order == [*(f"channel-{i}" for i in range(5)), "holder-again"]


async def test_sqlite_writers_queue_one_at_a_time_while_readers_go_on() -> None:
    gate = admission(connections=5, one_writer=True)
    writer = await gate.enter(writing=True)
    second_writer = asyncio.create_task(gate.enter(writing=True))
    reader = await asyncio.wait_for(gate.enter(writing=False), timeout=5)  # not held up by the writer
    await asyncio.sleep(0.01)
    assert not second_writer.done()
    gate.leave(writer)
    taken = await asyncio.wait_for(second_writer, timeout=5)
    gate.leave(taken)
    gate.leave(reader)


async def test_waiting_too_long_is_a_clear_unavailable_error_naming_no_password() -> None:
    gate = admission(connections=1, timeout=0.05)
    held = await gate.enter(writing=True)
    with pytest.raises(StoreUnavailable) as raised:
        await gate.enter(writing=True)
    assert "no connection came free within 0.05 s" in str(raised.value)
    assert "secret" not in str(raised.value)
    gate.leave(held)
    gate.leave(await asyncio.wait_for(gate.enter(writing=True), timeout=5))  # nothing was left taken


async def test_a_cancelled_wait_gives_its_place_back() -> None:
    gate = admission(connections=1, one_writer=True)
    held = await gate.enter(writing=True)
    cancelled = asyncio.create_task(gate.enter(writing=True))
    await asyncio.sleep(0)
    cancelled.cancel()
    with pytest.raises(asyncio.CancelledError):
        await cancelled
    gate.leave(held)
    gate.leave(await asyncio.wait_for(gate.enter(writing=True), timeout=5))


def test_the_admission_works_again_under_a_new_event_loop() -> None:
    """asyncio primitives belong to one loop; a store kept across ``asyncio.run`` calls (the CLI, the
    tests) gets new ones for the next loop instead of failing."""
    gate = admission(connections=1, one_writer=True)

    async def enter_and_leave() -> None:
        taken = await asyncio.wait_for(gate.enter(writing=True), timeout=5)
        gate.leave(taken)

    asyncio.run(enter_and_leave())
    asyncio.run(enter_and_leave())


async def test_a_failed_unit_of_work_leaves_its_place(store: Store) -> None:
    for _ in range(store.admission.capacity + 2):
        with pytest.raises(RuntimeError, match="boom"):
            async with store.unit_of_work():
                raise RuntimeError("boom")
    async with asyncio.timeout(5), store.unit_of_work() as uow:
        assert (await uow.channels.state("g", "c")).game is None
