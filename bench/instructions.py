"""Instructions per console line, in bare durable commits: the CPU a line costs, whatever the disk.

Wall-clock figures of the console path mostly measure the disk's fsync (see docs/performance.md).
This one counts instructions instead, with valgrind's cachegrind (``--cache-sim=no``: only the
instruction count, the kernel's share not included): a ``croupier console --json`` process is fed a
realistic Durchgang mix one line at a time, as players type, once with N lines and once with 2N; the
difference of the two counts divided by N is what one line costs, start-up and shut-down cancelling
out. The unit it is stated in is the same difference for a bare durable one-row commit through the
plain ``sqlite3`` driver with the store's settings (WAL, ``synchronous=FULL``), the transaction the
wall-clock ratio divides by (``bench.console_path.BareCommits``): BEGIN IMMEDIATE, INSERT, UPDATE,
COMMIT, in a Python loop.

A second figure, ``instructions_floor``, runs the same lines through ``bench/_floor_line.py``: the real
parser and rules alone; then with each command's snapshot and log row written through plain
``sqlite3``; then that served as the console serves it (an asyncio loop reads the lines, a worker
thread answers them) — the least a line can cost on this design in this interpreter, before the
croupier service, rendering and the command log's guarantees add theirs.

Deterministic enough to compare two versions run after each other (a few per cent between runs),
and independent of the machine's load. It needs ``valgrind``; without it the figure is skipped.

``python -m bench.instructions [--lines 600] [--commits 2000] [--keep DIR]``
(``--keep``: leave cachegrind's files there; ``cg_diff`` of the two console runs' files, then
``cg_annotate``, shows where the added lines' instructions go, function by function)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.console_path import CONSOLE_MODERATOR, SEED_TEXT, mix_lines
from bench.support import emit, scale, utc_now
from bot.store import Store

ROOT = Path(__file__).resolve().parents[1]
LINES = 600
COMMITS = 2000
# 1.83 M instructions per line = 27.7 bare commits on the main of 2026-12-04; the goal is at most 12.
GOAL_COMMITS_PER_LINE = 12.0
_SUMMARY = re.compile(rb"^summary:\s+(\d+)", re.MULTILINE)

_BARE = """
import sqlite3, sys
connection = sqlite3.connect(sys.argv[1], isolation_level=None)
for pragma in ("busy_timeout=10000", "journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON"):
    connection.execute(f"PRAGMA {pragma}")
connection.execute(
    "CREATE TABLE IF NOT EXISTS bench_bare"
    " (id INTEGER PRIMARY KEY, note TEXT NOT NULL, touched INTEGER NOT NULL)"
)
update = "UPDATE bench_bare SET touched = touched + 1 WHERE id = (SELECT MAX(id) FROM bench_bare)"
for _ in range(int(sys.argv[2])):
    connection.execute("BEGIN IMMEDIATE")
    connection.execute("INSERT INTO bench_bare (note, touched) VALUES (?, 0)", ("one row, durably",))
    connection.execute(update)
    connection.execute("COMMIT")
