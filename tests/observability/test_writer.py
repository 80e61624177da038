"""The ``writer`` condition: a unit of work that runs 30 s or longer makes the process not ready (every
other write waits behind it); once it ends the writer is idle again. The clock the condition reads is
moved on instead of waiting half a minute; the unit of work really holds its store thread."""

from __future__ import annotations

import asyncio
import threading
import time

from bot.observability.health import WRITER_STUCK_S, StoreHealth
from bot.store import Store


async def test_a_unit_of_work_running_too_long_is_a_stuck_writer(store: Store) -> None:
    later = [0.0]
    health = StoreHealth(store, clock=lambda: time.monotonic() + later[0])
    assert health.writer().ok
    assert health.writer().detail == "idle"

    started, gate = threading.Event(), threading.Event()

    def hold(_uow: object) -> None:
        started.set()
        gate.wait(60)

    holding = asyncio.create_task(store.run(hold))
    try:
        assert await asyncio.to_thread(started.wait, 10)
        assert store.workers.writer.busy_since() is not None
        assert health.writer().ok  # working, for now
        later[0] = WRITER_STUCK_S + 1
        stuck = health.writer()
        assert not stuck.ok
        assert stuck.detail == "a unit of work has been running for 31 s (bound 30 s)"
        assert (await health.conditions())[1] == stuck
    finally:
        gate.set()
        await holding
    assert health.writer().detail == "idle"
