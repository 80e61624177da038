"""``croupier odds`` (bot/odds_report.py): the table and the JSON contract."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from bot.odds_report import main
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
