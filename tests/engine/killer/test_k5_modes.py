"""Optional modes of the 5-dice Killer: Terminator (K5-T1), Zombie (K5-Z1), Jets mythiques (K5-M1)."""

from __future__ import annotations

from engine.errors import IllegalCommand
from engine.killer import KILLER
from engine.killer import events as ev
from engine.killer.health import gain
from engine.killer.state import Player

from .helpers import Table, kinds, of, position

SIX_SIXES = [6, 6, 6, 6, 6]
TERMINATOR = {"modes": ["terminator"]}
ZOMBIE = {"modes": "zombie"}
MYTHIC = {"modes": ["mythic"]}


# K5-T1 Terminator


def test_K5_T1_coming_back_by_regeneration_makes_a_level_1_terminator() -> None:
    table = position(
        {"anna": ("alive", 30), "ben": ("dying", -4)}, "ben", [3, 2, 2, 2, 2, 5], options=TERMINATOR
    )
    events = table.do("ben", "garde tout")
    assert of(events, ev.TerminatorLevel) == [ev.TerminatorLevel("ben", 1)]
    assert table.state.player("ben").terminator == 1
    assert table.game.summary(table.state)["players"]["ben"] == {"status": "alive", "hp": 1, "terminator": 1}


def test_K5_T1_without_the_mode_nobody_becomes_terminator() -> None:
    table = position({"anna": ("alive", 30), "ben": ("dying", -4)}, "ben", [3, 2, 2, 2, 2, 5])
    table.do("ben", "garde tout")
    assert table.state.player("ben").terminator == 0
    assert table.status("ben") == "alive"


def test_K5_T1_levels_stack_with_each_return() -> None:
    table = position(
        {"anna": ("alive", 30), "ben": ("dying", -2)}, "ben", options=TERMINATOR, terminator={"ben": 1}
    )
    state, events = gain(table.state, "ben", 3, regeneration=True)
    assert state.player("ben").terminator == 2
    assert events == [ev.TerminatorLevel("ben", 2)]
    same, none = gain(table.state, "ben", 1, regeneration=True)  # −2 + 1 stays below 0
    assert same.player("ben").terminator == 1
    assert none == []


def test_K5_T1_an_immune_terminator_cannot_be_chosen_as_target() -> None:
    table = position(
        {"anna": ("alive", 30), "ben": ("alive", 10)},
        "anna",
        [5, 6, 6, 4, 4],
        options=TERMINATOR,
        terminator={"ben": 1},
    )
    table.do("anna", "garde tout")  # 25: attack of 1
    error = table.refuse("anna", "attaque ben", IllegalCommand, "killer_target_immune")
    assert error.facts == {"target": "ben", "value": 1, "level": 1}
    assert table.step == "target"  # asked again


def test_K5_T1_the_attack_of_6_always_works() -> None:
    immune = KILLER.variant.immune
    assert immune(_player(level=5), 5)
    assert not immune(_player(level=5), 6)
    assert not immune(_player(level=6), 6)
    table = position(
        {"anna": ("alive", 30), "ben": ("alive", 10)},
        "anna",
        [*SIX_SIXES, 6, 1, 2, 3, 4, 1, 2, 3, 4],
        options=TERMINATOR,
        terminator={"ben": 6},
    )
    table.do("anna", "garde tout")
    table.do("anna", "attaque ben")
    assert table.hp("ben") == 4


def test_K5_T1_an_attack_turned_on_an_immune_attacker_is_rolled_but_does_nothing() -> None:
    table = position(
        {"anna": ("alive", 30), "ben": ("alive", 10)},
        "ben",
        [5, 6, 6, 4, 4, 1, 1, 2, 3, 4, 2, 3, 4],
        options=TERMINATOR,
        terminator={"ben": 2},
    )
    table.do("ben", "garde tout")
    events = table.do("ben", "attaque")
    assert len(of(events, ev.AttackRolled)) == 2
    assert of(events, ev.Immune) == [ev.Immune("ben", "ben", 1, 2)]
    assert table.hp("ben") == 10


def _player(level: int) -> Player:
    return Player("x", "X", 5, "alive", level)


# K5-Z1 Zombie


