"""The canonical JSON snapshot: every state round-trips, old formats are refused."""

from __future__ import annotations

import json

import pytest

from engine.dice import ScriptedDice
from engine.errors import InvalidCommand
from engine.game import Close
from engine.verflixte6 import GAME
from engine.verflixte6.state import FORMAT

from .cases import ZOO_PLAYERS
from .helpers import Table


def states() -> list[Table]:
    t = Table("anna", "ben", jokers="+Sekante", parallel=True)
    t.begin("anna", 3, ["Sicherheitsventil", "Monokel", "Sekante"])
    t.say("anna", "weiter mit Joker Ventil", 4)
    snapshots = [Table("x")]
    mid = Table("anna", "ben")
    mid.begin("anna", 2, ["Monokel"])
    mid.say("anna", "weiter mit Joker Monokel", 2, 4)  # pending with faces
    snapshots += [t, mid]
    closed = Table(*ZOO_PLAYERS[:3])
    closed.begin("anna", 2)
    closed.do("mod", Close())
    snapshots.append(closed)
    return snapshots


@pytest.mark.parametrize("index", range(4))
def test_V6_snapshot_round_trips_through_json(index: int) -> None:
    state = states()[index].state
    data = GAME.dump(state)
    assert data["format"] == FORMAT
    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    assert GAME.load(json.loads(text)) == state
    assert GAME.dump(GAME.load(json.loads(text))) == data


def test_V6_snapshot_pending_decision_survives_a_reload() -> None:
    mid = states()[2]
    reloaded = GAME.load(json.loads(json.dumps(GAME.dump(mid.state))))
    command = GAME.parse("wiederholen")
    assert command is not None
    after, events = GAME.apply(reloaded, "anna", command, ScriptedDice([5, 5]))
    assert after.participants[0].points == 2 + 10
    assert events[0].kind() == "v6.monokel_repeated"


@pytest.mark.parametrize("data", [{"format": 99}, {}, {"format": FORMAT, "options": {}}])
def test_V6_snapshot_refuses_unknown_formats(data: dict[str, object]) -> None:
    with pytest.raises(InvalidCommand) as caught:
        GAME.load(data)
    assert caught.value.code == "unsupported_format"
