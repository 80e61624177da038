"""Who may act (§6): the running Spiel's owner, else the first Jungfrau in the queue.

With parallel play every Jungfrau may start and every running Spiel answers to its owner. In shuffled
order nobody plays before the moderator's Start, which fixes the order.
"""

from __future__ import annotations

from engine.verflixte6.state import JUNGFRAU, PLAYING, SHUFFLED, Durchgang, find


def waiting_for_start(state: Durchgang) -> bool:
    return state.options.order == SHUFFLED and not state.started


def to_act(state: Durchgang) -> str | None:
    if state.closed:
        return None
    for participant in state.participants:
        if participant.role == PLAYING:
            return participant.id
    if waiting_for_start(state):
        return None
    for participant in state.participants:
        if participant.role == JUNGFRAU:
            return participant.id
    return None


def can_act(state: Durchgang, pid: str) -> bool:
    participant = find(state, pid)
    if state.closed or participant is None:
        return False
    if participant.role == PLAYING:
        return True
    if participant.role != JUNGFRAU or waiting_for_start(state):
        return False
    return state.options.parallel or to_act(state) == pid
