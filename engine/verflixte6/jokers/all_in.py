"""ALL IN (V6-J6): 1–3 doubles the total (negative too); 4–6 is 0 and a Zombie, whatever the valve says."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.verflixte6 import events as ev
from engine.verflixte6.jokers.spec import ONCE, JokerSpec
from engine.verflixte6.state import ZOMBIE

if TYPE_CHECKING:
    from engine.verflixte6.step import Step

NAME = "ALL IN"


def play(step: Step) -> None:
    face = step.roll()
    before = step.points
    if face <= 3:
        total = step.add(before)
        step.emit(ev.AllInWon(player=step.subject, delta=before, total=total, face=face))
        return
    step.add(-before)
    step.end_spiel(ZOMBIE)
    step.emit(ev.AllInLost(player=step.subject, delta=-before, total=0, face=face))


SPEC = JokerSpec(name=NAME, aliases=("All-In", "Allin", "All in Joker"), kind=ONCE, play=play)
