"""Oces Anaconda (V6-J3): the attack die first, then the player fights (p ≥ attack: +p+12, else −10)
or declines (−2)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.verflixte6 import events as ev
from engine.verflixte6.answers import FIGHT, VALID
from engine.verflixte6.commands import Fight
from engine.verflixte6.jokers.spec import ONCE, JokerSpec
from engine.verflixte6.state import Pending

if TYPE_CHECKING:
    from engine.game import Command
    from engine.verflixte6.step import Step

NAME = "Oces Anaconda"
WIN_BONUS = 12
LOSS = 10
DECLINE = 2


def play(step: Step) -> None:
    attack = step.roll()
    step.set_pending(Pending(decision=FIGHT, source=NAME, faces=(attack,)))
    step.emit(ev.AnacondaAttack(player=step.subject, attack=attack, valid=VALID[FIGHT]))


def answer(step: Step, pending: Pending, command: Command) -> None:
    attack = pending.faces[0]
    step.set_pending(None)
    if not isinstance(command, Fight):
        total = step.add(-DECLINE)
        step.emit(ev.AnacondaDeclined(player=step.subject, delta=-DECLINE, total=total, attack=attack))
        return
    face = step.roll()
    if face >= attack:  # a tie goes to the player
        total = step.add(face + WIN_BONUS)
        step.emit(
            ev.AnacondaWon(player=step.subject, delta=face + WIN_BONUS, total=total, face=face, attack=attack)
        )
    else:
        total = step.add(-LOSS)
        step.emit(ev.AnacondaLost(player=step.subject, delta=-LOSS, total=total, face=face, attack=attack))


SPEC = JokerSpec(
    name=NAME,
    aliases=("Anaconda", "Oce's Anaconda", "Oces Anakonda", "Anakonda", "Oce Anaconda"),
    kind=ONCE,
    play=play,
    answer=answer,
)
