"""The 5-dice Killer (docs/rules-killer.md, part A): one test or more per rule id, scripted dice."""

from __future__ import annotations

import pytest

from engine.errors import DiceExhausted
from engine.game import Start
from engine.killer import KILLER, odds
from engine.killer import events as ev
from engine.killer.rules import Rules, judge

from .helpers import Table, kinds, of, position

SIX_SIXES = [6, 6, 6, 6, 6]


# K5-S1 setup


def test_K5_S1_setup_keeps_the_players_choice_and_turns_follow_signup_order() -> None:
    table = Table([6, 5, 2, 1, 1, 6, 6, 3, 4, *SIX_SIXES, 3, 3, 4, 4, 1])
    started = table.do("mod", Start())
    assert of(started, ev.Rolled) == [ev.Rolled("anna", (6, 5, 2, 1, 1), ())]
    table.do("anna", "garde 6 5")
    assert table.roll == (6, 6, 3)
    table.do("anna", "garde 6 6")
    assert table.hp("anna") == 6 + 5 + 6 + 6 + 4  # the last die was kept automatically
    table.do("ben", "garde tout")
    assert table.hp("ben") == 30
    # ben has more PDV, but the 5-dice game plays in sign-up order
    assert table.to_act == "anna"
    assert table.step == "keep"
    assert table.roll == (3, 3, 4, 4, 1)


def test_K5_S1_auto_in_setup_keeps_for_the_highest_expected_sum() -> None:
    table = Table([6, 5, 2, 1, 1, 4, 4, 4, 4, *SIX_SIXES])
    table.do("mod", Start())
    kept = table.do("anna", "auto")
    # a 5 is worth less than a fresh die with four dice left: only the 6 stays
    assert of(kept, ev.Kept)[0].values == (6,)
    assert odds.solver(5, "sum").best_keep(0, (6, 5, 2, 1, 1)) == (6,)


def test_K5_S1_auto_between_equally_good_keeps_keeps_more_dice() -> None:
    """Reading (docs/rules-killer.md): kept 1 1 1, the roll 1 4 — keeping both (8) and keeping the 1
    (4 and a die: 5 … 10) are both a sure attack; auto keeps more dice."""
    table = position({"anna": ("alive", 30), "ben": ("alive", 30)}, "anna", [1, 1, 1, 6, 6, 1, 4])
    table.do("anna", "garde 1 1 1")
    kept = table.do("anna", "auto")
    assert of(kept, ev.Kept)[0].values == (4, 1)
    assert of(kept, ev.AttackObtained) == [ev.AttackObtained("anna", 8, 3, "low", False)]


# K5-K1 keep phase


def test_K5_K1_one_die_at_a_time_makes_five_rolls_and_the_score_is_the_kept_sum() -> None:
    table = Table([6, 1, 1, 1, 1, 5, 1, 1, 1, 4, 1, 1, 3, 1, 2, *SIX_SIXES])
    table.do("mod", Start())
    for value in ("6", "5", "4", "3"):
        table.do("anna", f"garde {value}")
    rolls = [e for e in of(table.events, ev.Rolled) if e.player == "anna"]
    assert [len(r.faces) for r in rolls] == [5, 4, 3, 2]
    assert of(table.events, ev.LastDieKept) == [ev.LastDieKept("anna", 2, (6, 5, 4, 3, 2), 20)]
    assert table.hp("anna") == 20


def test_K5_K1_several_dice_may_be_kept_at_once() -> None:
    table = Table([6, 6, 1, 1, 1, 6, 6, 2, *SIX_SIXES])
    table.do("mod", Start())
    table.do("anna", "garde 6 6")
    assert table.roll == (6, 6, 2)
    table.do("anna", "garde 6 6 2")
    assert table.hp("anna") == 26


# K5-O1 obtaining an attack / regeneration / loss


