"""Answering the decision a step waits on, or giving its safe default (V6-S6, §6)."""

from __future__ import annotations

from engine.errors import IllegalCommand
from engine.game import Command
from engine.verflixte6 import events as ev
from engine.verflixte6 import robbery
from engine.verflixte6.answers import ACCEPTS, DEFAULTS, VALID
from engine.verflixte6.jokers import registry
from engine.verflixte6.step import Step


def answer(step: Step, command: Command) -> None:
    pending = step.spiel.pending
    assert pending is not None
    if not isinstance(command, ACCEPTS[pending.decision]):
        raise IllegalCommand(
            "decision_pending",
            decision=pending.decision,
            source=pending.source,
            valid=list(VALID[pending.decision]),
        )
    if pending.source == robbery.EINS:
        robbery.answer(step, pending, command)
        return
    resolve = registry.spec(pending.source).answer
    assert resolve is not None
    resolve(step, pending, command)


def default(step: Step) -> None:
    """Answer the pending decision the safe way for a player who is not there to answer."""
    pending = step.spiel.pending
    if pending is None:
        return
    command, word = DEFAULTS[pending.decision]
    step.emit(ev.DecisionDefaulted(player=step.subject, decision=pending.decision, answer=word))
    answer(step, command)
    step.finish()
