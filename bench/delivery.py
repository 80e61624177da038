"""What tracking the delivery of answers costs the command path (Discord's front end does it).

A tracked move is logged as ``pending`` in the move's own statement, and the front end acknowledges each
answer it posted: the acknowledgements ride on the next command's transaction (one UPDATE before its
commit). Here the same Durchgang mix runs untracked (as the console does) and tracked — every answer
acknowledged the moment the service returns it, as if each post succeeded at once — in alternating
rounds on one store, so a noisy neighbour hurts both alike. Figures: both rates, their ratio, and how
many acknowledgements were left to a transaction of their own at the end (the rest rode along).

``python -m bench.delivery``   (both stores; PostgreSQL skipped if unreachable)
"""

from __future__ import annotations

import asyncio
import os
import time

from sqlalchemy import func, select

from bench.support import (
    Move,
    Percentiles,
    Players,
    backends,
    emit,
    postgres_problem,
    scratch_database,
    seconds,
)
from bot.replies import Reply
from bot.service.croupier import Croupier, seed_from_text
from bot.store import Store
from bot.store.repositories.tables import log_t

CHANNELS = 8
ROUNDS = 3


class TrackedPlayers(Players):
    """Players on Discord: their messages are tracked, and each answer is acknowledged once "posted"."""

    async def send(self, move: Move) -> Reply:
        reply = await super().send(move)
        if reply.log_id is not None:
            self.croupier.acknowledge(reply.log_id)
        return reply


async def run(tables: list[Players], duration: float, latencies: Percentiles) -> tuple[int, float]:
    count, start = 0, time.perf_counter()
    end = start + duration
    while time.perf_counter() < end:
        step = await tables[count % len(tables)].step()
        latencies.add(step.elapsed)
        count += 1
    return count, time.perf_counter() - start


async def measure(backend: str) -> None:
    async with scratch_database(backend, "delivery") as url:
        store = await Store.open(url)
        try:
            plain = Croupier(store=store, seed_source=seed_from_text("bench"))
            tracked = Croupier(store=store, seed_source=seed_from_text("bench"))
            untracked_tables: list[Players] = [Players(plain, f"plain-{i}", seed=i) for i in range(CHANNELS)]
            tracked_tables: list[Players] = [
                TrackedPlayers(tracked, f"tracked-{i}", seed=i, sender="tracked", tracked=True)
                for i in range(CHANNELS)
            ]
            await run(untracked_tables, seconds(1.0), Percentiles())
            await run(tracked_tables, seconds(1.0), Percentiles())
            totals = {"untracked": [0, 0.0], "tracked": [0, 0.0]}
            latency = {"untracked": Percentiles(), "tracked": Percentiles()}
            for _ in range(ROUNDS):
                for key, tables in (("untracked", untracked_tables), ("tracked", tracked_tables)):
                    count, elapsed = await run(tables, seconds(2.0), latency[key])
                    totals[key][0] += count
                    totals[key][1] += elapsed
            left = tracked.acknowledgements_waiting
            await tracked.flush_acknowledgements()
            with store.engine.connect() as connection:
                pending = connection.execute(
                    select(func.count()).select_from(log_t).where(log_t.c.delivery == "pending")
                ).scalar_one()
            rate = {key: count / elapsed if elapsed else 0.0 for key, (count, elapsed) in totals.items()}
            for key in ("untracked", "tracked"):
                emit(
                    "delivery_tracking",
                    store=backend,
                    answers=key,
                    commands_per_s=round(rate[key], 1),
                    **latency[key].figures(),
                    commands=int(totals[key][0]),
                )
            emit(
                "delivery_tracking_ratio",
                store=backend,
                tracked_over_untracked=round(rate["tracked"] / rate["untracked"], 3)
                if rate["untracked"]
                else None,
                acknowledgements_left_for_a_flush=left,
                pending_after_flush=int(pending),
                loadavg_1m=round(os.getloadavg()[0], 2),
            )
        finally:
            await store.close()


async def _each_backend() -> None:
    for backend in backends():
        if backend == "postgresql":
            problem = await postgres_problem()
            if problem is not None:
                emit("delivery_tracking", store=backend, skipped=f"PostgreSQL unreachable: {problem}")
                continue
        await measure(backend)


def main() -> None:
    asyncio.run(_each_backend())


if __name__ == "__main__":
    main()