@pytest.mark.parametrize(
    ("faces", "kind", "value", "hp"),
    [
        pytest.param([5, 6, 6, 4, 4], "attack", 1, 30, id="K5-O1 score 25: attack of 1"),
        pytest.param([2, 2, 1, 1, 1], "attack", 4, 30, id="K5-O1 score 7: attack of 4"),
        pytest.param([5, 6, 4, 4, 4], "loss", 1, 29, id="K5-O1 score 23: -1"),
        pytest.param([4, 3, 2, 2, 2], "loss", 2, 28, id="K5-O1 score 13: -2"),
        pytest.param([6, 3, 3, 3, 3], "loss", 6, 24, id="K5-O1 score 18: -6"),
        pytest.param([3, 2, 2, 2, 2, 4], "regeneration", 4, 34, id="K5-O1 score 11: regeneration +4"),
        pytest.param([6, 6, 6, 4, 2, 6], "regeneration", 6, 36, id="K5-O1 score 24: regeneration +6"),
    ],
)
def test_K5_O1_score_gives_attack_regeneration_or_loss(
    faces: list[int], kind: str, value: int, hp: int
) -> None:
    table = Table([*faces, *SIX_SIXES], setup=(30, 30))
    events = table.do("anna", "garde tout")
    assert table.hp("anna") == hp
    if kind == "attack":
        assert of(events, ev.AttackObtained)[0].value == value
        assert (table.to_act, table.step) == ("anna", "target")
    elif kind == "loss":
        assert of(events, ev.Missed)[0].loss == value
        assert table.to_act == "ben"
    else:
        assert of(events, ev.Regenerated) == [ev.Regenerated("anna", value, hp)]
        assert table.to_act == "ben"


def test_K5_O1_seed_examples_judged() -> None:
    rules = Rules()
    assert judge(rules, 25).kind == "attack"
    assert judge(rules, 25).value == 1
    assert judge(rules, 7).value == 4
    assert judge(rules, 7).side == "low"
    assert (judge(rules, 23).kind, judge(rules, 23).value) == ("loss", 1)
    assert (judge(rules, 13).kind, judge(rules, 13).value) == ("loss", 2)
    assert judge(rules, 11).kind == judge(rules, 24).kind == "regeneration"
    # the summary table: 5 … 10 give attacks of 6 … 1, 25 … 30 attacks of 1 … 6
    assert [judge(rules, s).value for s in range(5, 11)] == [6, 5, 4, 3, 2, 1]
    assert [judge(rules, s).value for s in range(25, 31)] == [1, 2, 3, 4, 5, 6]
    # between the targets the loss grows towards the middle
    assert [judge(rules, s).value for s in range(12, 24)] == [1, 2, 3, 4, 5, 6, 6, 5, 4, 3, 2, 1]


@pytest.mark.parametrize(
    ("dice", "low", "high"),
    [(3, 9, 12), (4, 10, 18), (5, 11, 24), (6, 12, 30), (7, 13, 36), (10, 16, 54)],
)
def test_K5_O1_variants_targets_follow_x_plus_6_and_6x_minus_6(dice: int, low: int, high: int) -> None:
    rules = KILLER.variant.rules({"dice": dice})
    assert (rules.low, rules.high) == (low, high)
    assert judge(rules, low - 1).value == 1
    assert judge(rules, high + 1).value == 1
    assert judge(rules, dice).value == 6
    assert judge(rules, 6 * dice).value == 6


def test_K5_O1_variant_with_three_dice_plays_through() -> None:
    table = Table([3, 3, 2, 1, 1, 1, 6, 6, 6], setup=(18, 18), options={"dice": "3"})
    table.do("anna", "garde tout")  # 8 < 9: attack of 1
    assert table.step == "target"
    assert table.state.turn is not None
    assert table.state.turn.value == 1
    table.do("anna", "attaque ben")
    assert table.hp("ben") == 18 - 3  # 1, 1, 1 then all three kept: rolled again (6, 6, 6 → none)


# K5-A1 the attack


def test_K5_A1_seed_example_attack_of_4_takes_12() -> None:
    table = Table([2, 2, 1, 1, 1, 4, 4, 1, 2, 3, 4, 5, 6, 1, 2, *SIX_SIXES], setup=(30, 30))
    table.do("anna", "garde tout")
    events = table.do("anna", "attaque ben")
    assert [(r.faces, r.matched) for r in of(events, ev.AttackRolled)] == [
        ((4, 4, 1, 2, 3), 2),
        ((4, 5, 6), 1),
        ((1, 2), 0),
    ]
    assert of(events, ev.Damaged) == [ev.Damaged("anna", "ben", 4, 3, 12, 18)]
    assert table.to_act == "ben"


