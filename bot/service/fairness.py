"""Are the dice fair? Face counts, a χ² goodness-of-fit test and a luck figure, without scipy.

* :func:`face_test`: the count of each face and Pearson's χ² against the uniform die, with its p-value
  from :func:`chi2_sf_5` — the χ² survival function for 5 degrees of freedom (6 faces − 1), which has a
  closed form: for odd k,
  ``Q(x; k) = erfc(√(x/2)) + √(2/π)·e^(−x/2)·Σ_{j=1}^{(k−1)/2} x^(j−½) / (1·3·…·(2j−1))``,
  so ``Q(x; 5) = erfc(√(x/2)) + √(2x/π)·e^(−x/2)·(1 + x/3)``.
* :func:`luck_of`: a player's mean die against 3.5, with its standard error σ/√n (σ² = 35/12 for a fair
  d6), the z score and its two-sided p-value.
* :func:`verdict`: the words people read — "nothing unusual", "unusual, p = 0.003", or "too few dice".

Pure functions over counts: :mod:`bot.service.pages` gathers the dice (through the store) and
``croupier stats`` prints them.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.store import GameRecord
from bot.store.repositories import RolledDice

FACES = 6
DEGREES_OF_FREEDOM = FACES - 1
FAIR_MEAN = 3.5
FAIR_VARIANCE = 35 / 12  # E[X²] − E[X]² = 91/6 − 49/4 for a fair d6
UNUSUAL_BELOW = 0.01  # a p-value under this is called "unusual"
FEWEST_FOR_CHI2 = 5 * FACES  # the usual rule: at least 5 expected per face
FEWEST_FOR_LUCK = 10


def chi2_sf_5(x: float) -> float:
    """P(χ²₅ ≥ x): the survival function of the χ² distribution with 5 degrees of freedom, exactly."""
    if x <= 0:
        return 1.0
    half = x / 2
    return math.erfc(math.sqrt(half)) + math.sqrt(2 * x / math.pi) * math.exp(-half) * (1 + x / 3)


def normal_two_sided(z: float) -> float:
    """P(|Z| ≥ |z|) for a standard normal Z."""
    return math.erfc(abs(z) / math.sqrt(2))


def counts_of(faces: Iterable[int]) -> tuple[int, ...]:
    """How often each face 1..6 came up."""
    counts = [0] * FACES
    for face in faces:
        counts[face - 1] += 1
    return tuple(counts)


@dataclass(frozen=True)
class FaceTest:
    """The count of each face (index 0 is face 1) and Pearson's χ² against a fair die."""

    counts: tuple[int, ...]
    n: int
    chi2: float
    p: float  # P(χ²₅ ≥ chi2); only meaningful when ``enough``

    @property
    def enough(self) -> bool:
        return self.n >= FEWEST_FOR_CHI2


def face_test(counts: Sequence[int]) -> FaceTest:
    if len(counts) != FACES:
        raise ValueError(f"a d6 has {FACES} faces, not {len(counts)} counts")
    n = sum(counts)
    if n == 0:
        return FaceTest(tuple(counts), 0, 0.0, 1.0)
    expected = n / FACES
    chi2 = sum((count - expected) ** 2 for count in counts) / expected
    return FaceTest(tuple(counts), n, chi2, chi2_sf_5(chi2))


@dataclass(frozen=True)
class Luck:
    """A player's mean die against the fair 3.5: standard error, z score and two-sided p-value."""

    n: int
    mean: float
    se: float
    z: float
    p: float

    @property
    def enough(self) -> bool:
        return self.n >= FEWEST_FOR_LUCK


def luck_of(counts: Sequence[int]) -> Luck:
    n = sum(counts)
    if n == 0:
        return Luck(0, FAIR_MEAN, math.inf, 0.0, 1.0)
    mean = sum((face + 1) * count for face, count in enumerate(counts)) / n
    se = math.sqrt(FAIR_VARIANCE / n)
    z = (mean - FAIR_MEAN) / se
    return Luck(n, mean, se, z, normal_two_sided(z))


def verdict(p: float, enough: bool) -> str:
    """The catalogue key (under ``web.``) of the words for a p-value."""
    if not enough:
        return "fair_too_few"
    return "fair_unusual" if p < UNUSUAL_BELOW else "fair_usual"


def _point(value: float, digits: int) -> str:
    return f"{value:.{digits}f}"


def p_text(p: float, decimal: Callable[[float, int], str] = _point) -> str:
    """A p-value as people read it: 0.003, 0.42, < 0.0001 (``decimal`` writes a number with so many
    digits: a language's own decimal mark)."""
    if p < 0.0001:
        return f"< {decimal(0.0001, 4)}"
    if p < 0.001:
        return decimal(p, 4)
    if p < 0.1:
        return decimal(p, 3)
    return decimal(p, 2)


@dataclass(frozen=True)
class PlayerFairness:
    name: str
    faces: FaceTest
    luck: Luck


@dataclass(frozen=True)
class Fairness:
    """Every die of a tournament's games: per face and per player (the player who sent the move)."""

    faces: FaceTest
    players: tuple[PlayerFairness, ...]


def fairness_of(rolled: Iterable[tuple[str, Sequence[int]]], names: Mapping[str, str]) -> Fairness:
    """Fairness figures over ``(actor, faces)`` pairs; dice of someone not seated (a moderator, the
    turn clock) count for the whole tournament only."""
    everything: list[int] = []
    per_player: dict[str, list[int]] = {}
    for actor, faces in rolled:
        everything.extend(faces)
        if actor in names:
            per_player.setdefault(actor, []).extend(faces)
    players = []
    for actor, faces in per_player.items():
        counts = counts_of(faces)
        players.append(PlayerFairness(names[actor], face_test(counts), luck_of(counts)))
    players.sort(key=lambda p: p.name.casefold())
    return Fairness(face_test(counts_of(everything)), tuple(players))


class DiceMemo:
    """Every die of a tournament, counted, remembered for as long as none of its games has moved.

    Reading a big tournament's dice is most of its page's cost (10,000 dice: thousands of log rows).
    A game's version goes up with every move that rolls — an undo too — and the memo's key holds every
    game's version, so a move anywhere (from any process) reads them afresh; the last
    :data:`MEMO_TOURNAMENTS` tournaments are kept. Shared by the worker threads, hence the lock."""

    def __init__(self) -> None:
        self._found: OrderedDict[Hashable, tuple[Fairness, dict[int, int]]] = OrderedDict()
        self._lock = threading.Lock()

    def get(
        self,
        games: Sequence[GameRecord],
        read: Callable[[], Sequence[RolledDice]],
        names: Mapping[str, str],
    ) -> tuple[Fairness, dict[int, int]]:
        """The fairness figures and the dice per game of these games (``read`` when not known)."""
        key = (tuple((g.id, g.version, g.dice_used) for g in games), tuple(sorted(names.items())))
        with self._lock:
            known = self._found.get(key)
            if known is not None:
                self._found.move_to_end(key)
                return known
        rolled = read()
        found = (fairness_of(((r.actor, r.dice) for r in rolled), names), dice_per_game(rolled))
        with self._lock:
            self._found[key] = found
            while len(self._found) > MEMO_TOURNAMENTS:
                self._found.popitem(last=False)
        return found


MEMO_TOURNAMENTS = 32


def dice_per_game(rolled: Iterable[RolledDice]) -> dict[int, int]:
    """How many dice each game rolled (one pass: a 10,000-die tournament has thousands of rolls)."""
    counted: dict[int, int] = {}
    for roll in rolled:
        counted[roll.game_id] = counted.get(roll.game_id, 0) + len(roll.dice)
    return counted
