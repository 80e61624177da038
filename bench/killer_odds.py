"""Killer's exact odds as players meet them: the first ``conseil`` after a start, and each new roll after.

Every "first" is a fresh process, so nothing is built or read before it:

* ``killer_odds_first`` — per number of dice, a fresh ``croupier console --json`` on a scratch SQLite
  database holding a Killer game: once the process is up and idle, its first line is ``conseil`` by the
  player to act: ``wall_ms`` from the line written to its answer read, ``cpu_ms`` the CPU time the
  console used meanwhile (all its threads; what the machine's other load does not stretch). At a setup
  roll (played for the kept sum) and at a turn's keep phase (played for an attack); ``again_ms`` is the
  same line once more. ``cold``: the very first line of the process (it also loads the games, the
  texts and opens the store's connection, as any first line does); ``after_chat``: one chit-chat line
  first, which loads the games. Medians over ``--repeats`` fresh processes, and the worst wall time;
* ``killer_odds_new_rolls`` — through the service in one process, ``conseil`` after each ``auto`` of
  the setup rolls: p50/p99 of a new roll's answer;
* ``killer_odds_rolls`` — ``conseil``'s own work without the service (best keep and the odds it
  shows): the first call of a fresh process (median over ``--repeats``), then random positions:
  p50/p99, and the resident memory it grew;
* ``killer_odds_tables`` — the resident memory of every shipped table opened at once;
* ``killer_odds_report`` — ``croupier odds --dice N --json``, wall time of the whole command.

The game steps run in ``bench/_killer_probe.py``. ``--against REV`` runs each measurement on commit
REV's files (``git archive``) and on this checkout, in turns, so both see the same machine load.

``python -m bench killer_odds [--dice 3 5 7 10] [--rolls 100] [--repeats 3] [--report-dice 10]
[--against main]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.support import Percentiles, cpu_ns, emit, utc_now

ROOT = Path(__file__).resolve().parents[1]
PROBE = Path(__file__).with_name("_killer_probe.py")


def probe(tree: Path, *args: str) -> dict[str, Any]:
    """One fresh process of ``tree``'s code running the probe."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [sys.executable, str(PROBE), *args], cwd=tree, env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"probe {args[0]} failed in {tree}: {done.stderr.strip()[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def checkout(rev: str, folder: Path) -> Path:
    """The files of ``rev`` (a commit of this repository) in ``folder``."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder


def percentiles(samples: list[float]) -> dict[str, float]:
    latencies = Percentiles()
    for ms in samples:
        latencies.add(ms / 1000)
    return {**latencies.figures(), "max_ms": round(max(samples), 3) if samples else 0.0, "runs": len(samples)}


def idle(pid: int, timeout: float = 60.0) -> None:
    """Wait until process ``pid`` has started and sits waiting (its CPU time stands still a while)."""
    deadline = time.monotonic() + timeout
    last, still = -1, 0
    while time.monotonic() < deadline:
        used = cpu_ns(pid)
        still = still + 1 if used == last else 0
        if still >= 5:
            return
        last = used
        time.sleep(0.05)
    raise RuntimeError("the console did not settle")


def console_first(tree: Path, url: str, player: str, chat_first: bool) -> dict[str, float]:
    """A fresh console's first ``conseil`` (after one chit-chat line when ``chat_first``): wall time
    from the line written to its answer read, and the CPU time the console spent meanwhile."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    command = [sys.executable, "-m", "bot.cli", "console", "--json", "--db", url]
    with subprocess.Popen(
        command, cwd=tree, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    ) as console:
        stdin, stdout = console.stdin, console.stdout
        assert stdin is not None
        assert stdout is not None

        def answer(line: str) -> tuple[float, float]:
            cpu = cpu_ns(console.pid)
            started = time.perf_counter()
            stdin.write(f"{player}: {line}\n".encode())
            stdin.flush()
            said = json.loads(stdout.readline())
            elapsed = (time.perf_counter() - started) * 1000
            assert said["ok"], said
            return elapsed, (cpu_ns(console.pid) - cpu) / 1e6

        idle(console.pid)
        if chat_first:
            answer("guten Abend allerseits")
        first, first_cpu = answer("conseil")
        again, _ = answer("conseil")
        stdin.close()
        console.wait(timeout=60)
    return {"wall_ms": first, "cpu_ms": first_cpu, "again_ms": again}


