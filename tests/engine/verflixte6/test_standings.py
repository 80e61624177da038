"""V6-R7: the tournament table across closed Durchgänge (sum by default, placement points optional)."""

from __future__ import annotations

import pytest

from engine.errors import InvalidCommand
from engine.game import Close, Result
from engine.standings import PLACEMENT, Row, standings
from engine.verflixte6 import GAME

from .helpers import Table


def _results(raw: dict[str, tuple[int, str]]) -> dict[str, Result]:
    """Results written as (points, role), the roles a closed Durchgang leaves."""
    return {
        player: Result(points, played=role != "did_not_play", busted=role == "zombie")
        for player, (points, role) in raw.items()
    }


ROUNDS = [
    _results({"anna": (20, "prinzessin"), "ben": (0, "zombie"), "cleo": (15, "prinzessin")}),
    _results({"anna": (0, "zombie"), "ben": (30, "prinzessin"), "dora": (12, "prinzessin")}),
    _results({"anna": (10, "prinzessin"), "cleo": (0, "did_not_play"), "dora": (0, "zombie")}),
]


def test_V6_R7_sum_scoring_with_per_durchgang_points() -> None:
    rows = standings(ROUNDS)
    assert [(r.rank, r.player, r.total) for r in rows] == [
        (1, "ben", 30),
        (2, "anna", 30),
        (3, "cleo", 15),
        (4, "dora", 12),
    ]
    assert rows[1] == Row(rank=2, player="anna", points=(20, 0, 10), total=30, best=20, zombies=1, played=3)
    assert rows[2].points == (15, None, 0)  # absent from the second, did not play the third
    assert rows[2].played == 1


def test_V6_R7_ties_by_best_single_result_then_fewer_zombies_then_name() -> None:
    by_best = standings(
        [
            _results({"a": (4, "prinzessin"), "b": (10, "prinzessin")}),
            _results({"a": (6, "prinzessin"), "b": (0, "zombie")}),
        ]
    )
    assert [r.player for r in by_best] == ["b", "a"]  # 10 each; best 10 beats 6
    by_zombies = standings(
        [
            _results({"a": (5, "prinzessin"), "b": (5, "prinzessin")}),
            _results({"a": (0, "zombie"), "b": (0, "did_not_play")}),
        ]
    )
    assert [r.player for r in by_zombies] == ["b", "a"]
    level = standings(
        [_results({"zed": (5, "prinzessin"), "amy": (5, "prinzessin")})], names={"zed": "Anton", "amy": "Zoe"}
    )
    assert [(r.rank, r.player) for r in level] == [(1, "zed"), (1, "amy")]  # shared rank, listed by name


def test_V6_R7_placement_scoring() -> None:
    rows = standings(ROUNDS, scoring=PLACEMENT)
    table = {r.player: (r.points, r.total) for r in rows}
    assert table == {
        "anna": ((10, 6, 10), 26),  # 1st; 3rd of 3 (0 as a Zombie); 1st
        "ben": ((6, 10, None), 16),
        "cleo": ((8, None, 0), 8),  # did not play: 0
        "dora": ((None, 8, 8), 16),
    }
    assert [r.player for r in rows] == ["anna", "ben", "dora", "cleo"]  # ben's best 10 beats dora's 8


def test_V6_R7_placement_ties_share_the_better_place() -> None:
    rows = standings(
        [_results({"a": (9, "prinzessin"), "b": (9, "prinzessin"), "c": (3, "prinzessin")})],
        scoring=PLACEMENT,
    )
    assert {r.player: r.total for r in rows} == {"a": 10, "b": 10, "c": 6}


def test_V6_R7_from_closed_durchgaenge() -> None:
    t = Table("anna", "ben")
    t.begin("anna", 4)
    t.say("anna", "stopp")
    t.do("mod", Close())
    results = GAME.results(t.state)
    assert results == {"anna": Result(4), "ben": Result(0, played=False)}
    rows = standings([results])
    assert [(r.player, r.total, r.played) for r in rows] == [("anna", 4, 1), ("ben", 0, 0)]


def test_V6_R7_bad_input_is_refused() -> None:
    with pytest.raises(InvalidCommand) as caught:
        standings(ROUNDS, scoring="elo")
    assert caught.value.code == "unknown_scoring"
