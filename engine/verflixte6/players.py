"""Finding a participant from what a player typed: an id, a display name, "@name" or a Discord mention."""

from __future__ import annotations

import re

from engine.commands import closest, fold
from engine.errors import InvalidCommand
from engine.verflixte6.state import Durchgang

_MENTION = re.compile(r"^<@!?(\w+)>$")


def clean(text: str) -> str:
    text = text.strip()
    mention = _MENTION.match(text)
    if mention:
        return mention.group(1)
    return text.lstrip("@").strip()


def resolve(state: Durchgang, text: str) -> str:
    """The participant id ``text`` names; unknown or ambiguous names are refused with suggestions (or,
    when no name comes close, with who is in the Durchgang)."""
    wanted = clean(text)
    for participant in state.participants:
        if participant.id == wanted:
            return participant.id
    key = fold(wanted)
    by_id = [p.id for p in state.participants if fold(p.id) == key]
    if len(by_id) == 1:
        return by_id[0]
    by_name = [p.id for p in state.participants if fold(p.name) == key]
    if len(by_name) == 1:
        return by_name[0]
    if len(by_name) > 1:
        raise InvalidCommand("ambiguous_player", name=wanted, players=by_name)
    names = [p.name for p in state.participants]
    suggestions = closest(wanted, names) if key else []
    if not suggestions:  # nothing close: say who is in the Durchgang instead of an empty "perhaps"
        raise InvalidCommand("no_such_player", name=wanted, players=[p.id for p in state.participants])
    raise InvalidCommand("unknown_player", name=wanted, suggestions=suggestions)
