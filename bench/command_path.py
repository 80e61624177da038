"""The service's command path against a bare durable commit on the same store, in the same run.

The bar: parse → engine → one durable transaction → render at ≥ 20 % of the rate of a bare commit
(50 % the long-term aim), as the median of rounds. The baseline goes through the plain DB-API driver
with the store's durability settings (see :class:`bench.console_path.BareCommits`); each round runs a
batch of bare commits, then a window of commands, so a noisy neighbour on the machine hurts both
alike, and each round's ratio is its commands against its own commits. The bare commit's p50 is
reported beside the ratio: the ratio rises when fsync is slow (the commit dominates both) and falls
when it is fast. Hops per command (event-loop iterations, hand-offs from threads) are counted too.
The commands are a realistic Durchgang mix from :class:`bench.support.Players`, one at a time,
round-robin over a few channels, straight into the service (no console around it: see
bench/console_path.py for the black-box figure).

``python -m bench.command_path``            the figures (both stores; PostgreSQL skipped if unreachable)
``python -m bench.command_path --profile``  where the time goes: stages of the path, then pyinstrument
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import functools
import importlib
import os
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from statistics import median
from typing import Any

from sqlalchemy import text

from bench.console_path import BareCommits, handoffs
from bench.support import (
    GUILD,
    Percentiles,
    Players,
    backends,
    emit,
    mix_share,
    postgres_problem,
    scratch_database,
    seconds,
    utc_now,
)
from bot.service.croupier import Croupier, seed_from_text
from bot.store import GameSave, LogEntry, NewLogEntry, Store, UnitOfWork

CHANNELS = 8
ROUNDS = 6
BAR = 0.2  # the command path at least this share of the bare commit's rate (median of rounds)
AIM = 0.5  # the long-term aim (see docs/performance.md for what it would take)
_NEWEST_WEITER = text(
    "SELECT message_id FROM command_log WHERE channel = :channel AND text = 'weiter' ORDER BY id DESC LIMIT 1"
)


class Bench:
    """A store, a croupier on it, players in a few channels, and the baseline's own table."""

    def __init__(self, store: Store, url: str) -> None:
        self.store = store
        self.bare = BareCommits(store.dialect, url)
        self.croupier = Croupier(store=store, seed_source=seed_from_text("bench"))
        self.tables = [Players(self.croupier, f"bench-{i}", seed=i) for i in range(CHANNELS)]
        self._next = 0
        self._floor = 0

    @classmethod
    async def open(cls, url: str) -> Bench:
        return cls(await Store.open(url), url)

    async def commands(self, duration: float, latencies: Percentiles | None = None) -> tuple[int, float]:
        """Send commands for ``duration`` seconds; the count and the time it really took."""
        count = 0
        start = time.perf_counter()
        end = start + duration
        while time.perf_counter() < end:
            table = self.tables[self._next % len(self.tables)]
            self._next += 1
            step = await table.step()
            count += 1
            if latencies is not None:
                latencies.add(step.elapsed)
        return count, time.perf_counter() - start

    async def commits(self, duration: float, latencies: Percentiles | None = None) -> tuple[int, float]:
        """The baseline: bare DB-API transactions, in batches of 50 until ``duration`` is used."""
        count, spent = 0, 0.0
        while spent < duration:
            spent += self.bare.run(50, latencies if latencies is not None else Percentiles())
            count += 50
        return count, spent

    async def store_only(self, duration: float) -> tuple[int, float]:
        """The store's share of a command, with a real command's payload and nothing else.

        Each round does what a ``weiter`` does to the store: the one read (settings and open game),
        the game's update with its snapshot, a participant's row in two rounds of three (as in the
        mix), the log entry with the logged command, events, dice and reply, and the commit. No
        parsing, no engine, no rendering: if this alone is slower than half the bare commit's rate,
        no work on the rest of the path can reach the goal on this machine.
        """
        sample = await self._sample_entry()
        if sample is None:
            return 0, 0.0
        count = 0
        start = time.perf_counter()
        end = start + duration
        while time.perf_counter() < end:
            if not await self.store.run(lambda uow: self._store_round(uow, sample)):
                break  # the sampled channel's game has ended: the window ends with it
            count += 1
        return count, time.perf_counter() - start

    def _store_round(self, uow: UnitOfWork, sample: LogEntry) -> bool:
        """One round of the store's share of a ``weiter`` (see :meth:`store_only`)."""
        game = uow.channels.state(GUILD, sample.channel).game
        if game is None:
            return False
        self._floor += 1
        seats = list(game.participants)
        if self._floor % 3 and seats:
            first = seats[0]
            seats[0] = dataclasses.replace(first, points=first.points + (1 if self._floor % 2 else -1))
        uow.games.save_and_log(
            GameSave(
                game.id,
                expected_version=game.version,
                snapshot=game.snapshot,
                dice_used=game.dice_used,
                to_act=game.to_act,
                turn_deadline=game.turn_deadline,
                participants=seats,
            ),
            NewLogEntry(
                f"floor:{self._floor}",
                game_id=game.id,
                channel=sample.channel,
                actor=sample.actor,
                text=sample.text,
                command=sample.command,
                events=sample.events,
                dice=sample.dice,
                dice_from=game.dice_used,
                reply=sample.reply,
                now=datetime.now(UTC),
            ),
        )
        uow.commit()
        return True

    async def _sample_entry(self) -> LogEntry | None:
        """The newest logged ``weiter`` in a channel whose game is still open."""

        def find(uow: UnitOfWork, channel: str) -> LogEntry | None:
            message_id = uow.games._tx.execute(_NEWEST_WEITER, {"channel": channel}).scalar()
            game = uow.channels.state(GUILD, channel).game
            if message_id is None or game is None or not game.participants:
                return None
            return uow.log.find(message_id)

        for table in self.tables:
            entry = await self.store.run(lambda uow, c=table.channel: find(uow, c), read_only=True)
            if entry is not None:
                return entry
        return None

    def mix(self) -> Counter[str]:
        return sum((table.mix for table in self.tables), Counter())

    def unexpected(self) -> Counter[str]:
        return sum((table.unexpected for table in self.tables), Counter())

    async def close(self) -> None:
        self.bare.close()
        await self.store.close()


