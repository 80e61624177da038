"""The replay example (the rule text's worked examples strung together) through parser and engine.

It reads the repository's golden copy, so the test needs nothing outside the checkout.
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.dice import ScriptedDice
from engine.errors import CroupierError
from engine.game import Close, Join
from engine.verflixte6 import GAME

GOLDEN = Path(__file__).resolve().parents[2] / "golden"


def test_V6_seed_examples_replay_gives_the_expected_table() -> None:
    script = json.loads((GOLDEN / "verflixte6_seed_examples.json").read_text(encoding="utf-8"))
    expected = json.loads((GOLDEN / "verflixte6_seed_examples.expected.json").read_text(encoding="utf-8"))
    assert script["game"] == GAME.name
    dice = ScriptedDice(script["dice"])
    state = GAME.open(script.get("options", {}))
    for player in script["players"]:
        state, _ = GAME.apply(state, player, Join(player), dice)
    refused: list[int] = []
    for number, line in enumerate(script["lines"], start=1):
        command = GAME.parse(line["text"])
        assert command is not None, line
        try:
            state, _ = GAME.apply(state, line["from"], command, dice)
        except CroupierError:
            refused.append(number)
    if script.get("close"):
        state, _ = GAME.apply(state, "moderator", Close(), dice)
    assert GAME.summary(state) == {"players": expected["players"]}
    assert dice.left == expected["dice_left"] == 0
    assert refused == expected["refused_lines"] == []
    assert GAME.finished(state)
