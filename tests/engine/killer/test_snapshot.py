"""The Killer snapshot (engine/killer/snapshot.py): states from real play round-trip through JSON,
snapshots stored before the format had a version still load, and anything else is refused by code."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.texts import LANGUAGES, game_catalogue
from engine.dice import ScriptedDice
from engine.errors import CroupierError, InvalidCommand
from engine.game import Join, Start
from engine.killer import KILLER, KILLER_CLASSIC, KillerState, Turn
from engine.killer.game import _KillerGame
from engine.killer.snapshot import FORMAT

from .helpers import SeededDice, Table, sensible

# As the store holds them from before the format had a version: a 5-dice game (three dice, every
# mode) in the middle of dora's keep phase, and an older-revision game where anna may attack again.
STORED_KILLER: dict[str, Any] = {
    "rules": {"dice": 3, "classic": False, "terminator": True, "zombie": True, "mythic": True},
    "players": [
        {"id": "ben", "name": "Ben", "hp": 1, "status": "zombie", "terminator": 0, "removed": False},
        {"id": "carl", "name": "Carl", "hp": 3, "status": "alive", "terminator": 1, "removed": False},
        {"id": "dora", "name": "Dora", "hp": 10, "status": "alive", "terminator": 0, "removed": False},
    ],
    "started": True,
    "order": ["ben", "carl", "dora"],
    "turn": {
        "player": "dora",
        "step": "keep",
        "kept": [4],
        "roll": [6, 4],
        "direction": None,
        "deciding": False,
        "regenerated": False,
        "value": 0,
        "target": None,
        "hits": 0,
        "left": 0,
    },
    "cycle": 12,
    "over": False,
    "winner": None,
}
STORED_CLASSIC: dict[str, Any] = {
    "rules": {"dice": 6, "classic": True, "terminator": False, "zombie": False, "mythic": False},
    "players": [
        {"id": "anna", "name": "Anna", "hp": 30, "status": "alive", "terminator": 0, "removed": False},
        {"id": "ben", "name": "Ben", "hp": 18, "status": "alive", "terminator": 0, "removed": False},
    ],
    "started": True,
    "order": ["anna", "ben"],
    "turn": {
        "player": "anna",
        "step": "again",
        "kept": [6, 6, 6, 6, 6, 6],
        "roll": [],
        "direction": None,
        "deciding": False,
        "regenerated": False,
        "value": 6,
        "target": None,
        "hits": 0,
        "left": 0,
    },
    "cycle": 1,
    "over": False,
    "winner": None,
}


def _played(game: _KillerGame, seed: int) -> Iterator[KillerState]:
    """Every state of one seeded game: sign-up, setup, turns, the end."""
    rng, dice = random.Random(seed), SeededDice(seed)
    modes = ["terminator", "zombie", "mythic"][: seed % 4]
    state = game.open({} if game is KILLER_CLASSIC else {"dice": 3 + seed % 4, "modes": modes})
    yield state
    for name in ("anna", "ben", "carl", "dora")[: 2 + seed % 3]:
        state, _ = game.apply(state, name, Join(name.capitalize()), dice)
        yield state
    state, _ = game.apply(state, "mod", Start(), dice)
    yield state
    while not game.finished(state):
        actor = game.to_act(state)
        assert actor is not None
        state, _ = game.apply(state, actor, sensible(game, state, rng), dice)
        yield state


@pytest.mark.parametrize(
    ("game", "steps"),
    [
        (KILLER, {None, "setup", "keep", "direction", "target"}),
        (KILLER_CLASSIC, {None, "setup", "keep", "target", "again"}),
    ],
    ids=["killer", "killer-classic"],
)
def test_K5_R1_K6_A1_states_from_real_play_round_trip_through_json(
    game: _KillerGame, steps: set[str | None]
) -> None:
    seen: set[str | None] = set()
    for seed in range(12):
        for state in _played(game, seed):
            data = game.dump(state)
            assert data["format"] == FORMAT
            text = json.dumps(data, ensure_ascii=False, sort_keys=True)
            assert game.load(json.loads(text)) == state
            assert game.dump(game.load(json.loads(text))) == data
            seen.add(None if state.turn is None else state.turn.step)
    assert steps <= seen  # the games went through every step a snapshot can be taken at


def test_K5_R1_a_roll_left_due_survives_a_reload() -> None:
    table = Table([5, 6, 4, 4, 4], setup=(30, 30))  # no dice left for ben's first roll
    table.do("anna", "garde tout")
    reloaded = KILLER.load(json.loads(json.dumps(KILLER.dump(table.state))))
    assert reloaded == table.state
    assert reloaded.turn is not None
    assert reloaded.turn.due


@pytest.mark.parametrize(
    ("game", "stored"), [(KILLER, STORED_KILLER), (KILLER_CLASSIC, STORED_CLASSIC)], ids=["killer", "classic"]
)
def test_K5_K1_K6_A1_a_snapshot_stored_without_a_version_is_the_first_format(
    game: _KillerGame, stored: dict[str, Any]
) -> None:
    state = game.load(copy.deepcopy(stored))
    assert game.dump(state) == {"format": 1, **stored}
    assert state.variant == game.variant


def test_K5_K1_a_stored_game_plays_on_after_loading() -> None:
    state = KILLER.load(copy.deepcopy(STORED_KILLER))
    command = KILLER.parse("garde 6")
    assert command is not None
    after, events = KILLER.apply(state, "dora", command, ScriptedDice([1]))  # 4 + 6 + 1 = 11: −1
    assert [e.kind() for e in events] == [
        "killer.kept",
        "killer.last_die_kept",
        "killer.missed",
        "killer.turn_started",
        "killer.direction_asked",
    ]
    assert after.player("dora").hp == 9
    assert after.turn == Turn("ben", "direction")  # the zombie announces its side first


def test_K6_A1_a_stored_classic_game_offers_its_choices_after_loading() -> None:
    state = KILLER_CLASSIC.load(copy.deepcopy(STORED_CLASSIC))
    assert [c.words for c in KILLER_CLASSIC.choices(state)] == ["attaque Ben", "passe"]


@pytest.mark.parametrize("version", [0, 2, 99, "1", 1.0, True, None, [1]])
def test_an_unknown_format_is_refused_with_a_code_the_catalogue_knows(version: object) -> None:
    with pytest.raises(InvalidCommand) as caught:
        KILLER.load({**STORED_KILLER, "format": version})
    assert caught.value.code == "unsupported_format"
    assert dict(caught.value.facts) == {"version": version, "expected": FORMAT}
    for lang in LANGUAGES:
        assert "error.unsupported_format" in game_catalogue((KILLER.catalogue, KILLER.name), lang)


DELETE = object()


def _changed(data: dict[str, Any], path: tuple[str | int, ...], value: object) -> dict[str, Any]:
    changed = copy.deepcopy(data)
    node: Any = changed
    for key in path[:-1]:
        node = node[key]
    if value is DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return changed


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        (("rules",), [], "rules"),
        (("rules", "dice"), "5", "rules.dice"),
        (("rules", "dice"), True, "rules.dice"),
        (("rules", "dice"), 2, "rules.dice"),
        (("rules", "classic"), "no", "rules.classic"),
        (("rules", "zombie"), 1, "rules.zombie"),
        (("rules", "speed"), 3, "rules.speed"),
        (("players",), {}, "players"),
        (("players", 0), "ben", "players[0]"),
        (("players", 0, "id"), DELETE, "players[0].id"),
        (("players", 0, "id"), 7, "players[0].id"),
        (("players", 1, "id"), "ben", "players"),
        (("players", 0, "hp"), "1", "players[0].hp"),
        (("players", 0, "hp"), None, "players[0].hp"),
        (("players", 0, "status"), "ghost", "players[0].status"),
        (("players", 0, "terminator"), -1, "players[0].terminator"),
        (("players", 0, "removed"), 0, "players[0].removed"),
        (("players", 0, "mood"), "grim", "players[0].mood"),
        (("order",), "ben", "order"),
        (("order", 1), "zed", "order[1]"),
        (("order", 1), "ben", "order[1]"),
        (("order", 2), None, "order[2]"),
        (("turn",), [], "turn"),
        (("turn", "player"), "zed", "turn.player"),
        (("turn", "player"), DELETE, "turn.player"),
        (("turn", "step"), "dance", "turn.step"),
        (("turn", "step"), "again", "turn.step"),  # only the older revision attacks again
        (("turn", "kept", 0), 7, "turn.kept[0]"),
        (("turn", "roll"), "64", "turn.roll"),
        (("turn", "roll"), [1, 1, 1], "turn.roll"),
        (("turn", "direction"), "left", "turn.direction"),
        (("turn", "target"), "zed", "turn.target"),
        (("turn", "value"), 7, "turn.value"),
        (("turn", "hits"), -1, "turn.hits"),
        (("cycle",), -1, "cycle"),
        (("started",), "yes", "started"),
        (("over",), None, "over"),
        (("winner",), "zed", "winner"),
        (("colour",), "red", "colour"),
    ],
)
def test_malformed_snapshots_are_refused_naming_the_field(
    path: tuple[str | int, ...], value: object, field: str
) -> None:
    with pytest.raises(InvalidCommand) as caught:
        KILLER.load(_changed(STORED_KILLER, path, value))
    assert caught.value.code == "killer_bad_snapshot"
    assert dict(caught.value.facts) == {"field": field}


@pytest.mark.parametrize(
    ("game", "stored", "path", "value", "field"),
    [
        (KILLER_CLASSIC, STORED_CLASSIC, ("rules", "dice"), 5, "rules"),
        (KILLER_CLASSIC, STORED_CLASSIC, ("rules", "zombie"), True, "rules"),
        (KILLER, STORED_CLASSIC, ("cycle",), 1, "rules.classic"),  # the other rule text's snapshot
        (KILLER_CLASSIC, STORED_KILLER, ("cycle",), 1, "rules.classic"),
    ],
)
def test_K6_S1_a_snapshot_must_fit_its_rule_text(
    game: _KillerGame, stored: dict[str, Any], path: tuple[str, ...], value: object, field: str
) -> None:
    with pytest.raises(InvalidCommand) as caught:
        game.load(_changed(stored, path, value))
    assert (caught.value.code, dict(caught.value.facts)) == ("killer_bad_snapshot", {"field": field})


def test_a_snapshot_that_is_no_object_is_refused() -> None:
    with pytest.raises(InvalidCommand) as caught:
        KILLER.load([])  # type: ignore[arg-type]
    assert (caught.value.code, dict(caught.value.facts)) == ("killer_bad_snapshot", {"field": "snapshot"})


def _paths(value: Any, prefix: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    if prefix:
        yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*prefix, index))


WORDS = st.sampled_from(["ben", "zed", "keep", "again", "target", "zombie", ""])
LEAVES = st.none() | st.booleans() | st.integers(-3, 40) | WORDS
JSON = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(WORDS, inner, max_size=2),
    max_leaves=6,
)


@settings(max_examples=300, deadline=None)
@given(
    stored=st.sampled_from([STORED_KILLER, STORED_CLASSIC]),
    pick=st.integers(0, 10**6),
    value=JSON | st.just(DELETE),
)
def test_any_damaged_snapshot_loads_or_is_refused_by_code(
    stored: dict[str, Any], pick: int, value: object
) -> None:
    paths = list(_paths(stored))
    game = KILLER_CLASSIC if stored is STORED_CLASSIC else KILLER
    damaged = _changed(stored, paths[pick % len(paths)], value)
    codes = []
    try:
        state = game.load(damaged)
    except CroupierError as error:  # a refusal, never a KeyError or TypeError
        codes.append(error.code)
    if codes:
        assert codes in (["unsupported_format"], ["killer_bad_snapshot"])
        return
    assert game.load(game.dump(state)) == state
    game.table(state)
    game.choices(state)