async def measure(backend: str) -> None:
    """Rounds of a batch of bare commits, a window of commands and a window of the store's share, each
    round's ratios against the commits of the same round; the figures are the medians of the rounds."""
    async with scratch_database(backend, "path") as url:
        bench = await Bench.open(url)
        try:
            began = utc_now()
            await bench.commands(seconds(2.0))
            await bench.commits(seconds(0.5))
            warm = sum(bench.mix().values())
            path, base = Percentiles(), Percentiles()
            rates: dict[str, list[float]] = {"commands": [], "commits": [], "store_only": []}
            counted = 0
            hops = {"loop_iterations": 0, "thread_handoffs": 0}
            for _ in range(ROUNDS):
                count, elapsed = await bench.commits(seconds(0.5), base)
                rates["commits"].append(count / elapsed)
                with handoffs(asyncio.get_running_loop(), hops):
                    count, elapsed = await bench.commands(seconds(1.0), path)
                counted += count
                rates["commands"].append(count / elapsed)
                count, elapsed = await bench.store_only(seconds(0.3))
                rates["store_only"].append(count / elapsed if elapsed else 0.0)
            ratios = [c / b for c, b in zip(rates["commands"], rates["commits"], strict=True)]
            store_ratios = [s / b for s, b in zip(rates["store_only"], rates["commits"], strict=True)]
            mix = bench.mix()
            refused = mix["refused"] / max(1, sum(mix.values()))
            emit(
                "command_path",
                store=backend,
                commands_per_s_median=round(median(rates["commands"]), 1),
                commands_per_s_rounds=[round(rate, 1) for rate in rates["commands"]],
                **path.figures(),
                commands=len(path),
                warmup_commands=warm,
                refused_pct=round(100 * refused, 1),
                unexpected_refusals=sum(bench.unexpected().values()),
                mix_pct=mix_share(mix),
                **{f"{key}_per_command": round(value / max(1, counted), 2) for key, value in hops.items()},
            )
            emit(
                "commit_baseline",
                store=backend,
                driver="sqlite3" if backend == "sqlite" else "psycopg",
                commits_per_s_median=round(median(rates["commits"]), 1),
                **base.figures(),
                commits=len(base),
            )
            emit(
                "command_path_ratio",
                store=backend,
                ratio_median=round(median(ratios), 3),
                ratio_rounds=[round(ratio, 3) for ratio in ratios],
                bare_commit_p50_ms=base.ms(0.5),
                bar=BAR,
                meets_bar=median(ratios) >= BAR,
                aim=AIM,
                loadavg_1m=round(os.getloadavg()[0], 2),
                utc=f"{began}–{utc_now()}",
            )
            emit(
                "command_path_store_only",
                store=backend,
                rounds_per_s_median=round(median(rates["store_only"]), 1),
                ratio_median=round(median(store_ratios), 3),
                ratio_rounds=[round(ratio, 3) for ratio in store_ratios],
                share_of_command_time=round(median(rates["commands"]) / median(rates["store_only"]), 3)
                if median(rates["store_only"])
                else None,
            )
        finally:
            await bench.close()


