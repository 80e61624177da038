"""Push your Pony (V6-J9): three dice; a sum of 11 or more is kept, 10 or less costs 5."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.verflixte6 import events as ev
from engine.verflixte6.jokers.spec import ONCE, JokerSpec

if TYPE_CHECKING:
    from engine.verflixte6.step import Step

NAME = "Push your Pony"
TARGET = 11
PENALTY = 5


def play(step: Step) -> None:
    faces = (step.roll(), step.roll(), step.roll())
    pips = sum(faces)
    if pips >= TARGET:
        total = step.add(pips)
        step.emit(ev.PonyWon(player=step.subject, delta=pips, total=total, faces=faces, pips=pips))
    else:
        total = step.add(-PENALTY)
        step.emit(ev.PonyLost(player=step.subject, delta=-PENALTY, total=total, faces=faces, pips=pips))


SPEC = JokerSpec(
    name=NAME, aliases=("Pony", "Push Pony", "Push-your-Pony", "Pony-Joker"), kind=ONCE, play=play
)
