"""``croupier replay``: the documented contract, on the golden scripts and on malformed ones."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from bot import cli
from bot.games import GAMES, scope_of
from bot.texts import render
from engine.verflixte6.options import KNOWN

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
SCRIPTS = sorted(p for p in GOLDEN.glob("*.json") if not p.name.endswith(".expected.json"))


def replay(script: str | dict[str, Any]) -> subprocess.CompletedProcess[str]:
    """``croupier replay -`` in this process (the CLI entry point itself, stdin and all)."""
    text = script if isinstance(script, str) else json.dumps(script)
    out, err = io.StringIO(), io.StringIO()
    with (
        mock.patch.object(sys, "stdin", io.StringIO(text)),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        code = cli.main(["replay", "-"])
    return subprocess.CompletedProcess(["croupier", "replay", "-"], code, out.getvalue(), err.getvalue())


def test_replay_runs_as_a_command_reading_stdin() -> None:
    script = (GOLDEN / "verflixte6_seed_examples.json").read_text()
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "replay", "-"],
        input=script,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == replay(script).stdout


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_golden_script_gives_the_expected_result(script: Path) -> None:
    expected = json.loads(script.with_name(script.stem + ".expected.json").read_text())
    done = replay(script.read_text())
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["players"] == expected["players"]
    assert result["dice_left"] == expected["dice_left"]
    refused = [i for i, reply in enumerate(result["replies"]) if not reply["ok"]]
    assert refused == expected.get("refused_lines", [])
    for key in ("winner", "finished"):
        if key in expected:
            assert result[key] == expected[key]
    lines = json.loads(script.read_text())["lines"]
    assert len(result["replies"]) == len(lines)
    assert all(reply["text"] for reply in result["replies"])


def test_replay_is_deterministic() -> None:
    script = (GOLDEN / "verflixte6_seed_examples.json").read_text()
    assert replay(script).stdout == replay(script).stdout


def test_refused_line_is_reported_and_changes_nothing() -> None:
    script = {
        "game": "verflixte6",
        "players": ["anna", "ben"],
        "dice": [4, 2],
        "lines": [
            {"from": "ben", "text": "weiter"},  # not ben's turn
            {"from": "anna", "text": "weiter mit Joker Quatsch"},  # no such joker
            {"from": "anna", "text": "weiter"},
            {"from": "anna", "text": "hallo"},  # chit-chat
            {"from": "anna", "text": "weiter"},
        ],
        "close": False,
    }
    done = replay(script)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert [reply["ok"] for reply in result["replies"]] == [False, False, True, False, True]
    assert "anna" in result["replies"][0]["text"]  # says whose turn it is
    assert result["players"]["anna"] == {"role": "playing", "points": 6}
    assert result["players"]["ben"] == {"role": "jungfrau", "points": 0}
    assert result["dice_left"] == 0


@pytest.mark.parametrize(
    ("script", "message"),
    [
        ("{not json", "not JSON: line 1 column 2: Expecting property name enclosed in double quotes"),
        (json.dumps({"players": ["a"], "lines": []}), "game: missing"),
        (json.dumps({"game": "verflixte6", "players": []}), "players: should not be empty"),
        (json.dumps({"game": "verflixte6", "players": ["a", "a"]}), "players: player names must be distinct"),
        (
            json.dumps({"game": "verflixte6", "players": ["a"], "dice": [1, 7]}),
            "dice: dice[1] is 7; a die shows 1 to 6",
        ),
        (
            json.dumps({"game": "verflixte6", "players": ["a"], "dice": ["x"]}),
            "dice[0]: should be a whole number",
        ),
        (
            json.dumps({"game": "verflixte6", "players": ["a"], "lines": [{"text": "weiter"}]}),
            "lines[0].from: missing",
        ),
        (json.dumps({"game": "verflixte6", "players": ["a"], "moves": []}), "moves: not a field of a script"),
        (
            json.dumps({"game": "verflixte6", "players": ["a"], "close": "maybe"}),
            "close: should be true or false",
        ),
        (json.dumps([1]), "script: should be an object"),
    ],
)
def test_malformed_script_exits_2_naming_the_fault_in_plain_words(script: str, message: str) -> None:
    """Issue 12: one line, the place in the script and the problem, without the validator's jargon."""
    done = replay(script)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == f"croupier: {message}\n"


@pytest.mark.parametrize(
    ("script", "needle"),
    [
        (json.dumps({"game": "kniffel", "players": ["a"]}), "game: unknown game 'kniffel'; known: "),
        (json.dumps({"game": "verflixte6", "players": ["a"], "options": {"colour": "red"}}), "options"),
        (json.dumps({"game": "killer", "players": ["a", "b"], "options": {"dice": 2}}), "options"),
    ],
)
def test_malformed_script_exits_2_naming_the_fault(script: str, needle: str) -> None:
    done = replay(script)
    assert done.returncode == 2
    assert done.stdout == ""
    message = done.stderr.strip().splitlines()
    assert len(message) == 1, done.stderr
    assert needle in message[0], done.stderr
    assert "Value error" not in message[0]
    assert "Input should" not in message[0]


MODES = {"mode": "foo", "valid": ["terminator", "zombie", "mythic"]}


@pytest.mark.parametrize(
    ("game", "options", "refusals"),
    [
        ("killer", {"dice": 2}, [("killer_too_few_dice", {"dice": 2, "minimum": 3, "maximum": 10})]),
        (
            "killer",
            {"dice": 12, "modes": "foo"},
            [
                ("killer_too_many_dice", {"dice": 12, "minimum": 3, "maximum": 10}),
                ("killer_unknown_mode", MODES),
            ],
        ),
        ("verflixte6", {"colour": "red"}, [("unknown_option", {"option": "colour", "valid": KNOWN})]),
    ],
)
def test_option_errors_are_english_like_every_message_of_the_command_line(
    game: str, options: dict[str, Any], refusals: list[tuple[str, dict[str, Any]]]
) -> None:
    """Not "croupier: options: Impossible de jouer avec 2 dés …" for a French game: the croupier command
    line speaks English, the option refusals too (every bad option on the one line)."""
    done = replay({"game": game, "players": ["a", "b"], "options": options})
    assert done.returncode == 2
    scope = scope_of(GAMES[game])
    said = " ".join(render(f"error.{code}", facts, "en", scope=scope) for code, facts in refusals)
    assert done.stderr == f"croupier: options: {said}\n"


def test_running_out_of_dice_exits_3_naming_the_line() -> None:
    script = {
        "game": "verflixte6",
        "players": ["anna"],
        "dice": [3],
        "lines": [{"from": "anna", "text": "weiter"}, {"from": "anna", "text": "weiter"}],
    }
    done = replay(script)
    assert done.returncode == 3
    assert "lines[1]" in done.stderr
    assert done.stdout == ""


def test_missing_file_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["replay", "/nonexistent/script.json"]) == 2
    assert "cannot read" in capsys.readouterr().err
