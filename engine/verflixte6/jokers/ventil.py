"""Venoms Sicherheitsventil (V6-J12): the level is set at the current total and a compulsory throw
follows; from then on a 6 falls back to the level and ends the Spiel instead of busting.

The level only ever moves down (``Step`` lowers it whenever the total drops below it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.verflixte6 import events as ev
from engine.verflixte6.jokers.spec import ONCE, JokerSpec
from engine.verflixte6.state import PRINZESSIN

if TYPE_CHECKING:
    from engine.verflixte6.step import Step

NAME = "Venoms Sicherheitsventil"


def play(step: Step) -> None:
    level = step.points
    step.update_spiel(valve=level)
    step.emit(ev.ValveArmed(player=step.subject, level=level))
    face = step.roll()  # a joker's throw: a 1 robs nothing, Tentakel does not pay
    if face == 6:
        step.end_spiel(PRINZESSIN)
        step.emit(ev.ValveCaught(player=step.subject, delta=0, total=level, face=face, level=level))
        return
    total = step.add(face)
    step.emit(ev.ValveThrown(player=step.subject, delta=face, total=total, face=face, level=level))


SPEC = JokerSpec(
    name=NAME,
    aliases=(
        "Sicherheitsventil",
        "Ventil",
        "Venoms Ventil",
        "Venom",
        "Venoms",
        "Venom's Sicherheitsventil",
        "Sicherheits-Ventil",
    ),
    kind=ONCE,
    play=play,
)
