"""Beefmaker (V6-J11): three dice; any repeated value pays +12 and lets the player take 6 pips from one
Jungfrau or Prinzessin — each participant can be hit by a Beefmaker once per Durchgang (V6-R4)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.records import evolve
from engine.verflixte6 import events as ev
from engine.verflixte6 import robbery
from engine.verflixte6.jokers.spec import ONCE, JokerSpec

if TYPE_CHECKING:
    from engine.game import Command
    from engine.verflixte6.state import Pending
    from engine.verflixte6.step import Step

NAME = "Beefmaker"
WIN = 12
HARM = 6


def play(step: Step) -> None:
    faces = (step.roll(), step.roll(), step.roll())
    if len(set(faces)) == len(faces):
        step.emit(ev.BeefmakerMissed(player=step.subject, delta=0, total=step.points, faces=faces))
        return
    total = step.add(WIN)
    step.emit(ev.BeefmakerWon(player=step.subject, delta=WIN, total=total, faces=faces))
    robbery.offer(step, NAME, HARM, exclude=step.state.beefmaker_victims)


def answer(step: Step, pending: Pending, command: Command) -> None:
    victim = robbery.choose(step, command, exclude=step.state.beefmaker_victims)
    step.set_pending(None)
    if victim is None:
        robbery.decline(step, NAME)
        return
    before = step.get(victim).points
    victim_total = step.add(-pending.amount, victim)
    step.state = evolve(step.state, beefmaker_victims=(*step.state.beefmaker_victims, victim))
    step.emit(
        ev.BeefmakerHit(player=step.subject, victim=victim, amount=pending.amount, victim_total=victim_total)
    )
    robbery.keuler(step, victim, before)


SPEC = JokerSpec(
    name=NAME,
    aliases=("Beef", "Beefmaker-Joker", "Der Beefmaker", "Beef Maker"),
    kind=ONCE,
    play=play,
    answer=answer,
)