# --- profile ------------------------------------------------------------------------------------

# Stages of the command path, timed wall-clock inclusive (awaits included) while one command runs
# at a time; "what" is the dotted path of the function wrapped.
STAGES = (
    ("service: whole command (event loop)", "bot.service.croupier.Croupier._move"),
    ("unit of work: whole, in its thread", "bot.service.croupier.Croupier._move_in"),
    ("unit of work: COMMIT", "bot.store.uow.UnitOfWork.commit"),
    ("read: channel state (settings + open game)", "bot.store.repositories.Channels.state"),
    ("read: open game (+ participants)", "bot.store.repositories.Games.open_in"),
    ("read: channel settings", "bot.store.repositories.ChannelSettingsRepository.get"),
    ("read: duplicate check (log.find)", "bot.store.repositories.CommandLog.find"),
    ("write: game + participants + log entry", "bot.store.repositories.Games.save_and_log"),
    ("write: game + participants", "bot.store.repositories.Games.save"),
    ("write: log entry", "bot.store.repositories.CommandLog.append"),
    ("write: game create (open)", "bot.store.repositories.Games.create"),
    ("read: closed games (open_game numbering)", "bot.store.repositories.Games.closed_in"),
    ("read: current tournament", "bot.store.repositories.Tournaments.current"),
    ("engine: load snapshot", "engine.verflixte6.game.Verflixte6.load"),
    ("engine: parse", "engine.verflixte6.game.Verflixte6.parse"),
    ("engine: apply", "engine.verflixte6.game.Verflixte6.apply"),
    ("engine: dump snapshot", "engine.verflixte6.game.Verflixte6.dump"),
    ("render: move reply", "bot.service.rendering.Narrator.move"),
    ("render: refusal", "bot.service.rendering.Narrator.refusal"),
    ("log: reply.to_log (asdict)", "bot.replies.Reply.to_log"),
)


def _resolve(dotted: str) -> tuple[Any, str]:
    """``package.module.Class.method`` → (Class, "method")."""
    module_name, class_name, name = dotted.rsplit(".", 2)
    return getattr(importlib.import_module(module_name), class_name), name


@contextmanager
def staged(totals: dict[str, float], counts: Counter[str]) -> Iterator[None]:
    """Wrap each stage's function with a timer for the duration of the block (bench-local patching)."""
    restore: list[tuple[Any, str, Any]] = []
    for label, dotted in STAGES:
        owner, name = _resolve(dotted)
        original = owner.__dict__[name]
        restore.append((owner, name, original))
        setattr(owner, name, _timed(original, label, totals, counts))
    try:
        yield
    finally:
        for owner, name, original in reversed(restore):
            setattr(owner, name, original)