def test_K5_A1_seed_example_attack_of_6_rolls_all_again_and_takes_36() -> None:
    attack = [6, 1, 2, 3, 4, 6, 6, 1, 2, 6, 6, 6, 1, 2, 3, 4, 1, 2, 3, 4]
    table = Table([*SIX_SIXES, *attack, *SIX_SIXES], setup=(30, 30))
    table.do("anna", "garde tout")
    events = table.do("anna", "attaque @Ben")
    assert [r.hits for r in of(events, ev.AttackRolled)] == [1, 3, 5, 6, 6]
    assert of(events, ev.RollAllAgain) == [ev.RollAllAgain("anna", 6, 5)]
    assert of(events, ev.Damaged)[0].damage == 36
    assert table.hp("ben") == -6


def test_K5_A1_seed_example_attack_without_target_turns_on_the_attacker() -> None:
    table = Table([2, 2, 2, 1, 1, 1, 2, 4, 5, 6, *SIX_SIXES], setup=(30, 30))
    table.do("anna", "garde tout")  # 8: attack of 3
    events = table.do("anna", "attaque")
    assert of(events, ev.AttackTurned) == [ev.AttackTurned("anna", 3)]
    assert of(events, ev.Unharmed) == [ev.Unharmed("anna", "anna", 3, 30)]  # "il a bien de la chance"
    assert of(events, ev.Damaged) == []  # no "loses 0 hit points (0 × 3)"


def test_K5_A1_an_attack_turned_on_the_attacker_does_hurt() -> None:
    table = Table([2, 2, 2, 1, 1, 3, 3, 1, 2, 4, 1, 2, 4, *SIX_SIXES], setup=(30, 30))
    table.do("anna", "garde tout")
    table.do("anna", "attaque")
    assert table.hp("anna") == 30 - 6
    assert table.hp("ben") == 30


# K5-D1 dying


def test_K5_D1_zero_is_not_dying_below_zero_is() -> None:
    table = Table([2, 2, 1, 1, 1, 4, 4, 4, 1, 2, 1, 2], setup=(30, 12))
    table.do("anna", "garde tout")
    table.do("anna", "attaque ben")
    assert (table.hp("ben"), table.status("ben")) == (0, "alive")

    table = Table([2, 2, 1, 1, 1, 4, 4, 4, 1, 2, 1, 2], setup=(30, 11))
    table.do("anna", "garde tout")
    events = table.do("anna", "attaque ben")
    assert (table.hp("ben"), table.status("ben")) == (-1, "dying")
    assert of(events, ev.Dying) == [ev.Dying("ben", -1)]


def test_K5_D1_own_miss_below_zero_makes_the_player_dying() -> None:
    table = Table([6, 3, 3, 3, 3, *SIX_SIXES], setup=(5, 30))
    table.do("anna", "garde tout")  # 18: −6
    assert (table.hp("anna"), table.status("anna")) == (-1, "dying")


ATTACK_OF_12 = [2, 2, 1, 1, 1, 4, 4, 4, 1, 2, 1, 2]  # anna keeps 7 (an attack of 4), three 4s, then none


@pytest.mark.parametrize(
    ("hp", "modes", "said"),
    [
        (6, [], ev.Dying("ben", -6)),  # a regeneration of 6 still brings ben back to 0
        (5, [], ev.DyingBeyondRescue("ben", -7, 6, 11, 24)),  # no regeneration can: the suicide attack
        (5, ["mythic"], ev.DyingMythicRescue("ben", -7, 11, 24)),  # only a mythic +1, then a 6
        (4, ["mythic"], ev.DyingBeyondRescue("ben", -8, 7, 11, 24)),
    ],
)
def test_K5_D1_below_minus_six_only_the_suicide_attack_is_left_and_the_croupier_says_so(
    hp: int, modes: list[str], said: ev.KillerEvent
) -> None:
    table = position(
        {"anna": ("alive", 30), "ben": ("alive", hp)}, "anna", ATTACK_OF_12, options={"modes": modes}
    )
    table.do("anna", "garde tout")
    events = table.do("anna", "attaque ben")
    assert table.status("ben") == "dying"
    dying = [e for e in events if isinstance(e, ev.Dying | ev.DyingMythicRescue | ev.DyingBeyondRescue)]
    assert dying == [said]


