"""Per-channel locks (bot/service/keyed_locks.py): one channel at a time, others free, nothing kept."""

from __future__ import annotations

import asyncio

import pytest

from bot.service.keyed_locks import KeyedLocks


async def test_one_channel_is_served_one_at_a_time_in_order() -> None:
    locks: KeyedLocks[str] = KeyedLocks()
    order: list[str] = []

    async def command(name: str) -> None:
        async with locks.hold("chan"):
            order.append(f"{name} in")
            await asyncio.sleep(0.01)
            order.append(f"{name} out")

    await asyncio.gather(*(command(name) for name in ("a", "b", "c")))
    assert order == ["a in", "a out", "b in", "b out", "c in", "c out"]


async def test_other_channels_are_not_held_up() -> None:
    locks: KeyedLocks[str] = KeyedLocks()
    async with locks.hold("busy"), asyncio.timeout(1), locks.hold("quiet"):
        assert len(locks) == 2


async def test_a_lock_is_forgotten_when_the_last_one_leaves() -> None:
    """Thousands of channels seen once must not stay in memory for the life of the process."""
    locks: KeyedLocks[int] = KeyedLocks()
    for channel in range(1000):
        async with locks.hold(channel):
            pass
    assert len(locks) == 0

    entered = asyncio.Event()
    release = asyncio.Event()

    async def holder() -> None:
        async with locks.hold(7):
            entered.set()
            await release.wait()

    async def waiter() -> None:
        async with locks.hold(7):
            pass

    first = asyncio.create_task(holder())
    await entered.wait()
    second = asyncio.create_task(waiter())
    await asyncio.sleep(0)
    assert len(locks) == 1  # held and waited for: one lock, kept
    release.set()
    await asyncio.gather(first, second)
    assert len(locks) == 0


async def test_an_error_or_cancellation_inside_still_frees_the_lock() -> None:
    locks: KeyedLocks[str] = KeyedLocks()
    with pytest.raises(ValueError, match="bad move"):
        async with locks.hold("chan"):
            raise ValueError("bad move")
    blocked = asyncio.Event()

    async def stuck() -> None:
        async with locks.hold("chan"):
            blocked.set()
            await asyncio.sleep(60)

    task = asyncio.create_task(stuck())
    await blocked.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert len(locks) == 0
    async with asyncio.timeout(1), locks.hold("chan"):
        pass


async def test_a_wait_cancelled_before_its_turn_is_no_longer_counted() -> None:
    locks: KeyedLocks[str] = KeyedLocks()
    entered = asyncio.Event()

    async def waiter() -> None:
        entered.set()
        async with locks.hold("chan"):
            raise AssertionError("never its turn")

    async with locks.hold("chan"):
        task = asyncio.create_task(waiter())
        await entered.wait()
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert len(locks) == 1  # only the holder is left
    assert len(locks) == 0
