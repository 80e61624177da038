"""Rattenlord (V6-J5): a duel against the rat's fixed 4 (ties go to the rat) with up to two dice.

The first die comes with the announcement; if it fails, the player retreats (−2) or says ``weiter`` for
the second. Either die above 4 wins +18 flat; two failures cost 10.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.verflixte6 import events as ev
from engine.verflixte6.answers import RETREAT, VALID
from engine.verflixte6.commands import Retreat
from engine.verflixte6.jokers.spec import ONCE, JokerSpec
from engine.verflixte6.state import Pending

if TYPE_CHECKING:
    from engine.game import Command
    from engine.verflixte6.step import Step

NAME = "Rattenlord"
RAT = 4
WIN = 18
LOSS = 10
RETREAT_COST = 2


def play(step: Step) -> None:
    face = step.roll()
    if face > RAT:
        _won(step, (face,))
        return
    step.set_pending(Pending(decision=RETREAT, source=NAME, faces=(face,)))
    step.emit(ev.RattenlordChallenge(player=step.subject, face=face, rat=RAT, valid=VALID[RETREAT]))


def answer(step: Step, pending: Pending, command: Command) -> None:
    first = pending.faces[0]
    step.set_pending(None)
    if isinstance(command, Retreat):
        total = step.add(-RETREAT_COST)
        step.emit(ev.RattenlordRetreated(player=step.subject, delta=-RETREAT_COST, total=total, face=first))
        return
    second = step.roll()
    if second > RAT:
        _won(step, (first, second))
    else:
        total = step.add(-LOSS)
        step.emit(
            ev.RattenlordLost(player=step.subject, delta=-LOSS, total=total, faces=(first, second), rat=RAT)
        )


def _won(step: Step, faces: tuple[int, ...]) -> None:
    total = step.add(WIN)
    step.emit(ev.RattenlordWon(player=step.subject, delta=WIN, total=total, faces=faces, rat=RAT))


SPEC = JokerSpec(
    name=NAME,
    aliases=("Ratte", "Rattensohn", "Ratten-Lord", "Rattenlord-Joker"),
    kind=ONCE,
    play=play,
    answer=answer,
)
