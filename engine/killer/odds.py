"""Exact odds of a keep phase, by dynamic programming over (kept sum, dice left to roll).

Only the sum of the kept dice matters for the outcome, so a keep-phase position is the pair
(kept sum ``s``, dice left ``k``); a roll of ``k`` dice is a multiset weighted by its orderings, and
keeping a sub-multiset of ``m`` dice summing to ``t`` leads to (``s + t``, ``k − m``). No simulation.

Arithmetic is in integers: with ``k`` dice left at most ``T(k) = k(k+1)/2`` dice are still rolled, so
every probability from such a position is an integer over ``6**T(k)``. A goal's lexicographic
objective (e.g. attack first, then regeneration, then small losses) is packed into one integer
with wide enough fields, so comparing keeps is one integer comparison.

Goals (what "best" means):

* ``"attack"`` — maximise P(attack); ties: maximise P(regeneration), then minimise the expected loss;
* ``"low"`` / ``"high"`` — the same for a zombie bound to one side (the other side is a 1-PDV miss);
* ``"loss"`` — minimise the expected PDV lost; ties: maximise P(attack), then P(regeneration);
* ``"damage"`` — maximise the expected attack value (an attack's expected damage is its value times
  an expected number of hits that does not depend on the value); ties: regeneration, then loss;
* ``"sum"`` — maximise the expected kept sum (setup, and the older revision's strength).

Remaining ties between keeps: keep more dice, then the higher sum.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement, product
from math import factorial, prod
from typing import Literal

from engine.killer.rules import Rules, Side, judge

Goal = Literal["attack", "low", "high", "loss", "damage", "sum"]
GOALS: tuple[Goal, ...] = ("attack", "low", "high", "loss", "damage", "sum")
FACES = range(1, 7)

Option = tuple[int, int]  # (number of dice kept, their sum)


def _triangle(k: int) -> int:
    return k * (k + 1) // 2


@cache
def rolls(k: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every roll of ``k`` dice as a sorted multiset with its number of orderings (they sum to 6**k)."""
    result = []
    for roll in combinations_with_replacement(FACES, k):
        counts = Counter(roll).values()
        result.append((roll, factorial(k) // prod(factorial(c) for c in counts)))
    return tuple(result)


@cache
def keeps(roll: tuple[int, ...]) -> tuple[Option, ...]:
    """Distinct (count, sum) of the non-empty keeps of a sorted roll.

    Ordered by preference for ties: more dice first, then the higher sum.
    """
    options = {(0, 0)}
    for face, count in Counter(roll).items():
        options = {(m + n, t + n * face) for m, t in options for n in range(count + 1)}
    options.discard((0, 0))
    return tuple(sorted(options, key=lambda option: (-option[0], -option[1])))


def keep_for(roll: Sequence[int], option: Option) -> tuple[int, ...]:
    """Some dice of ``roll`` (highest first) that make up ``option``'s count and sum."""
    counts = Counter(roll)
    faces = sorted(counts, reverse=True)
    for choice in product(*(range(counts[face], -1, -1) for face in faces)):
        if sum(choice) == option[0] and sum(f * n for f, n in zip(faces, choice, strict=True)) == option[1]:
            return tuple(face for face, n in zip(faces, choice, strict=True) for _ in range(n))
    raise ValueError(f"no keep of {option} in {roll}")


def _direction(goal: Goal) -> Side | None:
    return goal if goal in ("low", "high") else None


def _fields(goal: Goal, dice: int) -> Callable[[int], tuple[int, ...]]:
    """The objective of a final score as non-negative integer fields, most important first."""
    rules = Rules(dice=dice)
    top = 6 * dice
    if goal == "sum":
        return lambda score: (score,)

    def fields(score: int) -> tuple[int, ...]:
        verdict = judge(rules, score, _direction(goal))
        attack = int(verdict.kind == "attack")
        regeneration = int(verdict.kind == "regeneration")
        spared = top - (verdict.value if verdict.kind == "loss" else 0)
        if goal == "loss":
            return (spared, attack, regeneration)
        if goal == "damage":
            return (attack * verdict.value, regeneration, spared)
        return (attack, regeneration, spared)

    return fields


class Solver:
    """Optimal play of an ``dice``-dice keep phase for one goal; build once, query many times."""

    def __init__(self, dice: int, goal: Goal) -> None:
        self.dice = dice
        self.goal = goal
        top = 6 * dice
        fields = _fields(goal, dice)
        width = len(fields(top))
        base = (top + 1) * 6 ** _triangle(dice)  # above any scaled field: no carries when summing
        terminal = [sum(f * base ** (width - 1 - i) for i, f in enumerate(fields(s))) for s in range(top + 1)]
        # values[k][s]: packed objective from (s, k), scaled by 6**T(k)
        self._values: list[list[int]] = [terminal]
        for k in range(1, dice + 1):
            lifted = self._lifted(k)
            row = [0] * (top + 1)
            kept_dice = dice - k
            span = range(kept_dice, 6 * kept_dice + 1)
            for roll, weight in rolls(k):
                options = keeps(roll)
                for s in span:
                    row[s] += weight * max(lifted[m][s + t] for m, t in options)
            self._values.append(row)
        self._distributions: dict[tuple[int, int], list[int]] = {}

    def _lifted(self, k: int) -> list[list[int]]:
        """values[k − m] rescaled to 6**T(k − 1), indexed by m (what keeping m dice leads to)."""
        lifted: list[list[int]] = [[]]
        for m in range(1, k + 1):
            factor = 6 ** (_triangle(k - 1) - _triangle(k - m))
            lifted.append([v * factor for v in self._values[k - m]])
        return lifted

    def _best(self, kept_sum: int, roll: tuple[int, ...]) -> Option:
        k = len(roll)
        best: Option | None = None
        best_value = -1
        for m, t in keeps(roll):
            value = self._values[k - m][kept_sum + t] * 6 ** (_triangle(k - 1) - _triangle(k - m))
            if value > best_value:
                best, best_value = (m, t), value
        assert best is not None
        return best

    def best_keep(self, kept_sum: int, roll: Sequence[int]) -> tuple[int, ...]:
        """The dice to keep from ``roll`` (highest first) when ``kept_sum`` is already set aside."""
        ordered = tuple(sorted(roll))
        return keep_for(ordered, self._best(kept_sum, ordered))

    def scores(self, kept_sum: int, left: int) -> tuple[Fraction, ...]:
        """P(final score = i) for i = 0 … 6·dice, from ``kept_sum`` with ``left`` dice to roll."""
        scale = 6 ** _triangle(left)
        return tuple(Fraction(x, scale) for x in self._distribution(kept_sum, left))

    def _distribution(self, kept_sum: int, left: int) -> list[int]:
        key = (kept_sum, left)
        cached = self._distributions.get(key)
        if cached is not None:
            return cached
        size = 6 * self.dice + 1
        result = [0] * size
        if left == 0:
            result[kept_sum] = 1
        else:
            successors: Counter[Option] = Counter()
            for roll, weight in rolls(left):
                successors[self._best(kept_sum, roll)] += weight
            for (m, t), weight in successors.items():
                factor = weight * 6 ** (_triangle(left - 1) - _triangle(left - m))
                for i, x in enumerate(self._distribution(kept_sum + t, left - m)):
                    if x:
                        result[i] += factor * x
        self._distributions[key] = result
        return result


class Solvers:
    """The solvers by dice and goal, each built once per process on first use (a table for ten dice
    takes a while: the service builds the one a move will need before its transaction, see
    :meth:`ready`)."""

    def __init__(self) -> None:
        self._built: dict[tuple[int, Goal], Solver] = {}

    def __call__(self, dice: int, goal: Goal = "attack") -> Solver:
        found = self._built.get((dice, goal))
        if found is None:
            if goal not in GOALS:
                raise ValueError(f"unknown goal {goal!r}")
            found = self._built.setdefault((dice, goal), Solver(dice, goal))
        return found

    def ready(self, dice: int, goal: Goal) -> bool:
        """Whether the solver for ``dice`` and ``goal`` is built already (asking it is then quick)."""
        return (dice, goal) in self._built

    def cache_clear(self) -> None:
        """Forget every solver (what a fresh process starts from; for benchmarks)."""
        self._built.clear()


solver = Solvers()


@dataclasses.dataclass(frozen=True)
class Odds:
    """The distribution of a keep phase's result, for ``dice`` dice (and a zombie's ``direction``)."""

    dice: int
    scores: tuple[Fraction, ...]  # P(final score = i)
    direction: Side | None = None

    def _sum(self, kind: str, value: int | None = None, side: Side | None = None) -> Fraction:
        rules = Rules(dice=self.dice)
        total = Fraction(0)
        for score, p in enumerate(self.scores):
            if not p:
                continue
            verdict = judge(rules, score, self.direction)
            if verdict.kind != kind:
                continue
            if value is not None and verdict.value != value:
                continue
            if side is not None and verdict.side != side:
                continue
            total += p
        return total

    @property
    def p_attack(self) -> Fraction:
        return self._sum("attack")

    @property
    def p_regeneration(self) -> Fraction:
        return self._sum("regeneration")

    @property
    def p_loss(self) -> Fraction:
        return self._sum("loss")

    def attack(self, value: int, side: Side | None = None) -> Fraction:
        """P(an attack of ``value``), on one side or both."""
        return self._sum("attack", value, side)

    def loss(self, value: int) -> Fraction:
        """P(losing exactly ``value`` PDV)."""
        return self._sum("loss", value)

    @property
    def losses(self) -> dict[int, Fraction]:
        """P(losing exactly v PDV) for every v that can happen (beyond 6 with more than five dice)."""
        rules = Rules(dice=self.dice)
        result: dict[int, Fraction] = {}
        for score, p in enumerate(self.scores):
            verdict = judge(rules, score, self.direction)
            if p and verdict.kind == "loss":
                result[verdict.value] = result.get(verdict.value, Fraction(0)) + p
        return dict(sorted(result.items()))

    @property
    def expected_loss(self) -> Fraction:
        return sum((value * p for value, p in self.losses.items()), Fraction(0))

    @property
    def expected_attack_value(self) -> Fraction:
        """Σ v·P(attack of v): proportional to the expected damage dealt in a turn."""
        return sum((v * self.attack(v) for v in range(1, 7)), Fraction(0))

    @property
    def expected_sum(self) -> Fraction:
        return sum((score * p for score, p in enumerate(self.scores)), Fraction(0))


@dataclasses.dataclass(frozen=True)
class Advice:
    """The best keep for a roll, and the odds of the phase once it is kept."""

    keep: tuple[int, ...]
    odds: Odds


def phase_odds(dice: int, goal: Goal = "attack") -> Odds:
    """The odds of a whole keep phase (nothing kept, nothing rolled yet) under best play for ``goal``."""
    return Odds(dice, solver(dice, goal).scores(0, dice), _direction(goal))


def advise(dice: int, kept: Sequence[int], roll: Sequence[int], goal: Goal = "attack") -> Advice:
    """Best keep for ``roll`` with ``kept`` already aside, and the exact odds it leaves."""
    if len(kept) + len(roll) != dice or not roll:
        raise ValueError("kept dice and the roll must make up the game's dice")
    best = solver(dice, goal)
    keep = best.best_keep(sum(kept), roll)
    scores = best.scores(sum(kept) + sum(keep), len(roll) - len(keep))
    return Advice(keep, Odds(dice, scores, _direction(goal)))


# The strategy the rule text recommends (K5-P1), read literally:
# the first roll fixes the side — low when there are more 1s than 6s, or, with no 1 and no 6, more 2s
# than 5s, or, with none of those either, more 3s than 4s; high otherwise. Then every roll keeps all
# its 1s (low) or 6s (high), or, lacking them, the one lowest (low) or highest (high) die.


def text_direction(roll: Sequence[int]) -> Side:
    counts = Counter(roll)
    for small, large in ((1, 6), (2, 5), (3, 4)):
        if counts[small] or counts[large]:
            return "low" if counts[small] > counts[large] else "high"
    return "high"  # unreachable with at least one die; kept for the type checker


def text_keep(roll: Sequence[int], direction: Side) -> tuple[int, ...]:
    extreme = 1 if direction == "low" else 6
    matching = tuple(face for face in roll if face == extreme)
    if matching:
        return matching
    return (min(roll),) if direction == "low" else (max(roll),)


@cache
def _text_distribution(dice: int, kept_sum: int, left: int, direction: Side | None) -> tuple[int, ...]:
    """Final-score distribution under the text's strategy, scaled by 6**T(left)."""
    result = [0] * (6 * dice + 1)
    if left == 0:
        result[kept_sum] = 1
        return tuple(result)
    for roll, weight in rolls(left):
        side = direction or text_direction(roll)
        keep = text_keep(roll, side)
        m = len(keep)
        factor = weight * 6 ** (_triangle(left - 1) - _triangle(left - m))
        for i, x in enumerate(_text_distribution(dice, kept_sum + sum(keep), left - m, side)):
            if x:
                result[i] += factor * x
    return tuple(result)


def text_strategy_odds(dice: int) -> Odds:
    """The odds of a whole keep phase played the way the rule text recommends."""
    scale = 6 ** _triangle(dice)
    return Odds(dice, tuple(Fraction(x, scale) for x in _text_distribution(dice, 0, dice, None)))