def test_K5_D1_a_dying_player_pushed_past_any_regeneration_is_told_so_once() -> None:
    table = position(
        {"anna": ("alive", 30), "ben": ("dying", -3)}, "anna", [2, 2, 1, 1, 1, 4, 1, 2, 3, 5, 1, 2, 3, 5]
    )
    table.do("anna", "garde tout")
    events = table.do("anna", "attaque ben")  # one 4: −7
    assert of(events, ev.DyingBeyondRescue) == [ev.DyingBeyondRescue("ben", -7, 6, 11, 24)]
    table = position(
        {"anna": ("alive", 30), "ben": ("dying", -1)}, "anna", [2, 2, 1, 1, 1, 4, 1, 2, 3, 5, 1, 2, 3, 5]
    )
    table.do("anna", "garde tout")
    events = table.do("anna", "attaque ben")  # −5: a regeneration can still save ben, nothing new to say
    assert kinds(events).count("killer.dying") + kinds(events).count("killer.dying_beyond_rescue") == 0


def test_K5_D1_a_deciding_turn_s_own_loss_is_not_announced_as_a_next_turn() -> None:
    table = position({"anna": ("alive", 30), "ben": ("dying", -3)}, "ben", [6, 3, 3, 3, 3, *SIX_SIXES])
    events = table.do("ben", "garde tout")  # 18: −6, and the deciding turn is over
    assert kinds(events)[:3] == ["killer.kept", "killer.missed", "killer.died"]
    assert of(events, ev.DyingBeyondRescue) == []


def test_K5_D1_regeneration_back_to_zero_saves() -> None:
    table = position({"anna": ("alive", 30), "ben": ("dying", -5)}, "ben", [3, 2, 2, 2, 2, 5])
    events = table.do("ben", "garde tout")
    assert of(events, ev.Saved) == [ev.Saved("ben", 0)]
    assert table.status("ben") == "alive"


def test_K5_D1_regeneration_that_stays_below_zero_leaves_the_player_dead() -> None:
    table = position({"anna": ("alive", 30), "ben": ("dying", -5)}, "ben", [3, 2, 2, 2, 2, 4, *SIX_SIXES])
    events = table.do("ben", "garde tout")
    assert of(events, ev.Died) == [ev.Died("ben", -1)]
    assert table.status("ben") == "dead"


def test_K5_D1_a_miss_on_the_deciding_turn_is_death() -> None:
    table = position({"anna": ("alive", 30), "ben": ("dying", -5)}, "ben", [5, 6, 4, 4, 4])
    table.do("ben", "garde tout")
    assert (table.status("ben"), table.hp("ben")) == ("dead", -6)


def test_K5_D1_an_attack_on_the_deciding_turn_is_a_suicide_attack() -> None:
    table = position(
        {"anna": ("alive", 30), "ben": ("dying", -9), "carl": ("alive", 30)},
        "ben",
        [5, 6, 6, 4, 4, 1, 1, 2, 3, 4, 1, 5, 5, *SIX_SIXES],
    )
    events = table.do("ben", "garde tout")  # 25: attack of 1 though below −6
    assert of(events, ev.SuicideAttack) == [ev.SuicideAttack("ben", 1)]
    events = table.do("ben", "attaque carl")
    assert table.hp("carl") == 30 - 3
    assert of(events, ev.Died) == [ev.Died("ben", -9)]
    assert table.to_act == "carl"


# K5-E1 the end


def test_K5_E1_last_player_alive_wins_at_the_end_of_the_cycle() -> None:
    # anna's attack leaves ben dying: the game goes on to ben's deciding turn
    table = Table([2, 2, 1, 1, 1, 4, 4, 4, 1, 2, 1, 2, 5, 6, 4, 4, 4], setup=(30, 7))
    table.do("anna", "garde tout")
    table.do("anna", "attaque ben")
    assert not KILLER.finished(table.state)
    assert table.to_act == "ben"
    events = table.do("ben", "garde tout")  # 23: a miss, ben is dead
    assert kinds(events)[-2:] == ["killer.died", "killer.won"]
    assert KILLER.summary(table.state)["winner"] == "anna"
    assert KILLER.finished(table.state)


