"""Many channels playing at once on PostgreSQL: throughput and tail latency per level.

Levels of 1, 16 and 128 channels, each sending its next message as soon as it has its answer, run
through ONE Croupier on ONE Store, so they share its worker threads and their connections (reported
with each figure, with the connections opened during the window). Then 16 and 128 channels split
over two processes, each with its own Store, on the same database: what a second bot process adds on
two cores. Latencies count every message sent inside the window, also those answered after it ended
(else the slowest would be left out).

On SQLite the writer commits the units of work waiting together (group commit,
``bot/store/group.py``): ``commands_per_commit`` says how many shared one COMMIT, and so one fsync,
in the window (1.0 on PostgreSQL, whose server groups its WAL flushes itself).

``python -m bench.concurrency``                  PostgreSQL, one and two processes
``python -m bench.concurrency --store sqlite``   the one-process levels on a SQLite file
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from sqlalchemy import event

from bench.support import Percentiles, Players, emit, postgres_problem, scratch_database, seconds
from bot.service.croupier import Croupier, seed_from_text
from bot.store import Store

LEVELS = (1, 16, 128)
PROCESS_LEVELS = (16, 128)
WARMUP_S = 1.5


def warmup(channels: int) -> float:
    """Every channel must open its Durchgang and sign people up before the window starts."""
    return seconds(max(WARMUP_S, channels / 40))


WINDOW_S = 4.0
ROOT = Path(__file__).resolve().parents[1]


class Level:
    """``channels`` tables on one croupier, each its own asyncio task sending one message at a time."""

    def __init__(self, store: Store, channels: int, prefix: str) -> None:
        self.store = store
        croupier = Croupier(store=store, seed_source=seed_from_text("bench"))
        self.tables = [Players(croupier, f"{prefix}-{i}", seed=i, sender=prefix) for i in range(channels)]
        self.opened = 0
        self.commits = 0
        event.listen(store.engine, "connect", self._connected)
        event.listen(store.engine, "commit", self._committed)

    def _connected(self, *_: Any) -> None:
        self.opened += 1

    def _committed(self, *_: Any) -> None:
        self.commits += 1

    async def run(self, duration: float, latencies: Percentiles | None = None) -> tuple[int, float, int]:
        """Play for ``duration``; messages answered inside the window, its length, connections opened."""
        opened_before = self.opened
        start = time.perf_counter()
        end = start + duration
        counts = await asyncio.gather(*(self._play(table, end, latencies) for table in self.tables))
        return sum(counts), end - start, self.opened - opened_before

    @staticmethod
    async def _play(table: Players, end: float, latencies: Percentiles | None) -> int:
        count = 0
        while time.perf_counter() < end:
            step = await table.step()
            if latencies is not None:  # every message sent in the window, however late its answer
                latencies.add(step.elapsed)
            if time.perf_counter() <= end:
                count += 1
        return count

    def unexpected(self) -> int:
        return sum(sum(table.unexpected.values()) for table in self.tables)

    def close(self) -> None:
        event.remove(self.store.engine, "connect", self._connected)
        event.remove(self.store.engine, "commit", self._committed)


def _pool(store: Store) -> dict[str, Any]:
    return {"store_threads": store.workers.connections}


async def one_process(url: str, backend: str = "postgresql") -> dict[int, float]:
    rates: dict[int, float] = {}
    store = await Store.open(url)
    try:
        for channels in LEVELS:
            level = Level(store, channels, f"c{channels}")
            try:
                await level.run(warmup(channels))
                latencies = Percentiles()
                commits_before = level.commits
                count, elapsed, opened = await level.run(seconds(WINDOW_S), latencies)
                commits = level.commits - commits_before
            finally:
                level.close()
            rates[channels] = count / elapsed
            emit(
                "concurrency",
                store=backend,
                processes=1,
                channels=channels,
                commands_per_s=round(rates[channels], 1),
                **latencies.figures(),
                commands=count,
                scaling_vs_1_channel=round(rates[channels] / rates[LEVELS[0]], 2),
                commands_per_commit=round(count / commits, 2) if commits else None,
                connections_opened=opened,
                unexpected_refusals=level.unexpected(),
                **_pool(store),
                loadavg_1m=round(os.getloadavg()[0], 2),
            )
    finally:
        await store.close()
    return rates


async def two_processes(url: str, rates: dict[int, float]) -> None:
    """Each level split over two worker processes started together, each with its own Store."""
    for channels in PROCESS_LEVELS:
        workers = [
            await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bench.concurrency",
                "--worker",
                url,
                "--channels",
                str(channels // 2),
                "--prefix",
                f"p{channels}w{index}",
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                cwd=ROOT,
            )
            for index in range(2)
        ]
        try:
            for process in workers:
                assert process.stdout is not None
                if not await process.stdout.readline():
                    raise RuntimeError("a worker process ended before it was ready")
            for process in workers:  # both start their window together
                assert process.stdin is not None
                process.stdin.write(b"go\n")
            results = []
            for process in workers:
                out, _ = await asyncio.wait_for(process.communicate(), timeout=120)
                results.append(json.loads(out.decode().strip().splitlines()[-1]))
        finally:
            for process in workers:
                if process.returncode is None:
                    process.kill()
                    await process.wait()
        latencies = Percentiles()
        for result in results:
            for ms in result["latencies_ms"]:
                latencies.add(ms / 1000)
        rate = sum(r["commands"] / r["elapsed_s"] for r in results)
        emit(
            "concurrency",
            store="postgresql",
            processes=2,
            channels=channels,
            commands_per_s=round(rate, 1),
            **latencies.figures(),
            commands=sum(r["commands"] for r in results),
            vs_one_process=round(rate / rates[channels], 2) if channels in rates else None,
            connections_opened=sum(r["connections_opened"] for r in results),
            unexpected_refusals=sum(r["unexpected_refusals"] for r in results),
            loadavg_1m=round(os.getloadavg()[0], 2),
        )


async def worker(url: str, channels: int, prefix: str) -> None:
    """One of the two processes: warm up, say ready, wait for "go", play the window, report."""
    store = await Store.open(url)
    level = Level(store, channels, prefix)
    try:
        await level.run(warmup(channels))
        print(json.dumps({"ready": True}), flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        latencies = Percentiles()
        count, elapsed, opened = await level.run(seconds(WINDOW_S), latencies)
        print(
            json.dumps(
                {
                    "commands": count,
                    "elapsed_s": elapsed,
                    "connections_opened": opened,
                    "unexpected_refusals": level.unexpected(),
                    "latencies_ms": [round(s * 1000, 3) for s in latencies.samples],
                }
            ),
            flush=True,
        )
    finally:
        level.close()
        await store.close()


async def run_all(backend: str) -> None:
    if backend == "sqlite":
        async with scratch_database("sqlite", "conc") as url:
            await one_process(url, "sqlite")
        return
    problem = await postgres_problem()
    if problem is not None:
        emit("concurrency", store="postgresql", skipped=f"PostgreSQL unreachable: {problem}")
        return
    async with scratch_database("postgresql", "conc") as url:
        rates = await one_process(url)
        await two_processes(url, rates)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.concurrency", description=__doc__)
    parser.add_argument("--worker", metavar="URL", help=argparse.SUPPRESS)
    parser.add_argument("--channels", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--prefix", default="w", help=argparse.SUPPRESS)
    parser.add_argument(
        "--store",
        choices=["postgresql", "sqlite"],
        default="postgresql",
        help="sqlite: the same one-process levels on a SQLite file (not part of the default run)",
    )
    args = parser.parse_args(argv if argv is not None else [])
    if args.worker:
        asyncio.run(worker(args.worker, args.channels, args.prefix))
    else:
        asyncio.run(run_all(args.store))


if __name__ == "__main__":
    main(sys.argv[1:])
