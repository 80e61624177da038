"""A line the parser refused as malformed, answered for the Durchgang as it stands (``Game.misread``).

The parser reads a line without the game, so it cannot know whose turn it is or which jokers are in
play; here both are known. Who may act comes first: a line from anyone else gets the refusal their
move would get (V6-S1 turn order). An unknown joker is then matched against the jokers the player
may name now — those in the Durchgang before the Freiwurf (V6-S2), the announced ones still in hand
after it (V6-S3) — so a suggestion is never one the rules would refuse next.
"""

from __future__ import annotations

from itertools import takewhile

from engine.errors import CroupierError, IllegalCommand, InvalidCommand
from engine.verflixte6.choices import playable
from engine.verflixte6.jokers import registry
from engine.verflixte6.state import JUNGFRAU, Durchgang, Participant
from engine.verflixte6.turns import require_turn

_UNKNOWN_JOKER = frozenset({"unknown_joker", "no_such_joker"})


def misread(state: Durchgang, actor: str, error: InvalidCommand) -> CroupierError:
    """What ``actor`` is told about a line the parser refused with ``error``."""
    if state.closed:
        return IllegalCommand("closed")
    try:
        participant = require_turn(state, actor)
    except CroupierError as barred:
        return barred
    if error.code in _UNKNOWN_JOKER:
        return _joker_meant(state, participant, str(error.facts.get("name", "")))
    return error


def _joker_meant(state: Durchgang, participant: Participant, name: str) -> InvalidCommand:
    """``name`` matched against every joker; the best matches are offered while they are jokers the
    participant may name now. A name closest to one they may not play ("Monokle" without the
    Monokel) gets no far-fetched guess among theirs, but the plain list of what they hold."""
    if participant.role == JUNGFRAU:
        allowed = list(state.options.jokers)
    else:
        spiel = participant.spiel
        allowed = playable(spiel) if spiel is not None else []
    suggestions = list(takewhile(allowed.__contains__, registry.suggest(name)))
    if suggestions:
        return InvalidCommand("unknown_joker", name=name, suggestions=suggestions)
    if participant.role == JUNGFRAU:
        return InvalidCommand("no_such_joker", name=name)
    if allowed:
        return InvalidCommand("unknown_joker_held", name=name, jokers=allowed)
    return InvalidCommand("unknown_joker_none_held", name=name)
