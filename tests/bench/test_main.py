"""``python -m bench``: no names runs every module (``make bench``), names run those, and options after
one name go to that module — ``python -m bench web_pages --help`` shows its help instead of a refusal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bench.__main__ import Usage, available, plan

ROOT = Path(__file__).resolve().parents[2]


def bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bench", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )


def test_no_names_run_every_module_without_options() -> None:
    assert plan([]) == [(name, None) for name in available()]
    assert "web_pages" in available()


def test_names_run_those_modules_and_options_go_to_the_one_named() -> None:
    assert plan(["killer_odds", "web_pages"]) == [("killer_odds", None), ("web_pages", None)]
    assert plan(["web_pages", "--screenshots", "shots"]) == [("web_pages", ["--screenshots", "shots"])]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["nope"], "unknown benchmark nope"),
        (["command_path", "web_pages", "--help"], "options go to one benchmark"),
        (["--seconds", "3"], "options go to one benchmark"),
        (["delivery", "--fast"], "delivery takes no options"),
    ],
)
def test_arguments_it_cannot_run_are_refused_naming_why(args: list[str], says: str) -> None:
    with pytest.raises(Usage, match=says):
        plan(args)


def test_a_modules_help_is_shown_through_the_dispatcher() -> None:
    done = bench("web_pages", "--help")
    assert done.returncode == 0, done.stderr
    assert "--screenshots" in done.stdout
    assert "unknown benchmark" not in done.stdout + done.stderr


def test_the_dispatchers_own_help_lists_the_modules() -> None:
    done = bench("--help")
    assert done.returncode == 0, done.stderr
    assert all(name in done.stdout for name in available())
    refused = bench("nope")
    assert refused.returncode == 2
    assert "unknown benchmark nope" in refused.stderr
