"""The step function: one command by one participant → the new state and the events to announce.

Phases are read off the participant (a Jungfrau before her Freiwurf, a running Spiel, a Spiel waiting
on a decision) and each accepts a fixed set of commands; anything else is refused with a code, and a
refusal never changes the state handed in (it is immutable; the step works on its own copy).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.dice import DiceSource
from engine.errors import IllegalCommand, InvalidCommand
from engine.game import Close, Command, Join, Leave, Remove, Skip, Start, Timeout
from engine.verflixte6 import decisions, lifecycle, throws
from engine.verflixte6 import events as ev
from engine.verflixte6.answers import ANSWERS
from engine.verflixte6.choices import running_words
from engine.verflixte6.commands import ChooseJokers, Continue, PlayJoker, Stop
from engine.verflixte6.jokers import registry
from engine.verflixte6.jokers.spec import ONCE
from engine.verflixte6.state import (
    JUNGFRAU,
    MAX_JOKERS,
    PLAYING,
    Durchgang,
    Spiel,
    find,
)
from engine.verflixte6.step import Step
from engine.verflixte6.turns import require_turn, to_act

_LIFECYCLE: dict[type[Command], Callable[[Step, Any], None]] = {
    Join: lifecycle.join,
    Leave: lifecycle.leave,
    Start: lifecycle.start,
    Skip: lifecycle.skip,
    Remove: lifecycle.remove,
    Close: lambda step, command: lifecycle.close(step),
    Timeout: lifecycle.timeout,
}
_SPIEL: tuple[type[Command], ...] = (ChooseJokers, Continue, PlayJoker, Stop, *ANSWERS)
BEFORE_FREIWURF = ("Joker: A, B, C", "weiter")  # what a Jungfrau may say (V6-S2, V6-S3)


def apply(
    state: Durchgang, actor: str, command: Command, dice: DiceSource
) -> tuple[Durchgang, Sequence[ev.V6Event]]:
    if state.closed:
        raise IllegalCommand("closed")
    before = to_act(state)
    playing = before is not None or _someone_to_play(state)  # someone to act is someone to play
    step = Step(state, actor, dice, registry.JOKERS)
    handler = _LIFECYCLE.get(type(command))
    if handler is not None:
        handler(step, command)
    elif isinstance(command, _SPIEL):
        _spiel(step, command)
        _ask(step)
    else:
        raise InvalidCommand("unknown_command", command=type(command).__name__)
    after = to_act(step.state)
    _announce_next(step, before, after)
    if (
        playing
        and after is None  # else someone is to play
        and not _someone_to_play(step.state)
        and step.state.participants
        and not step.state.closed
    ):
        step.events.append(ev.AllPlayed())
    return step.state, tuple(step.events)


def _someone_to_play(state: Durchgang) -> bool:
    # A plain loop: asked around a move, and any() over a generator resumes a frame per participant.
    for participant in state.participants:
        if participant.role == JUNGFRAU or participant.role == PLAYING:
            return True
    return False


def _ask(step: Step) -> None:
    """A Spiel that goes on with nothing pending: tell its owner the words valid now."""
    spiel = step.spiel
    if step.running and spiel.pending is None:
        step.events.append(ev.MoveAsked(player=step.subject, valid=running_words(spiel)))


def _spiel(step: Step, command: Command) -> None:
    participant = require_turn(step.state, step.subject)
    if participant.role == JUNGFRAU:
        _before_freiwurf(step, command)
        return
    if step.spiel.pending is not None:
        decisions.answer(step, command)
        step.finish()
        return
    if isinstance(command, Continue):
        throws.normal_throw(step)
        step.finish()
    elif isinstance(command, PlayJoker):
        _play_joker(step, command.joker)
        step.finish()
    elif isinstance(command, Stop):
        throws.stop(step)
    elif isinstance(command, ChooseJokers):
        raise IllegalCommand("jokers_locked", jokers=list(step.spiel.jokers))
    else:
        raise IllegalCommand("no_decision_pending", valid=list(running_words(step.spiel)))


def _before_freiwurf(step: Step, command: Command) -> None:
    if isinstance(command, ChooseJokers):
        _choose(step, command.jokers)
    elif isinstance(command, Continue):
        throws.freiwurf(step)
    elif isinstance(command, Stop):
        raise IllegalCommand("stop_before_freiwurf")
    elif isinstance(command, PlayJoker):
        raise IllegalCommand("joker_before_freiwurf", joker=command.joker)
    else:
        raise IllegalCommand("no_decision_pending", valid=list(BEFORE_FREIWURF))


def _choose(step: Step, wanted: Sequence[str]) -> None:
    """V6-S2: up to three distinct enabled jokers, changeable until the Freiwurf."""
    names = [registry.require(name) for name in wanted]
    enabled = step.state.options.jokers
    seen: set[str] = set()
    for name in names:
        if name not in enabled:
            raise IllegalCommand("joker_disabled", joker=name, enabled=list(enabled))
        if name in seen:
            raise IllegalCommand("duplicate_joker", joker=name)
        seen.add(name)
    if len(names) > MAX_JOKERS:
        raise IllegalCommand("too_many_jokers", count=len(names), limit=MAX_JOKERS)
    step.update(step.subject, spiel=Spiel(jokers=tuple(names)))
    if names:
        step.emit(ev.JokersChosen(player=step.subject, jokers=tuple(names)))
    else:
        step.emit(ev.JokersCleared(player=step.subject))


def _play_joker(step: Step, wanted: str) -> None:
    name = registry.require(wanted)
    spiel = step.spiel
    if name not in spiel.jokers:
        raise IllegalCommand("joker_not_chosen", joker=name, jokers=list(spiel.jokers))
    spec = registry.spec(name)
    if spec.play is None:
        raise IllegalCommand("autojoker", joker=name)
    if name in spiel.used:
        raise IllegalCommand("joker_used", joker=name)
    if spiel.fumo:  # announcing any joker ends Fumo first (V6-J13)
        step.update_spiel(fumo=False)
        step.emit(ev.FumoEnded(player=step.subject))
    step.emit(ev.JokerAnnounced(player=step.subject, joker=name))
    if spec.kind == ONCE:
        step.update_spiel(used=(*step.spiel.used, name))
    spec.play(step)


def _announce_next(step: Step, before: str | None, after: str | None) -> None:
    """In one-at-a-time play, name the Jungfrau who is up whenever that changes."""
    if step.state.options.parallel or after is None or after == before:
        return
    participant = find(step.state, after)
    if participant is not None and participant.role == JUNGFRAU:
        step.events.append(ev.NextUp(next_player=after))
