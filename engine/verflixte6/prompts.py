"""What a Durchgang waits on now, as the events a move's answer ends with (``Game.prompt``).

A move's own events already end with it (the Jungfrau called up, the words valid in a running Spiel,
the question a step asked); this says it for a state reached otherwise — a move taken back by
``/undo`` — so that answer, too, names the player to act and what they may type.
"""

from __future__ import annotations

from engine.verflixte6 import events as ev
from engine.verflixte6.answers import VALID, VICTIM
from engine.verflixte6.choices import running_words
from engine.verflixte6.jokers import beefmaker
from engine.verflixte6.robbery import eligible
from engine.verflixte6.state import JUNGFRAU, PLAYING, Durchgang, find
from engine.verflixte6.turns import can_act, to_act


def prompt(state: Durchgang) -> list[ev.V6Event]:
    """The player to act and the words valid for them; nothing while nobody may act."""
    pid = to_act(state)
    participant = find(state, pid) if pid is not None else None
    if state.closed or participant is None or not can_act(state, participant.id):
        return []
    if participant.role == JUNGFRAU:
        return [ev.NextUp(next_player=participant.id)]
    spiel = participant.spiel
    if participant.role != PLAYING or spiel is None:  # pragma: no cover - can_act allows nothing else
        return []
    pending = spiel.pending
    if pending is None:
        return [ev.MoveAsked(player=participant.id, valid=running_words(spiel))]
    if pending.decision == VICTIM:
        exclude = state.beefmaker_victims if pending.source == beefmaker.NAME else ()
        victims = eligible(state, participant.id, exclude)
        return [ev.VictimAsked(player=participant.id, amount=pending.amount, victims=victims)]
    return [ev.DecisionAsked(player=participant.id, valid=VALID[pending.decision])]
