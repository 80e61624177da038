"""The older 6-dice Killer (docs/rules-killer.md, part B), scripted dice."""

from __future__ import annotations

import ast
from pathlib import Path

from engine.errors import IllegalCommand
from engine.game import Start
from engine.killer import KILLER, KILLER_CLASSIC, Classic, Variant
from engine.killer import events as ev

from .helpers import Table, kinds, of

SIXES = [6] * 6
FIVES = [5] * 6
MISS = [1, 2, 3, 4, 5, 5]


def classic(dice: list[int], setup: tuple[int, ...] = (20, 30, 30)) -> Table:
    players = ("anna", "ben", "carl")[: len(setup)]
    return Table(dice, players=players, setup=setup, game=KILLER_CLASSIC)


def test_K6_S1_setup_sums_six_kept_dice_and_orders_by_hit_points() -> None:
    table = classic([*FIVES])
    assert [table.hp(p) for p in ("anna", "ben", "carl")] == [20, 30, 30]
    assert of(table.events, ev.TurnOrder) == [ev.TurnOrder(("ben", "carl", "anna"))]  # ties: sign-up order
    assert table.state.order == ("ben", "carl", "anna")
    assert table.to_act == "ben"
    assert table.roll == tuple(FIVES)
    assert [seat.player for seat in KILLER_CLASSIC.table(table.state)] == ["ben", "carl", "anna"]


def test_K6_S1_keep_phase_of_six_dice_one_at_a_time() -> None:
    table = Table([6, 1, 1, 1, 1, 1, 6, 1, 1, 1, 1, 6, 1, 1, 1, 6, 1, 1, 6, 1, 6], game=KILLER_CLASSIC)
    table.do("mod", Start())
    for _ in range(5):
        table.do("anna", "garde 6")
    assert table.hp("anna") == 36


def test_K6_F1_strength_is_the_sum_minus_30_and_zero_passes() -> None:
    table = classic([*FIVES, *MISS])
    events = table.do("ben", "garde tout")
    assert of(events, ev.StrengthSet) == [ev.StrengthSet("ben", 30, 0)]
    assert of(events, ev.StrengthZero) == [ev.StrengthZero("ben")]
    assert table.to_act == "carl"
    assert table.hp("ben") == 30


def test_K6_F1_negative_strength_costs_its_size() -> None:
    table = classic([4, 4, 4, 4, 4, 4, *MISS])
    events = table.do("ben", "garde tout")
    assert of(events, ev.StrengthLost) == [ev.StrengthLost("ben", 6, 24)]
    assert table.to_act == "carl"


def test_K6_F1_positive_strength_may_attack() -> None:
    table = classic([*SIXES])
    events = table.do("ben", "garde tout")
    assert of(events, ev.StrengthSet) == [ev.StrengthSet("ben", 36, 6)]
    assert table.step == "target"
    assert table.to_act == "ben"


def test_K6_A1_an_attack_needs_a_named_target() -> None:
    table = classic([*SIXES])
    table.do("ben", "garde tout")
    error = table.refuse("ben", "attaque", IllegalCommand, "killer_target_required")
    assert error.facts["value"] == 6


def test_K6_A1_damage_is_the_sum_of_the_dice_showing_the_strength_then_attack_again_or_pass() -> None:
    table = classic([*SIXES, 6, 6, 1, 2, 3, 4, 6, 1, 1, 2, 3, 4, *MISS])
    table.do("ben", "garde tout")
    events = table.do("ben", "attaque anna")
    assert of(events, ev.Damaged) == [ev.Damaged("ben", "anna", 6, 2, 12, 8)]
    assert table.step == "again"
    assert table.to_act == "ben"
    table.do("ben", "attaque carl")  # a new roll, same strength, any target
    assert table.hp("carl") == 24
    events = table.do("ben", "passe")
    assert kinds(events)[0] == "killer.passed"
    assert table.to_act == "carl"


def test_K6_A1_no_die_showing_the_strength_passes_the_turn() -> None:
    table = classic([*SIXES, *MISS, *MISS])
    table.do("ben", "garde tout")
    events = table.do("ben", "attaque anna")
    assert of(events, ev.NoHit) == [ev.NoHit("ben", "anna", 6)]
    assert table.to_act == "carl"
    assert table.hp("anna") == 20


def test_K6_A1_all_six_dice_hit_every_opponent_once() -> None:
    table = classic([6, 6, 6, 6, 6, 3, 3, 3, 3, 3, 3, 3, *MISS], setup=(30, 30, 30))
    table.do("anna", "garde tout")  # 33: strength 3
    events = table.do("anna", "attaque ben")
    assert of(events, ev.Sweep) == [ev.Sweep("anna", 3, 18, ("ben", "carl"))]
    assert (table.hp("ben"), table.hp("carl"), table.hp("anna")) == (12, 12, 30)
    assert table.step == "again"


def test_K6_E1_below_zero_is_out_at_once_and_the_last_one_wins_at_once() -> None:
    table = classic([*SIXES, *SIXES], setup=(30, 30))
    table.do("anna", "garde tout")
    events = table.do("anna", "attaque ben")  # all six: 36 damage
    assert kinds(events)[-2:] == ["killer.eliminated", "killer.won"]
    assert table.state.winner == "anna"
    assert KILLER_CLASSIC.finished(table.state)
    assert KILLER_CLASSIC.summary(table.state)["players"]["ben"] == {
        "status": "dead",
        "hp": -6,
        "terminator": 0,
    }


def test_K6_E1_a_negative_strength_can_eliminate_the_roller() -> None:
    table = classic([*FIVES, 1, 1, 1, 1, 1, 1], setup=(30, 6))
    table.do("anna", "garde tout")  # strength 0
    events = table.do("ben", "garde tout")  # strength −24: 6 − 24 < 0
    assert kinds(events)[-3:] == ["killer.strength_lost", "killer.eliminated", "killer.won"]
    assert table.state.winner == "anna"


def test_K6_A1_a_positive_strength_may_be_passed() -> None:
    table = classic([*SIXES, *MISS])
    table.do("ben", "garde tout")
    assert table.step == "target"
    events = table.do("ben", "passe")
    assert kinds(events)[0] == "killer.passed"
    assert table.to_act == "carl"


def test_K6_S1_the_older_rules_are_a_variant_of_the_5_dice_game_not_a_flag() -> None:
    """What the older text does differently lives in its variant's methods; no module reads a flag."""
    assert type(KILLER.variant) is Variant
    assert type(KILLER_CLASSIC.variant) is Classic
    assert KILLER_CLASSIC.variant != KILLER.variant
    engine = Path(__file__).resolve().parents[3] / "engine" / "killer"
    for path in engine.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        nodes = ast.walk(tree)
        flags = [node.lineno for node in nodes if isinstance(node, ast.Attribute) and node.attr == "classic"]
        assert flags == [], f"{path.name} reads .classic at lines {flags}"