def _timed(original: Any, label: str, totals: dict[str, float], counts: Counter[str]) -> Any:
    if asyncio.iscoroutinefunction(original):

        @functools.wraps(original)
        async def timed_async(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return await original(*args, **kwargs)
            finally:
                totals[label] += time.perf_counter() - start
                counts[label] += 1

        return timed_async

    @functools.wraps(original)
    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            totals[label] += time.perf_counter() - start
            counts[label] += 1

    return timed


async def profile(backend: str, duration: float, html: str | None) -> None:
    """Stage timings (ms per command), then a pyinstrument run of the same loop."""
    from pyinstrument import Profiler

    async with scratch_database(backend, "prof") as url:
        bench = await Bench.open(url)
        try:
            await bench.commands(seconds(2.0))
            totals: dict[str, float] = defaultdict(float)
            counts: Counter[str] = Counter()
            cpu_start = time.process_time()
            with staged(totals, counts):
                count, elapsed = await bench.commands(duration)
            cpu = time.process_time() - cpu_start
            used = [label for label, _ in STAGES if counts[label]]
            emit(
                "command_path_stages",
                store=backend,
                commands=count,
                wall_ms_per_command=round(1000 * elapsed / count, 3),
                cpu_ms_per_command=round(1000 * cpu / count, 3),
                stages_ms_per_command={label: round(1000 * totals[label] / count, 3) for label in used},
                stage_calls_per_command={label: round(counts[label] / count, 2) for label in used},
            )
            cpu_start = time.process_time()
            commits, commit_elapsed = await bench.commits(seconds(1.0))
            cpu = time.process_time() - cpu_start
            emit(
                "commit_baseline",
                store=backend,
                wall_ms_per_commit=round(1000 * commit_elapsed / commits, 3),
                cpu_ms_per_commit=round(1000 * cpu / commits, 3),
            )
            profiler = Profiler(interval=0.001, async_mode="disabled")
            cpu_start = time.process_time()
            profiler.start()
            count, elapsed = await bench.commands(duration)
            profiler.stop()
            cpu = time.process_time() - cpu_start
            emit(
                "command_path_profiled",
                store=backend,
                commands=count,
                wall_ms_per_command=round(1000 * elapsed / count, 3),
                cpu_ms_per_command=round(1000 * cpu / count, 3),
            )
            print(profiler.output_text(unicode=False, color=False), file=sys.stderr)
            if html:
                path = html.replace("{store}", backend)
                await asyncio.to_thread(Path(path).write_text, profiler.output_html(), encoding="utf-8")
                print(f"pyinstrument HTML: {path}", file=sys.stderr)
        finally:
            await bench.close()


# --- entry points -------------------------------------------------------------------------------


async def _each_backend(work: Callable[[str], Awaitable[None]], bench_name: str) -> None:
    for backend in backends():
        if backend == "postgresql":
            problem = await postgres_problem()
            if problem is not None:
                emit(bench_name, store=backend, skipped=f"PostgreSQL unreachable: {problem}")
                continue
        await work(backend)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.command_path", description=__doc__)
    parser.add_argument("--profile", action="store_true", help="stage timings and a pyinstrument profile")
    parser.add_argument("--seconds", type=float, default=5.0, help="profiled window per store (default 5)")
    parser.add_argument("--html", metavar="PATH", help="also write pyinstrument HTML ({store} is replaced)")
    args = parser.parse_args(argv if argv is not None else [])
    if args.profile:
        asyncio.run(_each_backend(lambda b: profile(b, args.seconds, args.html), "command_path_stages"))
    else:
        asyncio.run(_each_backend(measure, "command_path"))


if __name__ == "__main__":
    main(sys.argv[1:])
