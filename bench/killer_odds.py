"""Timings of the exact Killer odds: one ``conseil`` for five dice, whole-phase tables for 5 and 8.

Cold figures clear every cache first (what the first advice of a fresh process costs); warm ones
reuse the solver but ask about rolls whose positions were not computed yet.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

from engine.killer import odds


def _clear() -> None:
    for cached in (odds.solver, odds.rolls, odds.keeps, odds._text_distribution):
        cached.cache_clear()


def _ms(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return (time.perf_counter() - start) * 1000


def _print(name: str, ms: float, **extra: object) -> None:
    print(json.dumps({"bench": name, "ms": round(ms, 3), **extra}), flush=True)


def _table(dice: int) -> None:
    """What ``croupier odds`` computes."""
    for goal in ("attack", "loss", "damage"):
        odds.phase_odds(dice, goal)
    odds.text_strategy_odds(dice)


def main() -> None:
    rng = random.Random(7)
    first_rolls = [tuple(rng.randint(1, 6) for _ in range(5)) for _ in range(20)]

    cold = []
    for roll in first_rolls[:5]:
        _clear()
        cold.append(_ms(partial(odds.advise, 5, (), roll)))
    _print("killer_odds_advice_n5_cold", statistics.median(cold), runs=len(cold))

    _clear()
    odds.solver(5)
    warm = [_ms(partial(odds.advise, 5, (), roll)) for roll in first_rolls]
    _print("killer_odds_advice_n5_warm", statistics.median(warm), runs=len(warm))

    for dice in (5, 8):
        _clear()
        total = _ms(partial(_table, dice))
        _print(f"killer_odds_table_n{dice}", total)


if __name__ == "__main__":
    main()
