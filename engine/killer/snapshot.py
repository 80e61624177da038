"""The one JSON form of a Killer state, as the store and the tests keep it (``dump``/``load``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from engine.killer.classic import Classic
from engine.killer.rules import Rules
from engine.killer.state import KillerState, Player, Turn
from engine.killer.variant import Variant

# How a snapshot names its variant: a ``classic`` flag among the rules.
VARIANTS: Mapping[bool, Variant] = {False: Variant(), True: Classic()}


def dump(state: KillerState) -> dict[str, Any]:
    """The canonical JSON form (tuples become lists)."""
    classic = next(flag for flag, variant in VARIANTS.items() if variant == state.variant)
    rules = dataclasses.asdict(state.rules)
    turn = state.turn
    return {
        "rules": {"dice": rules.pop("dice"), "classic": classic, **rules},
        "players": [dataclasses.asdict(player) for player in state.players],
        "started": state.started,
        "order": list(state.order),
        "turn": None if turn is None else _plain(dataclasses.asdict(turn)),
        "cycle": state.cycle,
        "over": state.over,
        "winner": state.winner,
    }


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value


def load(data: Mapping[str, Any]) -> KillerState:
    rules = dict(data["rules"])
    variant = VARIANTS[bool(rules.pop("classic", False))]
    turn = data.get("turn")
    return KillerState(
        variant=variant,
        rules=Rules(**rules),
        players=tuple(Player(**player) for player in data.get("players", ())),
        started=bool(data.get("started", False)),
        order=tuple(data.get("order", ())),
        turn=None if turn is None else _turn(turn),
        cycle=int(data.get("cycle", 0)),
        over=bool(data.get("over", False)),
        winner=data.get("winner"),
    )


def _turn(data: Mapping[str, Any]) -> Turn:
    fields = dict(data)
    fields["kept"] = tuple(fields.get("kept", ()))
    fields["roll"] = tuple(fields.get("roll", ()))
    return Turn(**fields)