def test_K5_Z1_a_dead_player_comes_back_as_a_zombie_on_5_or_6() -> None:
    table = position(
        {"anna": ("alive", 30), "ben": ("dead", -3), "carl": ("alive", 30)}, "ben", [5], options=ZOMBIE
    )
    assert kinds(table.events)[-3:] == [
        "killer.zombie_rolled",
        "killer.rose_as_zombie",
        "killer.turn_started",
    ]
    assert (table.status("ben"), table.hp("ben")) == ("zombie", 1)
    assert table.to_act == "carl"


def test_K5_Z1_otherwise_the_dead_player_stays_dead() -> None:
    table = position(
        {"anna": ("alive", 30), "ben": ("dead", -3), "carl": ("alive", 30)}, "ben", [4], options=ZOMBIE
    )
    assert of(table.events, ev.ZombieRolled) == [ev.ZombieRolled("ben", 4, False)]
    assert kinds(table.events)[-3:] == ["killer.zombie_rolled", "killer.still_dead", "killer.turn_started"]
    assert table.status("ben") == "dead"
    assert table.to_act == "carl"


def test_K5_Z1_a_zombie_announces_its_side_before_its_keep_phase() -> None:
    table = position(
        {"anna": ("alive", 30), "ben": ("zombie", 1), "carl": ("alive", 30)},
        "ben",
        [2, 2, 1, 1, 1],
        options=ZOMBIE,
    )
    # no die is rolled before the announcement
    assert table.step == "direction"
    assert table.dice.position == 0
    table.refuse("ben", "garde tout", IllegalCommand, "killer_expect_direction")


def test_K5_Z1_an_attack_on_the_announced_side_counts() -> None:
    table = position(
        {"anna": ("alive", 30), "ben": ("zombie", 1), "carl": ("alive", 30)},
        "ben",
        [2, 2, 1, 1, 1, 4, 1, 2, 3, 5, 1, 2, 3, 5, *SIX_SIXES],
        options=ZOMBIE,
    )
    events = table.do("ben", "bas")
    assert of(events, ev.AimedLow) == [ev.AimedLow("ben", 11)]
    table.do("ben", "garde tout")  # 7: attack of 4, below 11 as announced
    table.do("ben", "attaque anna")
    assert table.hp("anna") == 26


def test_K5_Z1_the_other_side_is_a_miss_that_turns_the_zombie_to_dust() -> None:
    table = position(
        {"anna": ("alive", 30), "ben": ("zombie", 1), "carl": ("alive", 30)},
        "ben",
        [2, 2, 1, 1, 1, *SIX_SIXES],
        options=ZOMBIE,
    )
    table.do("ben", "haut")
    events = table.do("ben", "garde tout")
    assert of(events, ev.WrongSide) == [ev.WrongSide("ben", 7, "high", 0)]
    assert of(events, ev.TurnedToDust) == [ev.TurnedToDust("ben", 0)]
    assert table.status("ben") == "dead"


def test_K5_Z1_a_zombie_hit_turns_to_dust_and_may_try_again_next_turn() -> None:
    table = position(
        {"anna": ("alive", 30), "ben": ("zombie", 1)},
        "anna",
        [2, 2, 1, 1, 1, 4, 1, 2, 3, 5, 1, 2, 3, 5, 6],
        options=ZOMBIE,
    )
    table.do("anna", "garde tout")
    events = table.do("anna", "attaque ben")
    assert of(events, ev.TurnedToDust) == [ev.TurnedToDust("ben", -3)]
    # ben's next turn is a zombie die again (the 6: back with 1 PDV)
    assert of(events, ev.ZombieRolled) == [ev.ZombieRolled("ben", 6, True)]
    assert (table.status("ben"), table.hp("ben")) == ("zombie", 1)


def test_K5_Z1_a_zombie_can_regenerate() -> None:
    table = position(
        {"anna": ("alive", 30), "ben": ("zombie", 1), "carl": ("alive", 30)},
        "ben",
        [3, 2, 2, 2, 2, 3],
        options=ZOMBIE,
    )
    table.do("ben", "haut")
    table.do("ben", "garde tout")  # exactly 11: a regeneration for a zombie too
    assert (table.status("ben"), table.hp("ben")) == ("zombie", 4)


def test_K5_Z1_a_zombie_never_wins_and_never_keeps_the_game_going() -> None:
    table = position(
        {"anna": ("dying", -3), "ben": ("zombie", 1)},
        "anna",
        [5, 6, 4, 4, 4, 3, 2, 2, 2, 2, 2],
        options=ZOMBIE,
    )
    table.do("anna", "garde tout")  # a miss on her deciding turn: dead
    table.do("ben", "haut")
    events = table.do("ben", "garde tout")  # the zombie regenerates, then the cycle ends
    assert table.status("ben") == "zombie"
    assert kinds(events)[-1] == "killer.no_winner"
    assert table.state.winner is None
    assert table.state.over


