"""ahris Tentakel (V6-J8, V6-N4): a normal 1 or 2 pays +5 more, and a 1 then robs nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.verflixte6 import events as ev
from engine.verflixte6.jokers.spec import AUTO, JokerSpec

if TYPE_CHECKING:
    from engine.verflixte6.step import Step

NAME = "ahris Tentakel"
BONUS = 5


def after_throw(step: Step, face: int) -> bool:
    """Only normal throws call this (never a joker's own throw); never under Fumo."""
    if step.spiel.fumo or face not in (1, 2):
        return False
    total = step.add(BONUS)
    step.emit(ev.TentakelPaid(player=step.subject, delta=BONUS, total=total, face=face))
    return True


SPEC = JokerSpec(
    name=NAME,
    aliases=("Tentakel", "Ahri", "Ahris", "Ahri's Tentakel", "Tentakeln"),
    kind=AUTO,
    after_throw=after_throw,
)