def summary(runs: list[dict[str, float]]) -> dict[str, float]:
    """Medians over fresh processes, with the worst wall time."""
    figures = {key: round(statistics.median(run[key] for run in runs), 2) for key in runs[0]}
    return {**figures, "max_wall_ms": round(max(run["wall_ms"] for run in runs), 2), "runs": len(runs)}


def first_calls(code: str, tree: Path, dice: int, repeats: int) -> None:
    with tempfile.TemporaryDirectory(prefix="croupier-killer-") as folder:
        url = f"sqlite:///{folder}/bench.db"
        player = probe(tree, "prepare", url, str(dice))["player"]
        steps = [("setup", "sum", player)]
        for step, goal, who in steps:
            figures = {
                variant: summary([console_first(tree, url, who, chat_first) for _ in range(repeats)])
                for variant, chat_first in (("cold", False), ("after_chat", True))
            }
            emit("killer_odds_first", code=code, dice=dice, step=step, goal=goal, **figures, at=utc_now())
            if step == "setup":
                advanced = probe(tree, "advance", url)
                emit("killer_odds_new_rolls", code=code, dice=dice, **percentiles(advanced["new_rolls_ms"]))
                steps.append(("keep", "attack", advanced["player"]))


def engine_rolls(code: str, tree: Path, dice: int, rolls: int, repeats: int) -> None:
    firsts = [probe(tree, "engine", str(dice), "0") for _ in range(repeats - 1)]
    got = probe(tree, "engine", str(dice), str(rolls))
    firsts.append(got)
    emit(
        "killer_odds_rolls",
        code=code,
        dice=dice,
        first_ms=round(statistics.median(run["first_ms"] for run in firsts), 2),
        first_cpu_ms=round(statistics.median(run["first_cpu_ms"] for run in firsts), 2),
        max_first_ms=round(max(run["first_ms"] for run in firsts), 2),
        **percentiles(got["rolls_ms"]),
        median_ms=round(statistics.median(got["rolls_ms"]), 3) if got["rolls_ms"] else 0.0,
        rss_growth_mib=round(got["rss_growth_kib"] / 1024, 2),
    )


def report(code: str, tree: Path, dice: int) -> None:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "bot.console.odds_report", "--dice", str(dice), "--json"],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"croupier odds failed in {tree}: {done.stderr.strip()[-2000:]}")
    p_attack = json.loads(done.stdout)["optimal"]["p_attack"]
    emit("killer_odds_report", code=code, dice=dice, seconds=round(seconds, 2), p_attack=p_attack)


def run(
    trees: list[tuple[str, Path]], dice: list[int], rolls: int, repeats: int, report_dice: list[int]
) -> None:
    for code, tree in trees:
        got = probe(tree, "tables")
        emit("killer_odds_tables", code=code, **got, rss_growth_mib=round(got["rss_growth_kib"] / 1024, 2))
    for n in dice:
        for code, tree in trees:
            first_calls(code, tree, n, repeats)
    for n in dice:
        for code, tree in trees:
            engine_rolls(code, tree, n, rolls, repeats)
    for n in report_dice:
        for code, tree in trees:
            report(code, tree, n)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.killer_odds", description=__doc__)
    parser.add_argument("--dice", type=int, nargs="+", default=list(range(3, 11)), help="numbers of dice")
    parser.add_argument("--rolls", type=int, default=100, help="random positions timed per number of dice")
    parser.add_argument("--repeats", type=int, default=3, help="fresh processes per first call (median)")
    parser.add_argument(
        "--report-dice", type=int, nargs="*", default=[10], help="croupier odds --dice N timed (none: skip)"
    )
    parser.add_argument("--against", metavar="REV", help="also run commit REV's code, side by side")
    args = parser.parse_args(argv)
    trees = [("this", ROOT)]
    if args.against is None:
        run(trees, args.dice, args.rolls, args.repeats, args.report_dice)
        return
    with tempfile.TemporaryDirectory(prefix="croupier-then-") as folder:
        trees.insert(0, (args.against, checkout(args.against, Path(folder))))
        run(trees, args.dice, args.rolls, args.repeats, args.report_dice)


if __name__ == "__main__":
    main()
