"""Matching a typed name (``anna``, ``@Anna``, ``<@123>``) to a participant, leniently."""

from __future__ import annotations

import re

from engine.commands import closest, fold
from engine.errors import InvalidCommand
from engine.killer.state import KillerState

_MENTION = re.compile(r"^<@!?(\w+)>$")


def resolve(state: KillerState, text: str) -> str:
    """The participant id ``text`` names; ``unknown_player`` with suggestions otherwise, or
    ``no_such_player`` with the players when no name comes close."""
    raw = text.strip()
    mention = _MENTION.match(raw)
    if mention:
        raw = mention.group(1)
    raw = raw.lstrip("@").strip()
    for player in state.players:
        if player.id == raw:
            return player.id
    folded = fold(raw)
    if folded:
        for player in state.players:
            if fold(player.name) == folded:
                return player.id
        for player in state.players:
            if fold(player.id) == folded:
                return player.id
    names = [player.name for player in state.players]
    suggestions = closest(raw, names) if folded else []
    if not suggestions:  # nothing close: say who is in the game instead of an empty "did you mean"
        raise InvalidCommand("no_such_player", name=text.strip(), players=[p.id for p in state.players])
    raise InvalidCommand("unknown_player", name=text, suggestions=suggestions)
