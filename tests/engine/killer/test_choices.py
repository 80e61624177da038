"""Buttons and selects (``choices``): every choice offered is a line the game accepts right then."""

from __future__ import annotations

import random

import pytest

from engine.game import Choice, Join, Start
from engine.killer import KILLER, KILLER_CLASSIC
from engine.killer.game import _KillerGame

from .helpers import SeededDice, Table, position


def _press(options: list[Choice], rng: random.Random) -> str:
    """The words of a random press: one button, or some options of one multi-select."""
    pick = rng.choice(options)
    if not pick.multi:
        return pick.words
    group = [choice for choice in options if choice.group == pick.group]
    chosen = rng.sample(group, rng.randint(1, len(group)))
    return pick.compose([choice.words for choice in chosen])


@pytest.mark.parametrize("seed", range(12))
def test_K5_R1_K6_A1_games_played_by_pressing_choices_only(seed: int) -> None:
    game: _KillerGame = KILLER_CLASSIC if seed % 3 == 0 else KILLER
    rng, dice = random.Random(seed), SeededDice(seed)
    modes = ["terminator", "zombie", "mythic"][: seed % 4]
    state = game.open({} if game is KILLER_CLASSIC else {"dice": 3 + seed % 3, "modes": modes})
    for name in ("anna", "ben", "carl")[: 2 + seed % 2]:
        state, _ = game.apply(state, name, Join(name), dice)
    state, _ = game.apply(state, "mod", Start(), dice)
    for _ in range(3000):
        if game.finished(state):
            break
        actor = game.to_act(state)
        assert actor is not None
        options = list(game.choices(state))
        assert options, state.turn
        command = game.parse(_press(options, rng))
        assert command is not None
        state, _ = game.apply(state, actor, command, dice)  # raises if a choice were not accepted
    assert game.finished(state)
    assert game.choices(state) == []


def test_K5_K1_keep_choices_are_the_dice_on_the_table() -> None:
    table = Table([6, 5, 2, 1, 1], setup=(30, 30))
    options = KILLER.choices(table.state)
    dice = [c for c in options if c.group == "keep"]
    assert [c.words for c in dice] == ["6", "5", "2", "1", "1"]
    assert dice[0].compose(["6", "1"]) == "garde 6 1"
    assert {c.words for c in options if not c.group} == {"garde tout", "auto", "conseil"}


def test_K5_T1_target_choices_leave_out_oneself_the_dead_and_the_immune() -> None:
    table = position(
        {"anna": ("alive", 30), "ben": ("alive", 30), "carl": ("dead", -3), "dora": ("alive", 30)},
        "anna",
        [5, 6, 6, 4, 4],
        options={"modes": ["terminator"]},
        terminator={"dora": 1},
    )
    table.do("anna", "garde tout")  # attack of 1
    words = [c.words for c in KILLER.choices(table.state)]
    assert words == ["attaque Ben", "attaque"]


def test_K5_Z1_a_zombie_chooses_its_side() -> None:
    table = position({"anna": ("alive", 30), "ben": ("zombie", 1)}, "ben", options={"modes": ["zombie"]})
    assert [(c.words, c.label) for c in KILLER.choices(table.state)] == [
        ("haut", "Plus de 24"),
        ("bas", "Moins de 11"),
    ]


def test_K6_A1_after_a_hit_attack_again_or_pass() -> None:
    table = Table([6] * 6 + [6, 1, 2, 3, 4, 5], setup=(30, 30), game=KILLER_CLASSIC)
    table.do("anna", "garde tout")
    table.do("anna", "attaque ben")
    assert [c.words for c in KILLER_CLASSIC.choices(table.state)] == ["attaque ben", "passe"]


def test_K5_R1_no_choices_while_a_roll_is_due_or_before_the_start() -> None:
    assert KILLER.choices(Table([]).state) == []
    pending = Table([])
    pending.do("mod", Start())
    assert KILLER.choices(pending.state) == []
