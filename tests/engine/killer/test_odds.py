"""Exact odds (engine/killer/odds.py) against brute-force enumeration of ordered rolls (K5-P1)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache
from itertools import combinations, product

import pytest

from engine.killer import odds
from engine.killer.rules import Rules, judge

Value = tuple[Fraction, ...]


def _objective(dice: int, goal: str) -> Callable[[int], Value]:
    rules = Rules(dice=dice)

    def value(score: int) -> Value:
        if goal == "sum":
            return (Fraction(score),)
        verdict = judge(rules, score, goal if goal in ("low", "high") else None)  # type: ignore[arg-type]
        loss = Fraction(-verdict.value if verdict.kind == "loss" else 0)
        attack = Fraction(int(verdict.kind == "attack"))
        regeneration = Fraction(int(verdict.kind == "regeneration"))
        if goal == "loss":
            return (loss, attack, regeneration)
        if goal == "damage":
            return (attack * verdict.value, regeneration, loss)
        return (attack, regeneration, loss)

    return value


def brute_force(dice: int, goal: str) -> Value:
    """Expectimax over every ordered roll and every non-empty choice of positions — no shortcuts."""
    terminal = _objective(dice, goal)

    @cache
    def value(kept: tuple[int, ...]) -> Value:
        left = dice - len(kept)
        if left == 0:
            return terminal(sum(kept))
        total: list[Fraction] = []
        for roll in product(range(1, 7), repeat=left):
            best = max(
                value(tuple(sorted(kept + tuple(roll[i] for i in chosen))))
                for size in range(1, left + 1)
                for chosen in combinations(range(left), size)
            )
            total = [a + b for a, b in zip(total, best, strict=True)] if total else list(best)
        return tuple(x / 6**left for x in total)

    return value(())


def summary(result: odds.Odds, goal: str) -> Value:
    if goal == "sum":
        return (result.expected_sum,)
    loss = -result.expected_loss
    if goal == "loss":
        return (loss, result.p_attack, result.p_regeneration)
    if goal == "damage":
        return (result.expected_attack_value, result.p_regeneration, loss)
    return (result.p_attack, result.p_regeneration, loss)


@pytest.mark.parametrize("dice", [3, 4])
@pytest.mark.parametrize("goal", ["attack", "low", "loss", "damage", "sum"])
def test_K5_P1_optimal_play_matches_brute_force(dice: int, goal: odds.Goal) -> None:
    assert summary(odds.phase_odds(dice, goal), goal) == brute_force(dice, goal)


@pytest.mark.parametrize("dice", range(3, 7))
@pytest.mark.parametrize("goal", odds.GOALS)
def test_K5_P1_a_phase_distribution_sums_to_one(dice: int, goal: odds.Goal) -> None:
    result = odds.phase_odds(dice, goal)
    assert sum(result.scores) == 1
    assert result.p_attack + result.p_regeneration + result.p_loss == 1
    assert sum(result.attack(v) for v in range(1, 7)) == result.p_attack
    assert sum(result.losses.values()) == result.p_loss


def test_K5_P1_text_strategy_matches_brute_force_for_three_dice() -> None:
    rules = Rules(dice=3)
    wins = Fraction(0)
    # the whole phase: first roll fixes the side, then one fresh roll per keep
    for first in product(range(1, 7), repeat=3):
        side = odds.text_direction(first)
        kept = odds.text_keep(first, side)
        wins += _text_rest(rules, side, kept) / 216
    assert odds.text_strategy_odds(3).p_attack == wins


def _text_rest(rules: Rules, side: odds.Side, kept: tuple[int, ...]) -> Fraction:
    left = rules.dice - len(kept)
    if left == 0:
        return Fraction(int(judge(rules, sum(kept)).kind == "attack"))
    total = Fraction(0)
    for roll in product(range(1, 7), repeat=left):
        total += _text_rest(rules, side, kept + odds.text_keep(roll, side))
    return total / 6**left


@pytest.mark.parametrize(
    ("roll", "side", "keep"),
    [
        ((1, 6, 6, 3, 2), "high", (6, 6)),  # more 6s than 1s
        ((1, 1, 6, 3, 2), "low", (1, 1)),
        ((1, 6, 3, 2, 2), "high", (6,)),  # as many 1s as 6s: not more 1s, so high
        ((2, 2, 5, 3, 4), "low", (2,)),  # no 1 or 6: more 2s than 5s; lacking a 1, the lowest die
        ((3, 3, 4, 2, 5), "high", (5,)),  # 2s and 5s tie: high, the highest die
        ((3, 3, 4, 3, 4), "low", (3,)),  # only 3s and 4s: more 3s
    ],
)
def test_K5_P1_text_strategy_reading(roll: tuple[int, ...], side: str, keep: tuple[int, ...]) -> None:
    assert odds.text_direction(roll) == side
    assert odds.text_keep(roll, side) == keep  # type: ignore[arg-type]


def test_K5_P1_advice_keeps_what_brute_force_would() -> None:
    """For every first roll of three dice the advised keep reaches the brute-force optimum."""
    dice = 3
    terminal = _objective(dice, "attack")

    @cache
    def value(kept: tuple[int, ...]) -> Value:
        left = dice - len(kept)
        if left == 0:
            return terminal(sum(kept))
        rolls = list(product(range(1, 7), repeat=left))
        totals = [Fraction(0)] * 3
        for roll in rolls:
            best = max(value(tuple(sorted(kept + keep))) for keep in _keeps(roll))
            totals = [a + b for a, b in zip(totals, best, strict=True)]
        return tuple(t / len(rolls) for t in totals)

    for roll in product(range(1, 7), repeat=dice):
        advice = odds.advise(dice, (), roll)
        assert sum(advice.odds.scores) == 1
        best = max(value(tuple(sorted(keep))) for keep in _keeps(roll))
        assert summary(advice.odds, "attack") == best
        assert value(tuple(sorted(advice.keep))) == best


def _keeps(roll: tuple[int, ...]) -> list[tuple[int, ...]]:
    return [
        tuple(roll[i] for i in chosen)
        for size in range(1, len(roll) + 1)
        for chosen in combinations(range(len(roll)), size)
    ]


def test_K5_P1_hand_checked_values() -> None:
    # one die left, 5 dice, 20 kept: 21…23 lose, 24 regenerates, 25, 26 attack
    result = odds.Odds(5, odds.solver(5).scores(20, 1))
    assert (result.p_attack, result.p_regeneration, result.p_loss) == (
        Fraction(2, 6),
        Fraction(1, 6),
        Fraction(3, 6),
    )
    # three dice, none kept yet: the first roll is a certain attack when it already shows three 1s
    assert odds.advise(3, (), (1, 1, 1)).odds.p_attack == 1
    assert odds.advise(3, (), (1, 1, 1)).keep == (1, 1, 1)


def test_K5_P1_the_text_strategy_is_not_the_best_for_five_dice() -> None:
    assert odds.text_strategy_odds(5).p_attack < odds.phase_odds(5).p_attack
