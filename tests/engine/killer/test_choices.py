"""Buttons and selects (``choices``): every choice offered is a line the game accepts right then, and
its label comes from the catalogue (``choice.<action>`` over its facts) in every language."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot.texts import LANGUAGES, game_catalogue, render
from engine.game import Choice, Join, Start
from engine.killer import KILLER, KILLER_CLASSIC, KillerState
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


def _pressed_game(game: _KillerGame, seed: int) -> Iterator[tuple[KillerState, list[Choice]]]:
    """A seeded game played by pressing only what ``choices`` offers; each state with its choices."""
    rng, dice = random.Random(seed), SeededDice(seed)
    modes = ["terminator", "zombie", "mythic"][: seed % 4]
    state = game.open({} if game is KILLER_CLASSIC else {"dice": 3 + seed % 3, "modes": modes})
    for name in ("anna", "ben", "carl")[: 2 + seed % 2]:
        state, _ = game.apply(state, name, Join(name.capitalize()), dice)
    state, _ = game.apply(state, "mod", Start(), dice)
    for _ in range(3000):
        if game.finished(state):
            break
        actor = game.to_act(state)
        assert actor is not None
        options = list(game.choices(state))
        assert options, state.turn
        yield state, options
        command = game.parse(_press(options, rng))
        assert command is not None
        state, _ = game.apply(state, actor, command, dice)  # raises if a choice were not accepted
    assert game.finished(state)
    assert game.choices(state) == []


@pytest.mark.parametrize("seed", range(12))
def test_K5_R1_K6_A1_games_played_by_pressing_choices_only(seed: int) -> None:
    game: _KillerGame = KILLER_CLASSIC if seed % 3 == 0 else KILLER
    assert sum(1 for _ in _pressed_game(game, seed)) > 0


ACTIONS = {
    KILLER.name: {"keep_die", "keep_all", "auto", "advice", "high", "low", "attack", "attack_self"},
    KILLER_CLASSIC.name: {"keep_die", "keep_all", "auto", "advice", "attack", "pass"},
}


@pytest.mark.parametrize("game", [KILLER, KILLER_CLASSIC], ids=["killer", "killer-classic"])
def test_every_choice_label_renders_from_the_catalogue_in_every_language(game: _KillerGame) -> None:
    scope = (game.catalogue, game.name)
    seen: set[str] = set()
    for seed in range(8):
        for state, options in _pressed_game(game, seed):
            names = {seat.player: seat.name for seat in game.table(state)}
            for choice in options:
                seen.add(choice.action)
                key = f"choice.{choice.action}"
                for lang in LANGUAGES:
                    assert key in game_catalogue(scope, lang), (lang, key)
                    label = render(key, choice.facts, lang, names.__getitem__, scope=scope)
                    assert label.strip()
                    assert "{" not in label
                    assert "[choice." not in label
    assert seen == ACTIONS[game.name]


def test_K5_K1_keep_choices_are_the_dice_on_the_table() -> None:
    table = Table([6, 5, 2, 1, 1], setup=(30, 30))
    options = KILLER.choices(table.state)
    assert [(c.action, c.words, dict(c.facts), c.group, c.multi) for c in options] == [
        ("keep_die", "6", {"face": 6}, "keep", True),
        ("keep_die", "5", {"face": 5}, "keep", True),
        ("keep_die", "2", {"face": 2}, "keep", True),
        ("keep_die", "1", {"face": 1}, "keep", True),
        ("keep_die", "1", {"face": 1}, "keep", True),
        ("keep_all", "garde tout", {}, "", False),
        ("auto", "auto", {}, "", False),
        ("advice", "conseil", {}, "", False),
    ]
    assert options[0].compose(["6", "1"]) == "garde 6 1"
    assert [c.tone for c in options[-3:]] == ["go", "go", ""]
    scope = (KILLER.catalogue, KILLER.name)
    labels = [render(f"choice.{c.action}", c.facts, "de", scope=scope) for c in options]
    assert labels == ["6", "5", "2", "1", "1", "Alle behalten", "Automatisch", "Rat"]


def test_K5_T1_target_choices_leave_out_oneself_the_dead_and_the_immune() -> None:
    table = position(
        {"anna": ("alive", 30), "ben": ("alive", 30), "carl": ("dead", -3), "dora": ("alive", 30)},
        "anna",
        [5, 6, 6, 4, 4],
        options={"modes": ["terminator"]},
        terminator={"dora": 1},
    )
    table.do("anna", "garde tout")  # attack of 1
    assert [(c.action, c.words, dict(c.facts), c.tone) for c in KILLER.choices(table.state)] == [
        ("attack", "attaque Ben", {"target": "ben"}, "good"),
        ("attack_self", "attaque", {}, "halt"),
    ]


def test_K5_Z1_a_zombie_chooses_its_side() -> None:
    table = position({"anna": ("alive", 30), "ben": ("zombie", 1)}, "ben", options={"modes": ["zombie"]})
    options = KILLER.choices(table.state)
    assert [(c.action, c.words, dict(c.facts)) for c in options] == [
        ("high", "haut", {"value": 24}),
        ("low", "bas", {"value": 11}),
    ]
    scope = (KILLER.catalogue, KILLER.name)
    assert [render(f"choice.{c.action}", c.facts, "fr", scope=scope) for c in options] == [
        "Plus de 24",
        "Moins de 11",
    ]


def test_K6_A1_after_a_hit_attack_again_or_pass() -> None:
    table = Table([6] * 6 + [6, 1, 2, 3, 4, 5], setup=(30, 30), game=KILLER_CLASSIC)
    table.do("anna", "garde tout")
    table.do("anna", "attaque ben")
    assert [(c.action, c.words, dict(c.facts)) for c in KILLER_CLASSIC.choices(table.state)] == [
        ("attack", "attaque ben", {"target": "ben"}),
        ("pass", "passe", {}),
    ]


def test_K5_R1_no_choices_while_a_roll_is_due_or_before_the_start() -> None:
    assert KILLER.choices(Table([]).state) == []
    pending = Table([])
    pending.do("mod", Start())
    assert KILLER.choices(pending.state) == []
