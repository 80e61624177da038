"""Leelas Monokel (V6-J10, a reading): two dice shown; keep their sum, or roll both again and keep that."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.verflixte6 import events as ev
from engine.verflixte6.answers import KEEP, VALID
from engine.verflixte6.commands import Keep
from engine.verflixte6.jokers.spec import ONCE, JokerSpec
from engine.verflixte6.state import Pending

if TYPE_CHECKING:
    from engine.game import Command
    from engine.verflixte6.step import Step

NAME = "Leelas Monokel"


def play(step: Step) -> None:
    faces = (step.roll(), step.roll())
    step.set_pending(Pending(decision=KEEP, source=NAME, faces=faces))
    step.emit(ev.MonokelShown(player=step.subject, faces=faces, pips=sum(faces), valid=VALID[KEEP]))


def answer(step: Step, pending: Pending, command: Command) -> None:
    step.set_pending(None)
    if isinstance(command, Keep):
        total = step.add(sum(pending.faces))
        step.emit(
            ev.MonokelKept(player=step.subject, delta=sum(pending.faces), total=total, faces=pending.faces)
        )
        return
    faces = (step.roll(), step.roll())
    total = step.add(sum(faces))
    step.emit(
        ev.MonokelRepeated(
            player=step.subject, delta=sum(faces), total=total, faces=faces, first_faces=pending.faces
        )
    )


SPEC = JokerSpec(
    name=NAME,
    aliases=("Monokel", "Leela", "Leelas", "Leela's Monokel", "Monocle"),
    kind=ONCE,
    play=play,
    answer=answer,
)
