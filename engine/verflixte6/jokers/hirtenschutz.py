"""Hirtenschutz (V6-J4): the Hirte der Spelunke doubles one die; a 6 pays 12 and a 1 robs nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.verflixte6 import events as ev
from engine.verflixte6.jokers.spec import ONCE, JokerSpec

if TYPE_CHECKING:
    from engine.verflixte6.step import Step

NAME = "Hirtenschutz"


def play(step: Step) -> None:
    face = step.roll()
    total = step.add(2 * face)
    step.emit(ev.HirtenschutzThrown(player=step.subject, delta=2 * face, total=total, face=face))


SPEC = JokerSpec(
    name=NAME,
    aliases=("Hirte", "Hirten", "Hirte der Spelunke", "Hirtenschutz der Spelunke", "Hirtenschutz-Joker"),
    kind=ONCE,
    play=play,
)
