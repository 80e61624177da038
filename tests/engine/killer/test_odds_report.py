"""``croupier odds`` (bot/console/odds_report.py): the table and the JSON contract."""

from __future__ import annotations

import io
import json
from fractions import Fraction

import pytest

from bot.console.odds_report import Progress, main, report
from bot.texts import render
from engine.killer import KILLER, odds


def test_K5_P1_json_gives_exact_fractions_for_both_strategies(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--dice", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert Fraction(data["optimal"]["p_attack"]) == odds.phase_odds(4).p_attack
    assert Fraction(data["text_strategy"]["p_attack"]) == odds.text_strategy_odds(4).p_attack
    assert (data["low"], data["high"]) == (10, 18)
    for block in ("optimal", "text_strategy", "least_loss", "most_damage"):
        parts = [data[block]["p_attack"], data[block]["p_regeneration"], data[block]["p_loss"]]
        assert sum(map(Fraction, parts)) == 1
        assert sum(map(Fraction, data[block]["attack"].values())) == Fraction(data[block]["p_attack"])
    assert data["text_strategy_is_optimal"] is False


def test_K5_P1_readable_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--", "--dice", "3"]) == 0
    out = capsys.readouterr().out
    assert "below 9 or above 12" in out
    assert "any attack" in out
    assert "rule text" in out
    assert "2629/2916" in out  # P(attack) with best play, three dice


BAD_DICE = [
    ("2", "killer_too_few_dice", {"dice": 2, "minimum": 3, "maximum": 10}),
    ("11", "killer_too_many_dice", {"dice": 11, "minimum": 3, "maximum": 10}),
    ("x", "killer_bad_dice", {"value": "x", "minimum": 3, "maximum": 10}),
]


@pytest.mark.parametrize(("dice", "code", "facts"), BAD_DICE)
def test_K5_S1_bad_dice_are_refused_in_a_sentence(
    dice: str, code: str, facts: dict[str, object], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--dice", dice]) == 2
    said = render(f"error.{code}", facts, "en", scope=(KILLER.catalogue, KILLER.name))
    assert capsys.readouterr().err == said + "\n"
    assert not said.startswith("[")


def test_progress_goes_to_stderr_when_asked_and_stdout_stays_the_json(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--dice", "6", "--json", "--progress"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["dice"] == 6
    lines = err.splitlines()
    assert lines
    assert all(line.startswith("croupier odds: 6 dice, ") for line in lines)
    assert lines[-1].startswith("croupier odds: 6 dice, rule text 6/6 (100%")
    assert any("least loss" in line for line in lines)


@pytest.mark.parametrize("flag", [[], ["--no-progress"]])
def test_no_progress_off_a_terminal_unless_asked(flag: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--dice", "6", "--json", *flag]) == 0
    assert capsys.readouterr().err == ""


def test_on_a_terminal_one_line_is_rewritten_then_wiped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Progress, "DELAY", 0.0)
    stream = io.StringIO()
    report(6, Progress(stream, 6, live=True))
    shown = stream.getvalue()
    assert "\n" not in shown  # nothing scrolls
    drawn = [part for part in shown.split("\r") if part.strip()]
    assert drawn
    assert all(part.startswith("croupier odds: 6 dice, ") for part in drawn)
    assert shown.endswith("\r")
    assert not shown.split("\r")[-2].strip()  # the line is wiped at the end


def test_a_quick_report_on_a_terminal_draws_nothing() -> None:
    stream = io.StringIO()
    report(6, Progress(stream, 6, live=True, clock=lambda: 0.0))  # done before Progress.DELAY
    assert stream.getvalue() == ""


@pytest.mark.parametrize(("flag", "shown"), [("--progress", True), ("--no-progress", False)])
def test_the_croupier_command_passes_the_progress_choice_on(
    flag: str, shown: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.cli import main as croupier

    assert croupier(["odds", "--dice", "6", "--json", flag]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["dice"] == 6
    assert ("croupier odds: 6 dice, rule text 6/6 (100%" in err) is shown
