"""Who may act (§6): the running Spiel's owner, else the first Jungfrau in the queue.

With parallel play every Jungfrau may start and every running Spiel answers to its owner. In shuffled
order nobody plays before the moderator's Start, which fixes the order.
"""

from __future__ import annotations

from engine.errors import IllegalCommand, NotYourTurn
from engine.verflixte6.state import (
    DID_NOT_PLAY,
    JUNGFRAU,
    PLAYING,
    PRINZESSIN,
    SHUFFLED,
    ZOMBIE,
    Durchgang,
    Participant,
    find,
)


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
    return participant is not None and _may_act(state, participant)


def _may_act(state: Durchgang, participant: Participant) -> bool:
    if state.closed:
        return False
    if participant.role == PLAYING:
        return True
    if participant.role != JUNGFRAU or waiting_for_start(state):
        return False
    return state.options.parallel or to_act(state) == participant.id


def acting(state: Durchgang) -> frozenset[str]:
    """Everyone :func:`can_act` allows now, found in one pass over the participants (the table marks
    each seat, and asking :func:`can_act` seat by seat scans the participants again for every one)."""
    if state.closed:
        return frozenset()
    playing = [p.id for p in state.participants if p.role == PLAYING]
    if waiting_for_start(state):
        return frozenset(playing)
    jungfrauen = [p.id for p in state.participants if p.role == JUNGFRAU]
    if state.options.parallel:
        return frozenset(playing + jungfrauen)
    return frozenset(playing or jungfrauen[:1])  # one at a time: a running Spiel, else the queue's head


def require_turn(state: Durchgang, pid: str) -> Participant:
    """The participant ``pid``, when they may make a move of their Spiel now; else the refusal any
    such move gets (not signed up — with how to join —, Spiel over, not started, not their turn)."""
    participant = find(state, pid)
    if participant is None:  # a spectator: told how to join, which is open while the Durchgang is
        raise NotYourTurn("join_first", player=to_act(state))
    if participant.role in (PRINZESSIN, ZOMBIE, DID_NOT_PLAY):
        raise IllegalCommand("spiel_over", player=participant.id, role=participant.role)
    if waiting_for_start(state):
        raise IllegalCommand("not_started")
    if not _may_act(state, participant):
        raise NotYourTurn("not_your_turn", player=to_act(state))
    return participant
