"""Jules Törtchen (V6-J7, V6-N3): +1 on every finished step after the Freiwurf, never under Fumo."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.verflixte6 import events as ev
from engine.verflixte6.jokers.spec import AUTO, JokerSpec

if TYPE_CHECKING:
    from engine.verflixte6.step import Step

NAME = "Jules Törtchen"


def on_finish(step: Step) -> None:
    if not step.spiel.fumo:
        total = step.add(1)
        step.emit(ev.ToertchenPaid(player=step.subject, delta=1, total=total))


SPEC = JokerSpec(
    name=NAME,
    aliases=("Törtchen", "Jules-Törtchen", "Jule", "Jules", "Jules Toertchen", "Tortchen"),
    kind=AUTO,
    on_finish=on_finish,
)
