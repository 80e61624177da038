"""Every bench runs at a tiny scale, so none can rot unnoticed: a bench that no longer finishes, or
prints something that is not a figure, fails here the day the code under it changed.

Each runs as ``python -m bench MODULE [OPTIONS]`` with the smallest sizes its options (or
``BENCH_SCALE``) allow, on SQLite only. What is checked is the shape of what it prints — one JSON
object per line, the figures it is known for, numbers that are numbers (finite; not negative unless
they are a growth or a difference) — never a timing against a bar: at this size and on a shared
machine the timings mean nothing.
"""

from __future__ import annotations

import functools
import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bench.__main__ import available

ROOT = Path(__file__).resolve().parents[2]
ENV = {"BENCH_SCALE": "0.02", "BENCH_BACKENDS": "sqlite", "LOG_LEVEL": "WARNING"}

# module: (its options for a tiny run, the "bench" names it must print)
TINY: dict[str, tuple[list[str], set[str]]] = {
    "command_path": (
        [],
        {"command_path", "commit_baseline", "command_path_ratio", "command_path_store_only"},
    ),
    "concurrency": (["--store", "sqlite"], {"concurrency"}),
    "console_path": (
        ["--rounds", "1", "--lines", "10"],
        {"console_path", "bare_commit", "console_path_ratio"},
    ),
    "delivery": ([], {"delivery_tracking", "delivery_tracking_ratio"}),
    # Under valgrind: the one costly tiny run (≈ 45 s of CPU, two console starts at ~40× their cost).
    "instructions": (["--lines", "2", "--commits", "20"], {"instructions", "instructions_floor"}),
    "killer_odds": (
        ["--dice", "3", "--repeats", "1", "--rolls", "5", "--report-dice", "3"],
        {
            "killer_odds_tables",
            "killer_odds_first",
            "killer_odds_new_rolls",
            "killer_odds_rolls",
            "killer_odds_report",
        },
    ),
    "line_stages": (["--runs", "1", "--lines", "40", "--warm", "20"], {"line_stages"}),
    "scale": (
        ["--games", "30", "--channels", "12", "--restarts", "1", "--store", "sqlite"],
        {"scale_seed", "scale_channels", "scale_restart_first_answer"},
    ),
    "web_connections": (
        ["--idle", "2", "--half-sent", "1", "--half-closed", "1", "--no-idle-wait"],
        {"web_connections"},
    ),
    "web_pages": (
        ["--players", "4", "--moves", "10", "--dice", "50", "--samples", "2", "--browser-runs", "1"],
        {"web_pages"},
    ),
}
SIGNED = ("growth", "diff", "delta", "vs_")  # figures that may fall below zero


@functools.cache  # the scale run is checked twice, run once
def run_tiny(module: str) -> tuple[dict[str, Any], ...]:
    options, _ = TINY[module]
    done = subprocess.run(
        [sys.executable, "-m", "bench", module, *options],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, **ENV},
        timeout=900,  # a guard against a hang, not a bar: the run takes seconds
        check=False,
    )
    assert done.returncode == 0, f"{module} failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    assert lines, f"{module} printed nothing"
    figures = []
    for line in lines:
        figure = json.loads(line)  # every line is one JSON object
        assert isinstance(figure, dict), line
        figures.append(figure)
    return tuple(figures)


def insane(value: Any, key: str = "") -> list[str]:
    """The numbers in ``value`` that are no figure: not finite, or below zero where that means nothing."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return []
    if isinstance(value, int | float):
        if not math.isfinite(value):
            return [f"{key}={value}"]
        if value < 0 and not any(word in key for word in SIGNED):
            return [f"{key}={value}"]
        return []
    if isinstance(value, dict):
        return [bad for name, inner in value.items() for bad in insane(inner, f"{key}.{name}".strip("."))]
    if isinstance(value, list):
        return [bad for inner in value for bad in insane(inner, key)]
    return [f"{key}: {type(value).__name__}"]


def numbers_in(value: Any) -> int:
    if isinstance(value, bool):
        return 0
    if isinstance(value, int | float):
        return 1
    if isinstance(value, dict):
        return sum(numbers_in(inner) for inner in value.values())
    if isinstance(value, list):
        return sum(numbers_in(inner) for inner in value)
    return 0


def test_every_bench_has_a_tiny_run() -> None:
    """A new bench joins the table above, or this fails: none is left out of the suite."""
    assert set(available()) <= set(TINY)


@pytest.mark.parametrize("module", available())
def test_a_tiny_run_finishes_and_prints_its_figures(module: str) -> None:
    figures = run_tiny(module)
    _, names = TINY[module]
    printed = {figure.get("bench") for figure in figures}
    assert names <= printed, f"{module} left out {names - printed}"
    for figure in figures:
        assert "error" not in figure, figure
        assert "skipped" not in figure, figure  # SQLite only, and chromium is one of the suite's tools
        assert numbers_in(figure) > 0, figure
        assert insane(figure) == [], figure


def test_a_tiny_scale_run_plays_every_channel_and_restarts() -> None:
    """``bench scale``'s own sums: each channel played once (or found waiting for its /close), and
    the console answered after its restart; memory is a positive figure."""
    by_name = {figure["bench"]: figure for figure in run_tiny("scale")}
    seeded, played, restart = (
        by_name["scale_seed"],
        by_name["scale_channels"],
        by_name["scale_restart_first_answer"],
    )
    assert seeded["games"] == 30
    assert seeded["log_rows"] > 30 * 4  # at least the joins of every Durchgang
    assert played["channels"] == 12
    waiting = played["channels_waiting_for_close"]
    assert played["commands_ok"] + sum(played["commands_refused"].values()) + waiting == 12
    assert played["commands_refused"] == {}
    assert played["rss_after_start_mib"] > 0
    assert played["rss_after_channels_mib"] > 0
    assert [count for count, _ in played["rss_samples_mib"]][-1] == 12
    assert restart["answers_ok"] == 1
    assert restart["console_rss_after_answer_mib"] > 0