def test_K5_Z1_the_last_living_player_wins_whatever_zombies_remain() -> None:
    table = position(
        {"anna": ("alive", 9), "ben": ("zombie", 1)},
        "anna",
        [5, 6, 4, 4, 4, 3, 2, 2, 2, 2, 1],
        options=ZOMBIE,
    )
    table.do("anna", "garde tout")  # −1
    table.do("ben", "haut")
    events = table.do("ben", "garde tout")  # the zombie's turn ends the cycle
    assert of(events, ev.Won) == [ev.Won("anna", 8)]


# K5-M1 Jets mythiques


def test_K5_M1_a_first_roll_of_fives_and_sixes_gains_one_and_the_turn_goes_on() -> None:
    table = position({"anna": ("alive", 10), "ben": ("alive", 10)}, "anna", [5, 6, 6, 5, 5], options=MYTHIC)
    assert of(table.events, ev.Mythic) == [ev.Mythic("anna", (5, 6, 6, 5, 5), 1, 11)]
    assert table.step == "keep"
    assert table.roll == (5, 6, 6, 5, 5)


def test_K5_M1_a_first_roll_of_ones_and_twos_gains_one() -> None:
    table = position({"anna": ("alive", 10), "ben": ("alive", 10)}, "anna", [1, 2, 2, 1, 1], options=MYTHIC)
    assert table.hp("anna") == 11


def test_K5_M1_a_first_roll_of_threes_and_fours_loses_one_and_may_make_dying() -> None:
    table = position({"anna": ("alive", 0), "ben": ("alive", 10)}, "anna", [3, 4, 4, 3, 3], options=MYTHIC)
    assert (table.hp("anna"), table.status("anna")) == (-1, "dying")
    assert table.step == "keep"
    assert table.to_act == "anna"


def test_K5_M1_only_the_first_roll_of_a_turn_counts() -> None:
    table = position(
        {"anna": ("alive", 10), "ben": ("alive", 10)}, "anna", [6, 1, 3, 4, 2, 6, 6, 6, 6], options=MYTHIC
    )
    table.do("anna", "garde 6")
    assert table.roll == (6, 6, 6, 6)
    assert table.hp("anna") == 10
    assert of(table.events, ev.Mythic) == []


def test_K5_M1_not_in_setup_and_not_without_the_mode() -> None:
    # both setup rolls are all sixes: only the first roll of anna's turn is mythic
    table = Table([5, 5, 5, 5, 5], setup=(30, 30), options=MYTHIC)
    assert of(table.events, ev.Mythic) == [ev.Mythic("anna", (5, 5, 5, 5, 5), 1, 31)]
    assert table.hp("ben") == 30
    plain = position({"anna": ("alive", 10), "ben": ("alive", 10)}, "anna", [5, 6, 6, 5, 5])
    assert plain.hp("anna") == 10


def test_K5_M1_a_zombie_losing_its_point_turns_to_dust_at_once() -> None:
    table = position(
        {"anna": ("alive", 10), "ben": ("zombie", 1), "carl": ("alive", 10)},
        "ben",
        [3, 3, 4, 4, 3, 1, 2, 3, 4, 5],
        options={"modes": "zombie, mythic"},
    )
    table.do("ben", "bas")
    assert table.status("ben") == "dead"
    assert kinds(table.events)[-5:] == [
        "killer.mythic",
        "killer.turned_to_dust",
        "killer.turn_started",
        "killer.rolled",
        "killer.keep_asked",  # carl is asked, not ben: a prompt only ever follows the last move
    ]
    assert table.to_act == "carl"


def test_K5_M1_a_plus_one_makes_minus_seven_recoverable() -> None:
    table = position(
        {"anna": ("alive", 10), "ben": ("dying", -7)}, "ben", [6, 6, 6, 5, 5, 3, 3, 6], options=MYTHIC
    )
    assert table.hp("ben") == -6
    table.do("ben", "garde 6 6 6")
    events = table.do("ben", "garde tout")  # 24: a regeneration of 6 brings −6 back to 0
    assert of(events, ev.Saved) == [ev.Saved("ben", 0)]
