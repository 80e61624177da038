"""Exact odds of a keep phase, by dynamic programming over (kept sum, dice left to roll).

Only the sum of the kept dice matters for the outcome, so a keep-phase position is the pair
(kept sum ``s``, dice left ``k``); a roll of ``k`` dice is a multiset weighted by its orderings, and
keeping a sub-multiset of ``m`` dice summing to ``t`` leads to (``s + t``, ``k − m``). No simulation.

Arithmetic is in integers: with ``k`` dice left at most ``T(k) = k(k+1)/2`` dice are still rolled, so
every probability from such a position is an integer over ``6**T(k)``. A goal's lexicographic
objective (e.g. attack first, then regeneration, then small losses) is packed into one integer
with wide enough fields; once every position's value is known, positions are numbered in order of
value (:attr:`Solver.ranks`) and a keep is chosen by comparing those numbers (:func:`best_option`),
which is also all a shipped table (:mod:`engine.killer.odds_tables`) needs to choose alike.

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
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement, product
from math import factorial, prod
from typing import Literal, Protocol

from engine.killer.rules import Rules, Side, judge

Goal = Literal["attack", "low", "high", "loss", "damage", "sum"]
GOALS: tuple[Goal, ...] = ("attack", "low", "high", "loss", "damage", "sum")
FACES = range(1, 7)
SIDES: tuple[Side, ...] = ("low", "high")

Option = tuple[int, int]  # (number of dice kept, their sum)


def triangle(k: int) -> int:
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


def objective(goal: Goal, dice: int) -> Callable[[int], tuple[int, ...]]:
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


Progress = Callable[[int, int], None]  # (steps done, steps in all): long computations report as they go


class Strategy(Protocol):
    """Optimal play of a keep phase for one number of dice and one goal: what ``conseil`` and ``auto``
    ask. A :class:`Solver` works it out; a shipped table (:mod:`engine.killer.odds_tables`) holds the
    same answers ready-made."""

    @property
    def dice(self) -> int: ...

    @property
    def goal(self) -> Goal: ...

    def best_keep(self, kept_sum: int, roll: Sequence[int]) -> tuple[int, ...]: ...

    def scores(self, kept_sum: int, left: int) -> tuple[Fraction, ...]: ...


Ranks = Sequence[Sequence[int]]  # ranks[j][s]: position (kept sum s, j dice left) by value; 0 = unreachable


def best_option(ranks: Ranks, dice: int, kept_sum: int, roll: tuple[int, ...]) -> Option:
    """The keep of a sorted ``roll`` that leads to the best-ranked position (the first of equals, so
    ties follow :func:`keeps`'s order). The one choice every strategy makes, solver or table."""
    k = len(roll)
    if not 0 < k <= dice or not dice - k <= kept_sum <= 6 * (dice - k):
        raise ValueError(f"no position with {dice - k} dice kept summing to {kept_sum} and {k} rolled")
    best: Option | None = None
    best_rank = 0
    for m, t in keeps(roll):
        rank = ranks[k - m][kept_sum + t]
        if rank > best_rank:
            best, best_rank = (m, t), rank
    assert best is not None  # every reachable position has a rank of at least 1
    return best


def positions(dice: int) -> Iterator[tuple[int, int]]:
    """Every (kept sum, dice left) a keep phase can pass through with dice still to roll, fewest
    dice left first (so each one's successors come before it); the start (0, dice) last."""
    for left in range(1, dice + 1):
        kept_dice = dice - left
        for kept_sum in range(kept_dice, 6 * kept_dice + 1):
            yield kept_sum, left


class Solver:
    """Optimal play of an ``dice``-dice keep phase for one goal; build once, query many times."""

    def __init__(self, dice: int, goal: Goal, progress: Progress | None = None) -> None:
        self.dice = dice
        self.goal = goal
        top = 6 * dice
        fields = objective(goal, dice)
        width = len(fields(top))
        base = (top + 1) * 6 ** triangle(dice)  # above any scaled field: no carries when summing
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
            if progress is not None:
                progress(k, dice)
        self.ranks = self._ranked()
        self._distributions: dict[tuple[int, int], list[int]] = {}

    def _lifted(self, k: int) -> list[list[int]]:
        """values[k − m] rescaled to 6**T(k − 1), indexed by m (what keeping m dice leads to)."""
        lifted: list[list[int]] = [[]]
        for m in range(1, k + 1):
            factor = 6 ** (triangle(k - 1) - triangle(k - m))
            lifted.append([v * factor for v in self._values[k - m]])
        return lifted

    def _ranked(self) -> list[list[int]]:
        """Every position a keep can lead to (fewer than ``dice`` dice left), numbered by its exact
        value from 1 up, equal values alike: a keep is then chosen by comparing small integers, and
        the numbers are all a table needs to choose the same."""
        dice = self.dice
        scaled: dict[tuple[int, int], int] = {}
        for j in range(dice):
            factor = 6 ** (triangle(dice - 1) - triangle(j))  # every value over 6**T(dice − 1)
            for s in range(dice - j, 6 * (dice - j) + 1):
                scaled[j, s] = self._values[j][s] * factor
        number = {value: i for i, value in enumerate(sorted(set(scaled.values())), start=1)}
        ranks = [[0] * (6 * dice + 1) for _ in range(dice)]
        for (j, s), value in scaled.items():
            ranks[j][s] = number[value]
        return ranks

    def _best(self, kept_sum: int, roll: tuple[int, ...]) -> Option:
        return best_option(self.ranks, self.dice, kept_sum, roll)

    def best_keep(self, kept_sum: int, roll: Sequence[int]) -> tuple[int, ...]:
        """The dice to keep from ``roll`` (highest first) when ``kept_sum`` is already set aside."""
        ordered = tuple(sorted(roll))
        return keep_for(ordered, self._best(kept_sum, ordered))

    def scores(self, kept_sum: int, left: int) -> tuple[Fraction, ...]:
        """P(final score = i) for i = 0 … 6·dice, from ``kept_sum`` with ``left`` dice to roll."""
        scale = 6 ** triangle(left)
        return tuple(Fraction(x, scale) for x in self.distribution(kept_sum, left))

    def distribution(self, kept_sum: int, left: int) -> list[int]:
        """P(final score = i) for every i, each scaled by 6**T(left) to an integer."""
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
                factor = weight * 6 ** (triangle(left - 1) - triangle(left - m))
                for i, x in enumerate(self.distribution(kept_sum + t, left - m)):
                    if x:
                        result[i] += factor * x
        self._distributions[key] = result
        return result

    def distributions(self, progress: Progress | None = None) -> None:
        """Work out the distribution of every position (the whole phase's needs them all), level by
        level so no recursion goes deep."""
        for kept_sum, left in positions(self.dice):
            self.distribution(kept_sum, left)
            if progress is not None and kept_sum == 6 * (self.dice - left):  # the level's last position
                progress(left, self.dice)


TableSource = Callable[[int, Goal], Strategy | None]


class Solvers:
    """The strategies by dice and goal, each made once per process on first use: from a shipped table
    when a source of tables was provided (:meth:`provide`; the bot provides the packaged file, see
    docs/killer-odds.md), else worked out by a :class:`Solver` (a second or more for ten dice: the
    service builds the one a move will need before its transaction, see :meth:`ready`)."""

    def __init__(self) -> None:
        self._built: dict[tuple[int, Goal], Strategy] = {}
        self._source: TableSource | None = None

    @property
    def source(self) -> TableSource | None:
        return self._source

    def provide(self, source: TableSource | None) -> None:
        """Take strategies from ``source`` (None when it has no table for a dice and goal) from now on;
        None: work every one out again."""
        self._source = source
        self._built.clear()

    def __call__(self, dice: int, goal: Goal = "attack", progress: Progress | None = None) -> Strategy:
        found = self._built.get((dice, goal))
        if found is None:
            if goal not in GOALS:
                raise ValueError(f"unknown goal {goal!r}")
            made = self._source(dice, goal) if self._source is not None else None
            if made is None:
                made = Solver(dice, goal) if progress is None else Solver(dice, goal, progress)
            found = self._built.setdefault((dice, goal), made)
        return found

    def ready(self, dice: int, goal: Goal) -> bool:
        """Whether the strategy for ``dice`` and ``goal`` is at hand, built or opened from a table (asking
        it is then quick). Not yet: the service has it made first, outside any transaction, which for
        a table is only reading the file, once per process."""
        return (dice, goal) in self._built

    def cache_clear(self) -> None:
        """Forget every strategy (what a fresh process starts from; for benchmarks)."""
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


def phase_odds(dice: int, goal: Goal = "attack", progress: Progress | None = None) -> Odds:
    """The odds of a whole keep phase (nothing kept, nothing rolled yet) under best play for ``goal``.

    ``progress`` hears how far a solver is when one has to be built (twice ``dice`` steps: the values,
    then the odds of every position); a shipped table answers at once and tells it nothing."""

    def halves(first: bool) -> Progress | None:
        if progress is None:
            return None
        return lambda done, total: progress(done if first else total + done, 2 * total)

    best = solver(dice, goal, halves(True))
    if isinstance(best, Solver):
        best.distributions(halves(False))
    return Odds(dice, best.scores(0, dice), _direction(goal))


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
        factor = weight * 6 ** (triangle(left - 1) - triangle(left - m))
        for i, x in enumerate(_text_distribution(dice, kept_sum + sum(keep), left - m, side)):
            if x:
                result[i] += factor * x
    return tuple(result)


def text_strategy_odds(dice: int, progress: Progress | None = None) -> Odds:
    """The odds of a whole keep phase played the way the rule text recommends (worked out level by
    level, fewest dice left first, so ``progress`` can be told)."""
    for left in range(1, dice):
        for direction in SIDES:
            for kept_sum in range(dice - left, 6 * (dice - left) + 1):
                _text_distribution(dice, kept_sum, left, direction)
        if progress is not None:
            progress(left, dice)
    scale = 6 ** triangle(dice)
    result = Odds(dice, tuple(Fraction(x, scale) for x in _text_distribution(dice, 0, dice, None)))
    if progress is not None:
        progress(dice, dice)
    return result