connection.close()
"""


def cachegrind(
    command: list[str], folder: Path, feed: list[str] | None = None, *, burst: bool = False
) -> int:
    """The instructions ``command`` executed (every thread, user space), fed ``feed`` one line at a
    time, each answer read before the next line is written (``burst``: all of it at once)."""
    out = folder / f"cachegrind.{len(os.listdir(folder))}.out"
    process = subprocess.Popen(
        [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            f"--cachegrind-out-file={out}",
            f"--log-file={out}.log",
            *command,
        ],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        # The same hashes in every run, so both lengths take the same paths through dicts and sets.
        env={**os.environ, "LOG_LEVEL": "WARNING", "PYTHONHASHSEED": "0", "PYTHONPATH": str(ROOT)},
    )
    assert process.stdin is not None
    assert process.stdout is not None
    if burst:
        process.communicate("".join(f"{line}\n" for line in feed or ()).encode())
    else:
        for line in feed or ():
            process.stdin.write((line + "\n").encode())
            process.stdin.flush()
            if not process.stdout.readline():
                raise RuntimeError(f"the process ended before answering {line!r}")
        process.stdin.close()
        process.stdout.read()
    if process.wait(timeout=600) != 0:
        raise RuntimeError(f"{command[:4]} ended with {process.returncode}")
    found = _SUMMARY.search(out.read_bytes())
    if found is None:
        raise RuntimeError(f"no summary in {out}")
    return int(found.group(1))


def console_instructions(lines: list[str], folder: Path, *, burst: bool = False) -> int:
    """A console on a database at the newest schema (migrated before, outside the count) fed ``lines``."""
    database = folder / f"console{len(lines)}.sqlite3"
    url = f"sqlite:///{database}"
    asyncio.run(_migrate(url))
    command = [sys.executable, "-m", "bot.cli", "console", "--json", "--db", url]
    command += ["--moderator", CONSOLE_MODERATOR, "--admin", CONSOLE_MODERATOR, "--dice-seed", SEED_TEXT]
    return cachegrind(command, folder, lines, burst=burst)


async def _migrate(url: str) -> None:
    store = await Store.open(url)
    await store.close()


def bare_instructions(commits: int, folder: Path) -> int:
    database = folder / f"bare{commits}.sqlite3"
    return cachegrind([sys.executable, "-c", _BARE, str(database), str(commits)], folder)


def floor_instructions(mode: str, lines: list[str], folder: Path) -> int:
    """``bench/_floor_line.py`` in ``mode`` (``engine``, ``store`` or ``served``) fed ``lines``."""
    database = folder / f"floor-{mode}{len(lines)}.sqlite3"
    command = [sys.executable, str(ROOT / "bench" / "_floor_line.py"), mode, str(database)]
    return cachegrind(command, folder, lines)


def measure(lines_count: int, commits: int, keep: Path | None = None, *, burst: bool = False) -> None:
    started = utc_now()
    lines = asyncio.run(mix_lines(2 * lines_count))
    with tempfile.TemporaryDirectory(
        prefix="croupier-bench-instructions-", dir=os.environ.get("BENCH_TMPDIR")
    ) as name:
        folder = Path(name) if keep is None else keep
        folder.mkdir(parents=True, exist_ok=True)
        short = console_instructions(lines[:lines_count], folder, burst=burst)
        long = console_instructions(lines, folder, burst=burst)
        bare_short = bare_instructions(commits, folder)
        bare_long = bare_instructions(2 * commits, folder)
        floor = {  # per line, as for the console
            mode: (
                floor_instructions(mode, lines, folder)
                - floor_instructions(mode, lines[:lines_count], folder)
            )
            / lines_count
            for mode in ("engine", "store", "served")
        }
    per_line = (long - short) / lines_count
    per_commit = (bare_long - bare_short) / commits
    ratio = per_line / per_commit
    emit(
        "instructions",
        store="sqlite",
        instructions_per_line=round(per_line),
        bare_commit_instructions=round(per_commit),
        commits_per_line=round(ratio, 2),
        goal_commits_per_line=GOAL_COMMITS_PER_LINE,
        meets_goal=ratio <= GOAL_COMMITS_PER_LINE,
        lines=lines_count,
        fed="all at once" if burst else "line by line, each answer awaited",
        commits=commits,
        console_runs_instructions=[short, long],
        bare_runs_instructions=[bare_short, bare_long],
        utc=f"{started}–{utc_now()}",
    )
    # The same lines through the rules alone, with one plain durable write each, and that served by an
    # event loop with the work on a thread: the least this design can cost, before the service's
    # layers (rendering, the command log's guarantees, permissions) add theirs.
    emit(
        "instructions_floor",
        store="sqlite",
        rules_per_line=round(floor["engine"]),
        rules_commits=round(floor["engine"] / per_commit, 2),
        rules_and_write_per_line=round(floor["store"]),
        rules_and_write_commits=round(floor["store"] / per_commit, 2),
        rules_write_and_loop_per_line=round(floor["served"]),
        rules_write_and_loop_commits=round(floor["served"] / per_commit, 2),
        console_vs_floor=round(per_line / floor["served"], 2),
        lines=lines_count,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.instructions", description=__doc__)
    parser.add_argument("--lines", type=int, help=f"N: console lines of the shorter run (default {LINES})")
    parser.add_argument("--commits", type=int, help=f"bare commits of the shorter run (default {COMMITS})")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="keep cachegrind's output files in DIR")
    parser.add_argument(
        "--burst", action="store_true", help="write all lines at once instead of awaiting each answer"
    )
    args = parser.parse_args(argv if argv is not None else [])
    if shutil.which("valgrind") is None:
        emit("instructions", skipped="valgrind is not installed")
        return
    # BENCH_SCALE shrinks the default run lengths (a smoke run), never below a few lines.
    lines_count = args.lines or max(10, round(LINES * min(1.0, scale())))
    commits = args.commits or max(50, round(COMMITS * min(1.0, scale())))
    measure(lines_count, commits, args.keep, burst=args.burst)


if __name__ == "__main__":
    main(sys.argv[1:])
