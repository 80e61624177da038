"""Spelunkenbold (V6-J2): a 1–5 pays the face +5; a 6 costs 3 and the Spiel goes on."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.verflixte6 import events as ev
from engine.verflixte6.jokers.spec import ONCE, JokerSpec

if TYPE_CHECKING:
    from engine.verflixte6.step import Step

NAME = "Spelunkenbold"
BONUS = 5
PENALTY = 3


def play(step: Step) -> None:
    face = step.roll()
    if face == 6:
        total = step.add(-PENALTY)
        step.emit(ev.SpelunkenboldLost(player=step.subject, delta=-PENALTY, total=total, face=face))
    else:
        total = step.add(face + BONUS)
        step.emit(ev.SpelunkenboldWon(player=step.subject, delta=face + BONUS, total=total, face=face))


SPEC = JokerSpec(name=NAME, aliases=("Bold", "Spelunken-Bold", "Spelunkenbolt"), kind=ONCE, play=play)
