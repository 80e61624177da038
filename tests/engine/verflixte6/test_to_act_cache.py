"""GAME.to_act keeps its last answer per state object: it must match a fresh count on every state."""

from __future__ import annotations

from engine.dice import ScriptedDice
from engine.game import Join
from engine.verflixte6 import GAME
from engine.verflixte6.commands import Continue, Stop
from engine.verflixte6.turns import to_act


def test_V6_to_act_kept_per_state_matches_a_fresh_answer() -> None:
    dice = ScriptedDice([3, 4, 5, 2, 2, 3] * 10)
    states = [GAME.open({})]
    for actor, command in [
        ("a", Join("Anna")),
        ("b", Join("Bea")),
        ("a", Continue()),
        ("a", Continue()),
        ("a", Stop()),
        ("b", Continue()),
    ]:
        state, _ = GAME.apply(states[-1], actor, command, dice)
        states.append(state)
    answers = [to_act(state) for state in states]
    assert len(set(answers)) > 1  # the turn moves on, so a stale answer would show
    for state, answer in zip(states, answers, strict=True):
        assert GAME.to_act(state) == answer
        assert GAME.to_act(state) == answer  # kept
    for state, answer in reversed(list(zip(states, answers, strict=True))):
        assert GAME.to_act(state) == answer