def test_K5_E1_everyone_dead_means_no_winner() -> None:
    cycle_one = [6, 6, 6, 6, 6, 6, 1, 2, 3, 4, 1, 2, 3, 4]  # anna: attack of 6 on ben, one hit
    ben_suicide = [6, 6, 6, 6, 6, 6, 1, 2, 3, 4, 1, 2, 3, 4]  # ben: same on anna
    anna_miss = [5, 6, 4, 4, 4]
    table = Table([*cycle_one, *ben_suicide, *anna_miss], setup=(5, 5))
    table.do("anna", "garde tout")
    table.do("anna", "attaque ben")
    table.do("ben", "garde tout")
    table.do("ben", "attaque anna")
    # end of cycle 1: anna, dying, is alone in the game: she plays on
    assert (table.status("anna"), table.status("ben")) == ("dying", "dead")
    assert not KILLER.finished(table.state)
    assert table.to_act == "anna"
    events = table.do("anna", "garde tout")
    assert kinds(events)[-2:] == ["killer.died", "killer.no_winner"]
    assert KILLER.summary(table.state)["winner"] is None
    assert KILLER.finished(table.state)


def test_K5_E1_a_lone_dying_player_saved_wins() -> None:
    table = position({"anna": ("dying", -3), "ben": ("dead", -8)}, "anna", [3, 2, 2, 2, 2, 6])
    events = table.do("anna", "garde tout")
    assert kinds(events)[-2:] == ["killer.saved", "killer.won"]
    assert table.state.winner == "anna"
    assert table.hp("anna") == 3


def test_K5_E1_the_game_goes_on_while_more_than_one_is_in_it() -> None:
    # only anna is safe, but ben and carl, both dying, still have their deciding turns
    table = position(
        {"anna": ("alive", 30), "ben": ("alive", 4), "carl": ("dying", -2)},
        "anna",
        [6, 6, 6, 6, 6, 6, 1, 2, 3, 4, 1, 2, 3, 4, 5, 6, 4, 4, 4],
    )
    table.do("anna", "garde tout")
    table.do("anna", "attaque ben")  # 6 damage: ben dying at −2, then ben's turn (his deciding one)
    assert table.to_act == "ben"
    assert not table.state.over
    assert table.status("ben") == "dying"


# K5-R1 rolls as soon as due


def test_K5_R1_start_rolls_the_first_setup_dice_and_keeps_roll_again_at_once() -> None:
    table = Table([6, 6, 1, 2, 3, 5, 5, 4, *SIX_SIXES])
    table.do("mod", Start())
    assert table.dice.position == 5
    assert table.roll == (6, 6, 1, 2, 3)
    events = table.do("anna", "garde 6 6")
    assert kinds(events) == ["killer.kept", "killer.rolled", "killer.keep_asked"]
    assert table.dice.position == 8


def test_K5_R1_the_regeneration_die_is_rolled_right_after_the_keep() -> None:
    table = Table([3, 2, 2, 2, 2, 4, *SIX_SIXES], setup=(30, 30))
    events = table.do("anna", "garde tout")
    assert kinds(events)[:3] == ["killer.kept", "killer.regeneration_earned", "killer.regenerated"]


def test_K5_R1_dead_players_are_skipped_outside_zombie_mode() -> None:
    table = position(
        {"anna": ("alive", 30), "ben": ("dead", -3), "carl": ("alive", 30)},
        "anna",
        [5, 6, 4, 4, 4, *SIX_SIXES],
    )
    events = table.do("anna", "garde tout")
    assert of(events, ev.TurnStarted)[0].player == "carl"


def test_K5_R1_a_roll_due_after_the_last_line_is_not_made_when_the_dice_run_out() -> None:
    table = Table([5, 6, 4, 4, 4], setup=(30, 30))  # no dice for ben's first roll
    table.do("anna", "garde tout")
    assert table.to_act == "ben"
    assert table.state.turn is not None
    assert table.state.turn.due
    assert KILLER.summary(table.state)["finished"] is False
    before = KILLER.dump(table.state)
    with pytest.raises(DiceExhausted):
        KILLER.apply(table.state, "ben", KILLER.parse("garde tout"), table.dice)  # type: ignore[arg-type]
    assert KILLER.dump(table.state) == before


def test_K5_R1_start_without_dice_leaves_the_setup_roll_due() -> None:
    table = Table([])
    table.do("mod", Start())
    assert table.state.started
    assert table.to_act == "anna"
    assert table.state.turn is not None
    assert table.state.turn.due
    assert not table.state.over


def test_K5_R1_a_single_die_left_is_kept_without_asking() -> None:
    table = Table([6, 6, 6, 6, 1, 3, *SIX_SIXES])
    table.do("mod", Start())
    events = table.do("anna", "garde 6 6 6 6")
    assert of(events, ev.LastDieKept) == [ev.LastDieKept("anna", 3, (6, 6, 6, 6, 3), 27)]
