"""The rule text's worked examples as a replay script (tests/golden), run the way ``croupier replay``
runs it: open, Join each player in order, Start, then parse and apply each line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.dice import ScriptedDice
from engine.errors import CroupierError, DiceExhausted
from engine.game import Join, Start
from engine.killer import KILLER, KILLER_CLASSIC

GOLDEN = Path(__file__).resolve().parents[2] / "golden"  # the golden files every replay test shares
NAMES = ("killer_seed_examples.json", "killer_seed_examples.expected.json")


def replay(script: dict[str, Any]) -> dict[str, Any]:
    game = {"killer": KILLER, "killer-classic": KILLER_CLASSIC}[script["game"]]
    dice = ScriptedDice(script["dice"])
    state = game.open(script.get("options", {}))
    for player in script["players"]:
        state, _ = game.apply(state, player, Join(player), dice)
    state, _ = game.apply(state, "moderator", Start(), dice)
    refused = []
    for number, line in enumerate(script["lines"], start=1):
        command = game.parse(line["text"])
        if command is None:
            continue
        try:
            state, _ = game.apply(state, line["from"], command, dice)
        except DiceExhausted:
            raise
        except CroupierError:
            refused.append(number)
    return {**game.summary(state), "dice_left": dice.left, "refused_lines": refused}


def test_K5_A1_K5_D1_K5_E1_seed_examples_replay_to_the_expected_result() -> None:
    """K5-S1 setup by garde tout, K5-O1 score 7 → attack of 4, K5-A1 12 damage, K5-D1 suicide attack
    of 1 on a score of 25, K5-E1 the last one alive wins at the end of the cycle."""
    script, expected = (json.loads((GOLDEN / name).read_text(encoding="utf-8")) for name in NAMES)
    assert replay(script) == expected
