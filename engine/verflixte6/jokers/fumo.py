"""Fumo-Joker (V6-J13): thrown pips count double from this step on, until ``stopp`` or another joker.

A 6 still busts (the valve aside); while Fumo lasts there is no Törtchen, no Tentakel and no robbery.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.verflixte6 import throws
from engine.verflixte6.jokers.spec import ONCE, JokerSpec

if TYPE_CHECKING:
    from engine.verflixte6.step import Step

NAME = "Fumo-Joker"


def play(step: Step) -> None:
    step.update_spiel(fumo=True)
    throws.normal_throw(step)


SPEC = JokerSpec(name=NAME, aliases=("Fumo", "Fumo Joker", "Fumojoker"), kind=ONCE, play=play)
