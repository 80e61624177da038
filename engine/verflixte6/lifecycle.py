"""The Durchgang around the Spiele: sign-up, the moderator's start/skip/remove, timeouts, the close (V6-R6).

Moderator rights are the service's business (``Command.moderator_only``); here only the rules apply.
"""

from __future__ import annotations

from engine.dice import RecordingDice, randbelow
from engine.errors import IllegalCommand, NotYourTurn
from engine.game import Join, Leave, Remove, Skip, Start, Timeout
from engine.records import evolve
from engine.verflixte6 import decisions, players, throws
from engine.verflixte6 import events as ev
from engine.verflixte6.state import (
    DID_NOT_PLAY,
    JUNGFRAU,
    PLAYING,
    PRINZESSIN,
    SHUFFLED,
    ZOMBIE,
    Participant,
    find,
    ids_with_role,
)
from engine.verflixte6.step import Step
from engine.verflixte6.turns import can_act, to_act


def join(step: Step, command: Join) -> None:
    """Sign up as Jungfrau at the end of the queue; a returning Jungfrau keeps the balance she left with."""
    if find(step.state, step.subject) is not None:
        raise IllegalCommand("already_joined", player=step.subject)
    returning = next((p for p in step.state.departed if p.id == step.subject), None)
    points = returning.points if returning is not None else 0
    name = command.name.strip() or step.subject
    step.state = evolve(
        step.state,
        participants=(*step.state.participants, Participant(id=step.subject, name=name, points=points)),
        departed=tuple(p for p in step.state.departed if p.id != step.subject),
    )
    position = len(step.state.participants)
    step.emit(ev.Joined(player=step.subject, name=name, points=points, position=position))


def leave(step: Step, command: Leave) -> None:
    participant = find(step.state, step.subject)
    if participant is None:
        raise NotYourTurn("not_signed_up", player=to_act(step.state))
    if participant.role != JUNGFRAU:
        raise IllegalCommand("cannot_leave", player=participant.id, role=participant.role)
    _depart(step, participant)
    step.emit(ev.Left(player=participant.id, points=participant.points))


def remove(step: Step, command: Remove) -> None:
    participant = _waiting_jungfrau(step, command.target)
    _depart(step, participant)
    step.emit(ev.Removed(player=participant.id, points=participant.points))


def skip(step: Step, command: Skip) -> None:
    participant = _waiting_jungfrau(step, command.target)
    _to_end(step, participant.id)


def start(step: Step, command: Start) -> None:
    """End the sign-up phase; in shuffled order the queued Jungfrauen are shuffled with the dice."""
    state = step.state
    if state.started or any(p.role != JUNGFRAU for p in state.participants):
        raise IllegalCommand("already_started")
    order = list(ids_with_role(state, JUNGFRAU))
    faces: tuple[int, ...] = ()
    if state.options.order == SHUFFLED:
        dice = RecordingDice(step)
        for i in range(len(order) - 1, 0, -1):  # Fisher–Yates
            j = randbelow(dice, i + 1)
            order[i], order[j] = order[j], order[i]
        faces = tuple(dice.faces)
        by_id = {p.id: p for p in state.participants}
        state = evolve(state, participants=tuple(by_id[pid] for pid in order))
    step.state = evolve(state, started=True)
    step.emit(ev.Started(order=state.options.order, players=tuple(order), faces=faces))


def timeout(step: Step, command: Timeout) -> None:
    """§6: a running Spiel gets its safe default and is stopped; a waiting Jungfrau goes to the end.

    The timeout concerns the sender when the sender is a participant who may act (the service names
    the slow player), else the participant the game waits for.
    """
    subject = step.subject if can_act(step.state, step.subject) else to_act(step.state)
    if subject is None:
        raise IllegalCommand("nobody_to_act")
    step.subject = subject
    step.emit(ev.TimedOut(player=subject))
    if step.player.role == PLAYING:
        decisions.default(step)
        if step.running:
            throws.stop(step)
    else:
        _to_end(step, subject)


def close(step: Step) -> None:
    """V6-R6: defaults, running Spiele stopped, Prinzessinnen at 0 or below become Zombies at 0."""
    for pid in ids_with_role(step.state, PLAYING):
        step.subject = pid
        decisions.default(step)
        if step.running:
            throws.stop(step)
    for participant in step.state.participants:
        step.subject = participant.id
        if participant.role == PRINZESSIN and participant.points <= 0:
            step.update(participant.id, role=ZOMBIE, points=0)
            step.emit(ev.Zombified(player=participant.id, delta=-participant.points, total=0))
        elif participant.role == JUNGFRAU:
            step.update(participant.id, role=DID_NOT_PLAY, points=0)
            step.emit(ev.DidNotPlay(player=participant.id, delta=-participant.points, total=0))
    step.state = evolve(step.state, closed=True)
    if ids_with_role(step.state, PRINZESSIN, ZOMBIE):
        step.emit(ev.Closed(players=tuple(p.id for p in step.state.participants)))
    else:
        step.emit(ev.ClosedEmpty())


def _waiting_jungfrau(step: Step, target: str) -> Participant:
    pid = players.resolve(step.state, target)
    participant = step.get(pid)
    if participant.role != JUNGFRAU:
        waiting = list(ids_with_role(step.state, JUNGFRAU))
        raise IllegalCommand("not_a_jungfrau", target=pid, role=participant.role, players=waiting)
    return participant


def _depart(step: Step, participant: Participant) -> None:
    step.state = evolve(
        step.state,
        participants=tuple(p for p in step.state.participants if p.id != participant.id),
        departed=(
            *(p for p in step.state.departed if p.id != participant.id),
            evolve(participant, spiel=None),
        ),
    )


def _to_end(step: Step, pid: str) -> None:
    moved = step.get(pid)
    step.state = evolve(
        step.state, participants=(*(p for p in step.state.participants if p.id != pid), moved)
    )
    step.emit(ev.Skipped(player=pid))
