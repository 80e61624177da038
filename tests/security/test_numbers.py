"""Numbers people type: one parser (``engine.numbers``) reads every option and id, ASCII digits only and
bounded by what the field holds.

``str.isdigit`` is true for "²" and ``int`` refuses it; ``int`` reads "٣" (Arabic-Indic three) and any
length of digits, which SQLite (64 bits) and PostgreSQL's ``integer`` ids (31 bits) then refuse. Each of
these once ended the console with a traceback, and a replay script with one instead of a line.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from bot.texts import render
from engine.numbers import COUNT_MAX, ID_MAX, whole_number
from tests.conftest import BACKENDS

ROOT = Path(__file__).resolve().parents[2]
UNICODE_DIGITS = [chr(c) for c in range(0x80, 0x110000) if chr(c).isdigit()]


def test_the_parser_reads_ascii_digits_only_and_never_beyond_the_field() -> None:
    assert len(UNICODE_DIGITS) > 500  # every script's digits, superscripts, circled ones …
    assert [d for d in UNICODE_DIGITS if whole_number(d, COUNT_MAX) is not None] == []
    assert [d for d in UNICODE_DIGITS if whole_number(f"1{d}", COUNT_MAX) is not None] == []
    assert whole_number("0", ID_MAX) == 0
    assert whole_number("0042", ID_MAX) == 42
    assert whole_number(str(ID_MAX), ID_MAX) == ID_MAX
    for refused in (str(ID_MAX + 1), "9" * 5000, "", " 1", "1 ", "+1", "-1", "1_000", "1e3", "0x10"):
        assert whole_number(refused, ID_MAX) is None, refused


def test_no_other_reading_of_digits_is_left() -> None:
    """The one parser is the only place that asks whether a text is digits: every other site once
    asked ``isdigit`` and then read with ``int``, and the two disagree on "²"."""
    sites = []
    for folder in ("bot", "engine"):
        for file in sorted((ROOT / folder).rglob("*.py")):
            if file == ROOT / "engine" / "numbers.py":
                continue
            for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
                if re.search(r"\.is(digit|decimal|numeric)\(", line):
                    sites.append(f"{file.relative_to(ROOT)}:{number}")
    assert sites == []


def _croupier(*args: str, stdin: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "LOG_"))}
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env={**environment, "PYTHONPATH": str(ROOT)},
        cwd=cwd,
        check=False,
    )


@pytest.mark.parametrize("db_backend", BACKENDS, indirect=True)
def test_unicode_digits_and_huge_ids_are_refused_and_the_console_plays_on(
    db_url: str, tmp_path: Path
) -> None:
    """The issue's lines, typed into the real console: each gets its refusal, in German, and changes
    nothing; the console goes on to the next line, and no traceback."""
    verify_usage = render("error.verify_usage", {}, "de")
    week2 = 14 * 24 * 3600  # the longest turn timeout
    lines = {
        "anna: /verify ²": verify_usage,  # no rights needed
        "anna: /verify ٣": verify_usage,
        "anna: /verify 99999999999999999999999": verify_usage,
        f"anna: /verify {ID_MAX + 1}": verify_usage,
        "mod: /settings timeout=²": render("error.bad_timeout", {"value": "²", "max": week2}, "de"),
        "mod: /settings timeout=٣m": render(
            "error.bad_timeout", {"value": "٣m", "max": 14 * 24 * 3600}, "de"
        ),
        "mod: /open killer dice=²": None,  # the Killer catalogue words it: checked below by its word
        "mod: /adjust anna ² Grund": render("error.adjust_usage", {}, "de"),
    }
    script = "\n".join([*lines, "mod: /open killer dice=4", "anna: /join"]) + "\n"
    done = _croupier(
        "console",
        "--json",
        "--db",
        db_url,
        "--moderator",
        "mod",
        "--admin",
        "mod",
        stdin=script,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(lines) + 2
    for (line, expected), answer in zip(lines.items(), answers, strict=False):
        if expected is not None:
            assert (answer["ok"], answer["text"]) == (False, expected), line
    assert answers[6]["ok"] is False
    assert "²" in answers[6]["text"]
    assert answers[-2]["ok"] is True  # the console played on: the game opens …
    assert answers[-1]["ok"] is True  # … and takes a player


@pytest.mark.parametrize("dice", ["²", "٣", "9" * 30])
def test_unicode_digits_in_a_replay_script_are_one_line_exit_2(dice: str, tmp_path: Path) -> None:
    script = {"game": "killer", "players": ["anna", "ben"], "options": {"dice": dice}, "lines": []}
    done = _croupier("replay", "-", stdin=json.dumps(script), cwd=tmp_path)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    said = done.stderr.strip().splitlines()
    assert len(said) == 1, done.stderr
    assert said[0].startswith("croupier: options: ")
    assert unicodedata.normalize("NFC", dice) in said[0] or "9" * 30 in said[0]
