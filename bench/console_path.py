"""The console path, black box, against the bare DB-API commit — the real limit of the store.

A ``croupier console --json`` process is fed a realistic Durchgang mix one line at a time (each line
answered before the next is sent, as players type); the baseline is a bare durable transaction through
the plain DB-API driver with the store's own settings (``sqlite3`` with WAL and ``synchronous=FULL``;
``psycopg`` on PostgreSQL): BEGIN, INSERT, UPDATE, COMMIT. Rounds alternate a batch of commits and a
batch of console lines, so both see the same load; the figure is the median of the rounds' ratios,
reported with the bare commit's p50 beside it (the ratio rises when fsync is slow).

It also counts the hand-offs a line costs in this process's own console (same code, same lines): the
event-loop iterations and the hand-offs from worker threads back to the loop
(``call_soon_threadsafe``), which is where an async store spends its time.

``python -m bench.console_path [--rounds 6] [--lines 500]``
``python -m bench.console_path --against REV``   this checkout's console against commit REV's, in turns
``python -m bench.console_path --write-lines FILE``   only the mix, one line per row (to feed a profiler)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench.support import (
    MODERATOR,
    Move,
    Percentiles,
    Players,
    backends,
    emit,
    postgres_problem,
    scratch_database,
    utc_now,
)
from bot.console.terminal import Console
from bot.service.croupier import Croupier, seed_from_text
from bot.store import Store
from engine.game import Close, Join

ROOT = Path(__file__).resolve().parents[1]
SEED_TEXT = "bench-console"
BAR = 0.2  # lines at least this share of the bare commit's rate (median of rounds); 0.5 the aim
CONSOLE_MODERATOR = "mod"


# --- the lines --------------------------------------------------------------------------------------


def console_line(move: Move) -> str:
    """A simulated player's move as the console's ``NAME: TEXT`` line."""
    name = CONSOLE_MODERATOR if move.author == MODERATOR else move.author
    if move.opens:
        return f"{name}: /open verflixte6"
    if isinstance(move.command, Join):
        return f"{name}: /join"
    if isinstance(move.command, Close):
        return f"{name}: /close"
    assert move.command is None, move
    return f"{name}: {move.text}"


async def mix_lines(count: int) -> list[str]:
    """``count`` console lines of Durchgänge played by simulated players, as they would play them in
    the console channel with the console's dice (the same seed text): replayed into a new database,
    every line gets the answer it got here."""
    async with scratch_database("sqlite", "lines") as url:
        store = await Store.open(url)
        try:
            croupier = Croupier(store=store, seed_source=seed_from_text(SEED_TEXT))
            players = Players(croupier, "console", seed=7)
            players.sender = "gen"
            lines = []
            original = players.send

            async def send(move: Move) -> Any:
                lines.append(console_line(move))
                return await original(move)

            players.send = send  # type: ignore[method-assign]
            while len(lines) < count:
                await players.step()
            return lines[:count]
        finally:
            await store.close()


# --- the console process ----------------------------------------------------------------------------


class ConsoleProcess:
    """``croupier console --json`` on the database, fed one line at a time; ``tree``: the source tree
    whose code runs (this checkout, or another revision's files for ``--against``).

    The pipes are plain blocking ones: each line is written, flushed and its answer read with no
    event loop of the bench's own around it, so the feeder adds as little as it can to what it
    measures (through asyncio's subprocess streams the feeder used 0.17–0.21 ms of CPU per line,
    blocking 0.05–0.08, on the same two cores as the console)."""

    def __init__(self, url: str, tree: Path = ROOT) -> None:
        self.url = url
        self.tree = tree
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bot.cli",
                "console",
                "--json",
                "--db",
                self.url,
                "--moderator",
                CONSOLE_MODERATOR,
                "--admin",
                CONSOLE_MODERATOR,
                "--dice-seed",
                SEED_TEXT,
            ],
            cwd=self.tree,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env={**os.environ, "LOG_LEVEL": "WARNING", "PYTHONPATH": str(self.tree)},
            stderr=subprocess.PIPE if os.environ.get("BENCH_DEBUG") else None,
        )

    def ask(self, line: str) -> dict[str, Any]:
        assert self.proc is not None
        assert self.proc.stdin is not None
        assert self.proc.stdout is not None
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()
        answer: dict[str, Any] = json.loads(self.proc.stdout.readline())
        return answer

    def stop(self) -> None:
        assert self.proc is not None
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


# --- the bare commit ---------------------------------------------------------------------------------

_TABLE = "CREATE TABLE IF NOT EXISTS bench_bare (id {key}, note TEXT NOT NULL, touched INTEGER NOT NULL)"


class BareCommits:
    """BEGIN + INSERT + UPDATE + COMMIT through the plain driver, with the store's durability settings."""

    def __init__(self, backend: str, url: str) -> None:
        self.backend = backend
        if backend == "sqlite":
            path = url.split("///", 1)[1]
            self.connection: Any = sqlite3.connect(path, isolation_level=None)
            for pragma in ("busy_timeout=10000", "journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON"):
                self.connection.execute(f"PRAGMA {pragma}")
            self.connection.execute(_TABLE.format(key="INTEGER PRIMARY KEY"))
        else:
            import psycopg

            plain = url.replace("+asyncpg", "").replace("+psycopg", "")
            self.connection = psycopg.connect(plain, autocommit=True)
            self.connection.execute(_TABLE.format(key="BIGSERIAL PRIMARY KEY"))

    def run(self, count: int, latencies: Percentiles) -> float:
        """``count`` transactions; the seconds they took."""
        insert = "INSERT INTO bench_bare (note, touched) VALUES ({p}, 0)"
        update = "UPDATE bench_bare SET touched = touched + 1 WHERE id = (SELECT MAX(id) FROM bench_bare)"
        marker = "?" if self.backend == "sqlite" else "%s"
        statement = insert.format(p=marker)
        start = time.perf_counter()
        for _ in range(count):
            began = time.perf_counter()
            if self.backend == "sqlite":
                self.connection.execute("BEGIN IMMEDIATE")
                self.connection.execute(statement, ("one row, durably",))
                self.connection.execute(update)
                self.connection.execute("COMMIT")
            else:
                with self.connection.transaction():
                    self.connection.execute(statement, ("one row, durably",))
                    self.connection.execute(update)
            latencies.add(time.perf_counter() - began)
        return time.perf_counter() - start

    def close(self) -> None:
        self.connection.close()


# --- hand-offs ---------------------------------------------------------------------------------------


@contextmanager
def handoffs(loop: asyncio.AbstractEventLoop, counts: dict[str, int]) -> Iterator[None]:
    """Count the loop's iterations and the wake-ups from other threads while the block runs."""
    run_once = loop._run_once  # type: ignore[attr-defined]
    threadsafe = loop.call_soon_threadsafe

    def counted_run_once() -> None:
        counts["loop_iterations"] += 1
        run_once()

    def counted_threadsafe(*args: Any, **kwargs: Any) -> Any:
        counts["thread_handoffs"] += 1
        return threadsafe(*args, **kwargs)

    loop._run_once = counted_run_once  # type: ignore[attr-defined]
    loop.call_soon_threadsafe = counted_threadsafe  # type: ignore[method-assign]
    try:
        yield
    finally:
        loop._run_once = run_once  # type: ignore[attr-defined]
        loop.call_soon_threadsafe = threadsafe  # type: ignore[method-assign]


async def hops_per_line(backend: str, lines: list[str]) -> dict[str, float]:
    """The same lines through the console in this process, counting hand-offs per line."""
    async with scratch_database(backend, "hops") as url:
        store = await Store.open(url)
        try:
            # As ``croupier console`` makes it: a croupier that draws no boards.
            croupier = Croupier(store=store, seed_source=seed_from_text(SEED_TEXT), boards=False)
            console = Console(
                croupier, moderators=frozenset({CONSOLE_MODERATOR}), admins=frozenset({CONSOLE_MODERATOR})
            )
            counts = {"loop_iterations": 0, "thread_handoffs": 0}
            with handoffs(asyncio.get_running_loop(), counts):
                for line in lines:
                    await console.handle(line)
            return {key: round(value / len(lines), 1) for key, value in counts.items()}
        finally:
            await store.close()


# --- the measurement ---------------------------------------------------------------------------------


async def measure(backend: str, rounds: int, per_round: int, lines: list[str]) -> None:
    started = utc_now()
    async with scratch_database(backend, "console") as url:
        console = ConsoleProcess(url)
        console.start()
        console.ask("mod: /help")  # the process is up and has migrated a new file
        bare = BareCommits(backend, url)
        try:
            bare.run(50, Percentiles())  # warm both
            line_latency, commit_latency = Percentiles(), Percentiles()
            ratios, line_rates, commit_rates = [], [], []
            refused = 0
            for number in range(rounds):
                commit_s = bare.run(per_round * 2, commit_latency)
                batch = lines[number * per_round : (number + 1) * per_round]
                start = time.perf_counter()
                for line in batch:
                    began = time.perf_counter()
                    answer = console.ask(line)
                    line_latency.add(time.perf_counter() - began)
                    refused += not answer["ok"]
                line_s = time.perf_counter() - start
                line_rates.append(len(batch) / line_s)
                commit_rates.append(per_round * 2 / commit_s)
                ratios.append(line_rates[-1] / commit_rates[-1])
        finally:
            bare.close()
            console.stop()
    hops = await hops_per_line(backend, lines[: min(len(lines), 600)])
    emit(
        "console_path",
        store=backend,
        lines_per_s_median=round(statistics.median(line_rates), 1),
        lines_per_s_rounds=[round(rate, 1) for rate in line_rates],
        line_p50_ms=line_latency.ms(0.5),
        line_p99_ms=line_latency.ms(0.99),
        lines=len(line_latency),
        refused_lines=refused,
        **{f"{key}_per_line": value for key, value in hops.items()},
    )
    emit(
        "bare_commit",
        store=backend,
        driver="sqlite3" if backend == "sqlite" else "psycopg",
        commits_per_s_median=round(statistics.median(commit_rates), 1),
        commit_p50_ms=commit_latency.ms(0.5),
        commit_p99_ms=commit_latency.ms(0.99),
    )
    emit(
        "console_path_ratio",
        store=backend,
        ratio_median=round(statistics.median(ratios), 3),
        ratio_rounds=[round(ratio, 3) for ratio in ratios],
        bare_commit_p50_ms=commit_latency.ms(0.5),
        bar=BAR,
        meets_bar=statistics.median(ratios) >= BAR,
        **{f"{key}_per_line": value for key, value in hops.items()},
        loadavg_1m=round(os.getloadavg()[0], 2),
        utc=f"{started}–{utc_now()}",
    )


async def against(backend: str, rounds: int, per_round: int, lines: list[str], other: Path, rev: str) -> None:
    """This checkout's console and another revision's, each batch against the bare commits just before
    it, the two in alternating order: the only fair comparison of two versions on a noisy machine."""
    started = utc_now()
    async with scratch_database(backend, "now") as url, scratch_database(backend, "then") as then_url:
        consoles = {"after": ConsoleProcess(url), "before": ConsoleProcess(then_url, other)}
        for console in consoles.values():
            console.start()
            console.ask("mod: /help")
        bare = BareCommits(backend, url)
        ratios: dict[str, list[float]] = {"after": [], "before": []}
        latency = {"after": Percentiles(), "before": Percentiles()}
        commit_latency = Percentiles()
        try:
            bare.run(50, Percentiles())
            for number in range(rounds):
                batch = lines[number * per_round : (number + 1) * per_round]
                for side in ("after", "before") if number % 2 == 0 else ("before", "after"):
                    commit_rate = per_round * 2 / bare.run(per_round * 2, commit_latency)
                    start = time.perf_counter()
                    for line in batch:
                        began = time.perf_counter()
                        consoles[side].ask(line)
                        latency[side].add(time.perf_counter() - began)
                    ratios[side].append(len(batch) / (time.perf_counter() - start) / commit_rate)
        finally:
            bare.close()
            for console in consoles.values():
                console.stop()
    per_round_gain = [a / b for a, b in zip(ratios["after"], ratios["before"], strict=True)]
    emit(
        "console_path_against",
        store=backend,
        before=rev,
        ratio_median={side: round(statistics.median(values), 3) for side, values in ratios.items()},
        ratio_rounds={side: [round(value, 3) for value in values] for side, values in ratios.items()},
        after_over_before_median=round(statistics.median(per_round_gain), 2),
        line_p50_ms={side: figures.ms(0.5) for side, figures in latency.items()},
        bare_commit_p50_ms=commit_latency.ms(0.5),
        loadavg_1m=round(os.getloadavg()[0], 2),
        utc=f"{started}–{utc_now()}",
    )


def checkout(rev: str, folder: Path) -> Path:
    """The files of ``rev`` (a commit of this repository) in ``folder``, to run its console from."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder


async def run(rounds: int, per_round: int, rev: str | None = None) -> None:
    lines = await mix_lines(rounds * per_round)
    for backend in backends():
        if backend == "postgresql":
            problem = await postgres_problem()
            if problem is not None:
                emit("console_path", store=backend, skipped=f"PostgreSQL unreachable: {problem}")
                continue
        if rev is None:
            await measure(backend, rounds, per_round, lines)
            continue
        with tempfile.TemporaryDirectory(prefix="croupier-then-") as folder:
            await against(backend, rounds, per_round, lines, checkout(rev, Path(folder)), rev)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.console_path", description=__doc__)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--lines", type=int, default=500, help="console lines per round")
    parser.add_argument(
        "--against",
        metavar="REV",
        help="also run the console of commit REV (same schema) in alternating rounds: before vs after",
    )
    parser.add_argument(
        "--write-lines",
        metavar="FILE",
        help="only write the mix (rounds × lines), one console line per row, e.g. to feed a profiler",
    )
    args = parser.parse_args(argv if argv is not None else [])
    if args.write_lines:
        lines = asyncio.run(mix_lines(args.rounds * args.lines))
        Path(args.write_lines).write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
        return
    asyncio.run(run(args.rounds, args.lines, args.against))


if __name__ == "__main__":
    main(sys.argv[1:])
