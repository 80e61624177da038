"""Every refusal: the right error class and code, and nothing changes (state, dice)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import IllegalCommand, InvalidCommand, InvalidOptions, NotYourTurn
from engine.game import Join, Leave, Remove, Skip, Start, Timeout
from engine.killer import KILLER, KILLER_CLASSIC, Keep
from engine.killer.commands import Attack, Direction, Pass

from .helpers import Table, kinds, position

SIX_SIXES = [6, 6, 6, 6, 6]


def in_keep_phase() -> Table:
    return Table([6, 5, 2, 1, 1], setup=(30, 30))


def in_target_phase() -> Table:
    """anna holds an attack of 1; carl is dead."""
    table = position(
        {"anna": ("alive", 30), "ben": ("alive", 30), "carl": ("dead", -2)}, "anna", [5, 6, 6, 4, 4]
    )
    table.do("anna", "garde tout")
    return table


def test_K5_R1_wrong_player_is_refused_with_the_player_awaited() -> None:
    table = in_keep_phase()
    error = table.refuse("ben", "garde 6", NotYourTurn, "not_your_turn")
    assert error.facts["player"] == "anna"
    table.refuse("stranger", "auto", NotYourTurn, "not_your_turn")


@pytest.mark.parametrize(
    ("command", "code"),
    [
        pytest.param("attaque ben", "killer_expect_keep", id="K5-K1 attack while keeping"),
        pytest.param(Direction("high"), "killer_expect_keep", id="K5-Z1 side announced by a living player"),
        pytest.param(Pass(), "killer_expect_keep", id="K5-K1 pass while keeping"),
    ],
)
def test_K5_K1_wrong_phase_is_refused(command: Any, code: str) -> None:
    in_keep_phase().refuse("anna", command, IllegalCommand, code)


@pytest.mark.parametrize(
    "command",
    [
        pytest.param("garde 6", id="K5-A1 keep while a target is awaited"),
        pytest.param(Pass(), id="K5-A1 no passing an attack in the 5-dice game"),
    ],
)
def test_K5_A1_wrong_phase_while_a_target_is_awaited(command: Any) -> None:
    error = in_target_phase().refuse("anna", command, IllegalCommand, "killer_expect_target")
    assert error.facts == {"player": "anna", "value": 1}


def test_K5_K1_keeping_values_not_rolled_is_refused() -> None:
    table = in_keep_phase()
    error = table.refuse("anna", "garde 6 6", IllegalCommand, "killer_not_rolled")
    assert error.facts == {"values": [6, 6], "roll": [6, 5, 2, 1, 1]}
    table.refuse("anna", "garde 4", IllegalCommand, "killer_not_rolled")


def test_K5_K1_keeping_none_is_refused() -> None:
    table = in_keep_phase()
    with pytest.raises(InvalidCommand) as info:
        KILLER.parse("garde")
    assert info.value.code == "killer_keep_none"
    table.refuse("anna", Keep(()), InvalidCommand, "killer_keep_none")
    table.refuse("anna", Keep((7,)), InvalidCommand, "killer_bad_die")


def test_K5_T1_attacking_oneself_by_name_is_refused() -> None:
    table = in_target_phase()
    table.refuse("anna", "attaque anna", IllegalCommand, "killer_self_target")
    table.refuse("anna", "attaque @Anna", IllegalCommand, "killer_self_target")


def test_K5_A1_attacking_a_dead_player_or_nobody_known_is_refused() -> None:
    table = in_target_phase()
    error = table.refuse("anna", "attaque carl", IllegalCommand, "killer_target_out")
    assert error.facts == {"target": "carl"}
    error = table.refuse("anna", "attaque bne", InvalidCommand, "unknown_player")
    assert error.facts["name"] == "bne"
    assert error.facts["suggestions"] == ["Ben"]


def test_K5_T1_attacking_an_immune_terminator_is_refused() -> None:
    table = position(
        {"anna": ("alive", 30), "ben": ("alive", 30)},
        "anna",
        [5, 6, 6, 4, 4],
        options={"modes": ["terminator"]},
        terminator={"ben": 3},
    )
    table.do("anna", "garde tout")
    table.refuse("anna", "attaque ben", IllegalCommand, "killer_target_immune")


RANGE = {"minimum": 3, "maximum": 10}  # every refusal of a number of dice says the valid range


@pytest.mark.parametrize(
    ("options", "code", "facts"),
    [
        pytest.param({"dice": 2}, "killer_too_few_dice", {"dice": 2, **RANGE}, id="K5-S1 two dice"),
        pytest.param({"dice": "1"}, "killer_too_few_dice", {"dice": 1, **RANGE}, id="K5-S1 one die"),
        pytest.param({"dice": 11}, "killer_too_many_dice", {"dice": 11, **RANGE}, id="K5-S1 eleven"),
        pytest.param({"dice": "cinq"}, "killer_bad_dice", {"value": "cinq", **RANGE}, id="K5-S1 words"),
        pytest.param({"dice": True}, "killer_bad_dice", {"value": "True", **RANGE}, id="K5-S1 boolean"),
        pytest.param(
            {"modes": ["zombi"]},
            "killer_unknown_mode",
            {"mode": "zombi", "valid": ["terminator", "zombie", "mythic"]},
            id="mode",
        ),
        pytest.param(
            {"modes": "foo"},
            "killer_unknown_mode",
            {"mode": "foo", "valid": ["terminator", "zombie", "mythic"]},
            id="mode nothing like any",
        ),
        pytest.param({"mode": "zombie"}, "killer_unknown_option", None, id="unknown option"),
    ],
)
def test_K5_S1_bad_options_are_refused(
    options: dict[str, Any], code: str, facts: dict[str, Any] | None
) -> None:
    with pytest.raises(InvalidCommand) as info:
        KILLER.open(options)
    assert info.value.code == code
    if facts is not None:
        assert dict(info.value.facts) == facts


def test_K5_S1_every_bad_option_is_refused_at_once() -> None:
    """A moderator hears of every bad option in one answer: one refusal each, in the options' order
    (unknown names, then the dice, then the modes); a single bad option stays a plain refusal."""
    with pytest.raises(InvalidOptions) as info:
        KILLER.open({"modes": "zombie,foo", "dice": 12, "colour": "red"})
    codes = [error.code for error in info.value.errors]
    assert codes == ["killer_unknown_option", "killer_too_many_dice", "killer_unknown_mode"]
    assert info.value.code == codes[0]
    with pytest.raises(InvalidOptions) as info:
        KILLER_CLASSIC.open({"dice": 5, "modes": "zombie"})
    assert [error.code for error in info.value.errors] == ["killer_classic_dice", "killer_classic_modes"]
    with pytest.raises(InvalidCommand) as single:
        KILLER.open({"dice": 12})
    assert not isinstance(single.value, InvalidOptions)


def test_K6_S1_the_older_game_has_six_dice_and_no_modes() -> None:
    assert KILLER_CLASSIC.open({}).rules.dice == 6
    assert KILLER_CLASSIC.open({"dice": 6, "modes": []}) == KILLER_CLASSIC.open({})
    for options, code in (
        ({"dice": 5}, "killer_classic_dice"),
        ({"modes": "zombie"}, "killer_classic_modes"),
    ):
        with pytest.raises(InvalidCommand) as info:
            KILLER_CLASSIC.open(options)
        assert info.value.code == code


def test_K5_S1_signup_refusals() -> None:
    table = Table(players=("anna",))
    table.refuse("mod", Start(), IllegalCommand, "killer_not_enough_players")
    table.refuse("anna", Join("Anna"), IllegalCommand, "killer_already_joined")
    table.refuse("ben", Join("ANNA"), IllegalCommand, "killer_name_taken")
    table.refuse("ben", Join("  "), InvalidCommand, "killer_empty_name")
    table.refuse("ben", Leave(), IllegalCommand, "killer_not_a_player")
    table.refuse("anna", "garde 6", IllegalCommand, "killer_not_started")
    table.refuse("anna", Timeout(), IllegalCommand, "killer_not_started")
    table.refuse("mod", Remove("zed"), InvalidCommand, "no_such_player")  # nothing close: who is in
    assert table.refuse("mod", Remove("ana"), InvalidCommand, "unknown_player").facts["suggestions"] == [
        "anna"
    ]


def test_K5_S1_refusals_once_started() -> None:
    table = in_keep_phase()
    table.refuse("carl", Join("carl"), IllegalCommand, "killer_already_started")
    table.refuse("ben", Leave(), IllegalCommand, "killer_leave_started")
    table.refuse("mod", Skip("ben"), IllegalCommand, "killer_fixed_order")
    table.refuse("mod", Start(), IllegalCommand, "killer_already_started")


def test_K5_E1_nothing_after_the_end_but_advice() -> None:
    table = position({"anna": ("alive", 9), "ben": ("dead", -3)}, "anna", [5, 6, 4, 4, 4])
    table.do("anna", "garde tout")
    assert table.state.over
    table.refuse("anna", "garde 6", IllegalCommand, "killer_over")
    table.refuse("mod", Remove("ben"), IllegalCommand, "killer_over")
    table.refuse("anna", Join("x"), IllegalCommand, "killer_over")
    before = table.state
    assert kinds(table.do("anna", "conseil")) == ["killer.phase_odds"]
    assert table.state is before


def test_K5_S1_removing_twice_is_refused() -> None:
    table = Table(SIX_SIXES * 4, players=("anna", "ben", "carl"), setup=(30, 30, 30))
    table.do("mod", Remove("carl"))
    table.refuse("mod", Remove("carl"), IllegalCommand, "killer_already_out")


def test_K6_A1_an_attack_without_target_is_refused_with_a_reminder() -> None:
    table = Table([6] * 6, setup=(30, 30), game=KILLER_CLASSIC)
    table.do("anna", "garde tout")
    error = table.refuse("anna", Attack(None), IllegalCommand, "killer_target_required")
    assert error.facts == {"player": "anna", "value": 6}
    table.refuse("anna", "attaque anna", IllegalCommand, "killer_self_target")
