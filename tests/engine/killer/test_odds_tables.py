"""The shipped Killer odds tables (engine/killer/odds_tables.bin) answer exactly what the solver works
out (K5-A1 advice, K5-P1 optimal play): every position of every goal a game plays for, fully for up to
six dice, and for seven to ten dice every rank and the odds of sampled positions (a solver for ten dice
takes seconds to build, so each goal is checked at one of the large sizes)."""

from __future__ import annotations

import json
import random
import zlib
from fractions import Fraction
from itertools import combinations

import pytest

from bot.service.odds_tables import read
from engine.killer import odds, odds_tables
from engine.killer.rules import MAX_DICE, MIN_DICE

SHIPPED = read()


def shipped(dice: int, goal: odds.Goal) -> odds_tables.Table:
    assert SHIPPED is not None, "the package ships its odds tables"
    table = SHIPPED(dice, goal)
    assert table is not None, f"no shipped table for {dice} dice, goal {goal}"
    return table


def test_the_package_ships_a_table_for_every_dice_count_and_goal_a_game_plays_for() -> None:
    assert SHIPPED is not None
    wanted = [(dice, goal) for dice in range(MIN_DICE, MAX_DICE + 1) for goal in odds_tables.PLAY_GOALS]
    assert SHIPPED.held == sorted(wanted, key=lambda key: (key[0], odds.GOALS.index(key[1])))
    assert SHIPPED.stale() == []


def test_the_play_goals_are_every_goal_a_keep_phase_is_played_for() -> None:
    """setup plays for the sum, a turn for an attack or a zombie's side, the older revision for the sum:
    what ``advice.goal`` can answer (the other goals only serve ``croupier odds``)."""
    from engine.killer import KILLER, KILLER_CLASSIC

    played = {"sum", KILLER.variant.play_goal, KILLER_CLASSIC.variant.play_goal, *odds.SIDES}
    assert set(odds_tables.PLAY_GOALS) == played


@pytest.mark.parametrize("dice", range(3, 7))
@pytest.mark.parametrize("goal", odds_tables.PLAY_GOALS)
def test_K5_P1_small_tables_equal_the_solver_everywhere(dice: int, goal: odds.Goal) -> None:
    solver = odds.Solver(dice, goal)
    table = shipped(dice, goal)
    assert [list(row) for row in table.ranks] == solver.ranks
    for kept_sum, left in odds.positions(dice):
        assert table.distribution(kept_sum, left) == solver.distribution(kept_sum, left)
        assert table.scores(kept_sum, left) == solver.scores(kept_sum, left)
        if dice <= 5:
            for roll, _ in odds.rolls(left):
                assert table.best_keep(kept_sum, roll) == solver.best_keep(kept_sum, roll)


LARGE = [(7, "low"), (8, "high"), (9, "sum"), (10, "attack")]


@pytest.mark.parametrize(("dice", "goal"), LARGE)
def test_K5_P1_large_tables_equal_the_solver_on_samples(dice: int, goal: odds.Goal) -> None:
    solver = odds.Solver(dice, goal)
    table = shipped(dice, goal)
    assert [list(row) for row in table.ranks] == solver.ranks  # every keep chosen alike
    rng = random.Random(dice)
    every = list(odds.positions(dice))
    for kept_sum, left in [every[-1], *rng.sample(every, 12)]:  # the start, then a dozen more
        assert table.distribution(kept_sum, left) == solver.distribution(kept_sum, left)
        for roll, _ in rng.sample(odds.rolls(left), min(20, len(odds.rolls(left)))):
            assert table.best_keep(kept_sum, roll) == solver.best_keep(kept_sum, roll)


@pytest.mark.parametrize("goal", odds.GOALS)
def test_K5_P1_ranks_follow_the_exact_values(goal: odds.Goal) -> None:
    """A keep is chosen by comparing ranks: they must order positions exactly as their values do,
    equal values alike (so ties still go to the first keep in order)."""
    dice = 5
    solver = odds.Solver(dice, goal)
    values = {
        (j, s): Fraction(solver._values[j][s], 6 ** odds.triangle(j))
        for j in range(dice)
        for s in range(dice - j, 6 * (dice - j) + 1)
    }
    for (a, value_a), (b, value_b) in combinations(values.items(), 2):
        rank_a, rank_b = solver.ranks[a[0]][a[1]], solver.ranks[b[0]][b[1]]
        assert (rank_a > rank_b) == (value_a > value_b), (a, b)
        assert (rank_a == rank_b) == (value_a == value_b), (a, b)
    unreachable = [
        solver.ranks[j][s] for j in range(dice) for s in range(6 * dice + 1) if (j, s) not in values
    ]
    assert set(unreachable) == {0}


