"""Where a console line's CPU goes, stage by stage, in one process.

The console path's Durchgang mix (:func:`bench.console_path.mix_lines`) is handled by an in-process
console made as ``croupier console`` makes it, on a SQLite file in a RAM-backed folder (``/dev/shm``
where there is one, so fsync costs nothing and what is left is CPU), and ``time.thread_time`` is summed
around each stage: the unit of work's pieces on the writer thread, the parsing and the answer's text on
the event loop. The first lines warm the caches and are not counted. Each run is a fresh process, so
``--against REV`` measures another commit's code the same way, in alternating runs.

``python -m bench.line_stages [--runs 2] [--lines 3000] [--warm 300] [--against REV]``
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import importlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

WARM = 300  # lines handled before counting starts
SEED_TEXT = "bench-console"  # as bench.console_path's lines were played
MODERATOR = "mod"

# (what is timed, its label): a stage nested in another is counted in both.
STAGES = (
    ("bot.service.playing._move_in", "unit of work: all of a move's work on the writer thread"),
    ("bot.service.playing._load", "  load: channel read and engine load"),
    ("bot.store.repositories.settings.Channels.state", "    store: the channel's read"),
    ("bot.service.playing._judge", "  judge"),
    ("bot.service.playing._perform", "  engine: apply"),
    ("bot.service.playing._render", "  rendering the reply"),
    ("bot.service.playing._save", "  save: snapshot, log entry, the store's writes and commit"),
    ("bot.store.repositories.games.Games.save_and_log", "    store: writes and commit"),
    ("bot.replies.Reply.to_log", "    the logged reply"),
    ("bot.service.playing.readings", "event loop: the games' parse of the line"),
    ("bot.console.terminal.console_text", "event loop: the answer's text"),
    ("bot.console.terminal.Answer.as_json", "event loop: the answer's JSON"),
)


def _timed(totals: Counter[str], label: str, original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def timed(*args: Any, **kwargs: Any) -> Any:
        began = time.thread_time()
        try:
            return original(*args, **kwargs)
        finally:
            totals[label] += time.thread_time() - began

    return timed


def _install(totals: Counter[str]) -> None:
    for dotted, label in STAGES:
        parts = dotted.split(".")
        for cut in range(len(parts) - 1, 0, -1):  # the longest importable prefix is the module
            try:
                owner: Any = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            break
        for name in parts[cut:-1]:
            owner = getattr(owner, name)
        attribute = parts[-1]
        found = vars(owner)[attribute] if isinstance(owner, type) else getattr(owner, attribute)
        if isinstance(found, property):
            assert found.fget is not None
            setattr(owner, attribute, property(_timed(totals, label, found.fget)))
        else:
            setattr(owner, attribute, _timed(totals, label, found))


async def _measure(lines: list[str], url: str, warm: int) -> dict[str, Any]:
    from bot.console.terminal import Console
    from bot.service.croupier import Croupier, seed_from_text
    from bot.store import Store

    totals: Counter[str] = Counter()
    _install(totals)
    store = await Store.open(url)
    try:
        options = {"boards": False} if "boards" in Croupier.__dataclass_fields__ else {}  # as the CLI
        croupier = Croupier(store=store, seed_source=seed_from_text(SEED_TEXT), **options)
        console = Console(croupier, moderators=frozenset({MODERATOR}), admins=frozenset({MODERATOR}))
        for line in lines[:warm]:
            await console.handle(line)
        totals.clear()
        counted = lines[warm:]
        process, main = time.process_time(), time.thread_time()
        for line in counted:
            answer = await console.handle(line)
            if answer is not None:
                answer.as_json()
        process, main = time.process_time() - process, time.thread_time() - main
    finally:
        await store.close()
    per_line = 1000 / len(counted)
    return {
        "process_cpu_ms": round(process * per_line, 3),
        "event_loop_thread_cpu_ms": round(main * per_line, 3),
        "other_threads_cpu_ms": round((process - main) * per_line, 3),
        "stages_cpu_ms": {label: round(totals[label] * per_line, 3) for _, label in STAGES},
    }


def _child(lines_file: str, warm: int) -> None:
    lines = json.loads(Path(lines_file).read_text(encoding="utf-8"))
    ram = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.TemporaryDirectory(prefix="croupier-stages-", dir=ram) as folder:
        result = asyncio.run(_measure(lines, f"sqlite:///{folder}/stages.sqlite3", warm))
    print(json.dumps(result))


def _run(tree: Path, lines_file: str, warm: int) -> dict[str, Any]:
    """One measurement in a fresh process, of the code in ``tree``."""
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", lines_file, "--warm", str(warm)],
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree), "LOG_LEVEL": "WARNING"},
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _medians(results: list[dict[str, Any]]) -> dict[str, Any]:
    keys = ("process_cpu_ms", "event_loop_thread_cpu_ms", "other_threads_cpu_ms")
    medians: dict[str, Any] = {key: round(statistics.median(r[key] for r in results), 3) for key in keys}
    medians["process_cpu_ms_runs"] = [r["process_cpu_ms"] for r in results]
    medians["stages_cpu_ms"] = {
        label: round(statistics.median(r["stages_cpu_ms"][label] for r in results), 3) for _, label in STAGES
    }
    return medians


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.line_stages", description=__doc__)
    parser.add_argument("--runs", type=int, default=2, help="fresh processes per side")
    parser.add_argument(
        "--lines", type=int, default=3000, help="lines of the mix per run, warm-up lines included"
    )
    parser.add_argument(
        "--warm", type=int, default=WARM, help=f"lines handled before counting starts (default {WARM})"
    )
    parser.add_argument(
        "--against", metavar="REV", help="also measure commit REV's code, in alternating runs"
    )
    parser.add_argument("--child", metavar="LINES_JSON", help=argparse.SUPPRESS)
    args = parser.parse_args(argv if argv is not None else [])
    if args.child:
        _child(args.child, args.warm)
        return
    from bench.console_path import ROOT, checkout, mix_lines
    from bench.support import emit, utc_now

    started = utc_now()
    warm = max(0, args.warm)
    lines = asyncio.run(mix_lines(max(args.lines, warm + 1)))
    with tempfile.TemporaryDirectory(prefix="croupier-stages-") as folder:
        lines_file = str(Path(folder) / "lines.json")
        Path(lines_file).write_text(json.dumps(lines), encoding="utf-8")
        trees = {"this": ROOT}
        if args.against:
            then = Path(folder) / "then"
            then.mkdir()
            trees[args.against] = checkout(args.against, then)
        results: dict[str, list[dict[str, Any]]] = {side: [] for side in trees}
        for number in range(args.runs):
            order = list(trees) if number % 2 == 0 else list(reversed(trees))
            for side in order:
                results[side].append(_run(trees[side], lines_file, warm))
    for side, measured in results.items():
        emit(
            "line_stages",
            code=side,
            store="sqlite",
            lines=len(lines) - warm,
            **_medians(measured),
            loadavg_1m=round(os.getloadavg()[0], 2),
            utc=f"{started}–{utc_now()}",
        )


if __name__ == "__main__":
    main(sys.argv[1:])
