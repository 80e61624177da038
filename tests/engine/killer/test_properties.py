"""Property tests: random command sequences never crash nor corrupt a state; games end."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import CroupierError
from engine.game import Close, Join, Remove, Skip, Start, Timeout
from engine.killer import KILLER, KILLER_CLASSIC, Advice, Attack, Auto, Direction, Keep, KeepAll, Pass
from engine.killer.game import _KillerGame
from engine.killer.state import KillerState

from .helpers import SeededDice, sensible

NAMES = ("anna", "ben", "carl", "dora", "emil")
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


options = st.fixed_dictionaries(
    {
        "dice": st.integers(3, 6),
        "modes": st.lists(st.sampled_from(["terminator", "zombie", "mythic"]), unique=True),
    }
)

commands = st.one_of(
    st.builds(Keep, st.lists(st.integers(0, 7), max_size=4).map(tuple)),
    st.just(KeepAll()),
    st.just(Auto()),
    st.builds(Attack, st.one_of(st.none(), st.sampled_from([*NAMES, "@Ben", "zed"]))),
    st.just(Pass()),
    st.builds(Direction, st.sampled_from(["high", "low"])),
    st.just(Advice()),
    st.just(Timeout()),
    st.builds(Remove, st.sampled_from(NAMES)),
    st.builds(Skip, st.sampled_from(NAMES)),
    st.just(Close()),
    st.text(max_size=12),
)


def _check(game: _KillerGame, state: KillerState) -> None:
    assert game.load(game.dump(state)) == state
    if state.over:
        assert game.to_act(state) is None
        assert state.winner is None or state.player(state.winner).status == "alive"
    elif state.started:
        player = game.to_act(state)
        assert player is not None
        assert not state.player(player).removed
    for seat in game.table(state):
        assert seat.role in ("alive", "dying", "dead", "zombie")


@SETTINGS
@given(
    classic=st.booleans(),
    options=options,
    players=st.integers(1, 5),
    seed=st.integers(0, 2**32),
    script=st.lists(st.tuples(st.sampled_from([*NAMES, "mod"]), commands), max_size=60),
)
def test_K5_R1_random_commands_never_crash_and_refusals_change_nothing(
    classic: bool, options: dict[str, Any], players: int, seed: int, script: list[tuple[str, Any]]
) -> None:
    game = KILLER_CLASSIC if classic else KILLER
    dice = SeededDice(seed)
    state = game.open({} if classic else options)
    for name in NAMES[:players]:
        state, _ = game.apply(state, name, Join(name), dice)
    script = [("mod", Start()), *script]
    for actor, item in script:
        if isinstance(item, str):
            try:
                parsed = game.parse(item)
            except CroupierError:
                continue
            if parsed is None:
                continue
            item = parsed
        before = game.dump(state)
        try:
            state, events = game.apply(state, actor, item, dice)
        except CroupierError:
            assert game.dump(state) == before
            continue
        for event in events:
            assert event.to_json()["kind"].startswith("killer.")
        _check(game, state)


@SETTINGS
@given(classic=st.booleans(), options=options, players=st.integers(2, 5), seed=st.integers(0, 2**32))
def test_K5_E1_K6_E1_every_game_with_enough_dice_ends(
    classic: bool, options: dict[str, Any], players: int, seed: int
) -> None:
    game = KILLER_CLASSIC if classic else KILLER
    dice = SeededDice(seed)
    rng = random.Random(seed + 1)
    state = game.open({} if classic else options)
    for name in NAMES[:players]:
        state, _ = game.apply(state, name, Join(name), dice)
    state, _ = game.apply(state, "mod", Start(), dice)
    for _ in range(5000):
        if game.finished(state):
            break
        actor = game.to_act(state)
        assert actor is not None
        state, _ = game.apply(state, actor, sensible(game, state, rng), dice)
        _check(game, state)
    assert game.finished(state)
    summary = game.summary(state)
    assert summary["finished"] is True
    if summary["winner"] is not None:
        assert summary["players"][summary["winner"]]["status"] == "alive"