@pytest.mark.parametrize("dice", range(MIN_DICE, MAX_DICE + 1))
@pytest.mark.parametrize("goal", odds_tables.PLAY_GOALS)
def test_K5_P1_every_shipped_distribution_is_a_distribution(dice: int, goal: odds.Goal) -> None:
    """Cheap for every size: each position's odds add up to exactly 1, over the scores it can reach."""
    table = shipped(dice, goal)
    for kept_sum, left in odds.positions(dice):
        scores = table.scores(kept_sum, left)
        assert sum(scores) == 1
        reach = range(kept_sum + left, kept_sum + 6 * left + 1)
        assert all(p > 0 for i, p in enumerate(scores) if i in reach)
        assert all(p == 0 for i, p in enumerate(scores) if i not in reach)


def test_K5_A1_advice_from_the_tables_is_the_solvers_advice() -> None:
    """``advise`` through a registry that reads the shipped tables, against one that builds solvers."""
    from_tables, built = odds.Solvers(), odds.Solvers()
    from_tables.provide(SHIPPED)
    for dice in (3, 4, 5):
        for goal in odds_tables.PLAY_GOALS:
            table, solver = from_tables(dice, goal), built(dice, goal)
            assert isinstance(table, odds_tables.Table)
            assert isinstance(solver, odds.Solver)
            for roll, _ in odds.rolls(dice):
                keep = table.best_keep(0, roll)
                assert keep == solver.best_keep(0, roll)
                after = (sum(keep), dice - len(keep))
                assert table.scores(*after) == solver.scores(*after)


def test_a_table_refuses_a_position_a_phase_cannot_reach() -> None:
    table = shipped(5, "attack")
    with pytest.raises(ValueError, match="no position"):
        table.best_keep(40, (1, 2))  # three kept dice cannot sum to 40
    with pytest.raises(ValueError, match="no position"):
        table.best_keep(0, (1, 2, 3, 4, 5, 6))  # six dice rolled in a five-dice game
    with pytest.raises(ValueError, match="no position"):
        table.scores(1, 3)  # two kept dice sum to at least 2


# ---------------------------------------------------------------------- the file format


def small_file() -> bytes:
    return odds_tables.encode([odds.Solver(3, "attack"), odds.Solver(3, "sum")])


def rewritten(data: bytes, change: dict[str, object]) -> bytes:
    """The file with its header edited (the tables themselves untouched)."""
    payload = odds_tables.unpacked(data)
    size = int.from_bytes(payload[:4], "big")
    header = json.loads(payload[4 : 4 + size])
    for key, value in change.items():
        if key == "objective":
            header["tables"][0]["objective"] = value
        else:
            header[key] = value
    encoded = json.dumps(header).encode()
    return odds_tables.MAGIC + zlib.compress(len(encoded).to_bytes(4, "big") + encoded + payload[4 + size :])


def test_a_file_round_trips() -> None:
    tables = odds_tables.decode(small_file())
    assert tables.held == [(3, "attack"), (3, "sum")]
    assert tables(3, "low") is None  # not in the file: the solver answers
    assert tables(3, "sum") is not None


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"PK\x03\x04 not ours", "not a file of Killer odds tables"),
        (odds_tables.MAGIC + b"\x78\x9c garbage", "damaged odds tables"),
        (small_file()[:-40], "damaged odds tables"),
    ],
)
def test_a_damaged_file_is_refused(data: bytes, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        odds_tables.decode(data)


def test_a_file_of_another_format_is_refused() -> None:
    with pytest.raises(ValueError, match="another format"):
        odds_tables.decode(rewritten(small_file(), {"format": 99}))


def test_a_table_built_for_other_rules_is_never_used() -> None:
    """Were the verdict of a score to change (K5-O1) and the file not be rebuilt, its table would
    advise for the old rules: the objective it was built for is compared with today's."""
    other = [[1, 0, 0]] * 19  # every score an attack
    tables = odds_tables.decode(rewritten(small_file(), {"objective": other}))
    assert tables.stale() == [(3, "attack")]
    assert tables(3, "attack") is None
    assert tables(3, "sum") is not None
