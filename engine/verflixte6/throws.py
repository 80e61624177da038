"""The throws without a joker: the Freiwurf (V6-S3), the normal throw (V6-N1…N5), and ``stopp`` (V6-S7).

Autojokers react to a normal throw through their hooks (``Step.after_throw``); none is named here.
"""

from __future__ import annotations

from engine.verflixte6 import events as ev
from engine.verflixte6 import robbery
from engine.verflixte6.state import PLAYING, PRINZESSIN, ZOMBIE, Spiel
from engine.verflixte6.step import Step


def freiwurf(step: Step) -> None:
    """The first die counts at face value: a 1 robs nothing, a 6 does not bust, no autojoker pays."""
    face = step.roll()
    total = step.points + face
    step.update(step.subject, role=PLAYING, points=total, spiel=step.player.spiel or Spiel())
    step.emit(ev.Freiwurf(player=step.subject, delta=face, total=total, face=face))


def normal_throw(step: Step) -> None:
    face = step.roll()
    if face == 6:
        bust(step, face)
        return
    if step.spiel.fumo:
        total = step.add(2 * face)
        step.emit(ev.FumoThrown(player=step.subject, delta=2 * face, total=total, face=face))
        return
    total = step.add(face)
    step.emit(ev.Thrown(player=step.subject, delta=face, total=total, face=face))
    settled = step.after_throw(face)
    if face == 1 and not settled:
        robbery.offer_eins(step)


def bust(step: Step, face: int) -> None:
    """A 6: back to 0 as a Zombie — or, with the valve armed, back to its level as a Prinzessin."""
    level = step.spiel.valve
    before = step.points
    if level is not None:
        step.add(level - before)
        step.end_spiel(PRINZESSIN)
        step.emit(
            ev.ValveCaught(player=step.subject, delta=level - before, total=level, face=face, level=level)
        )
        return
    step.add(-before)
    step.end_spiel(ZOMBIE)
    step.emit(ev.Busted(player=step.subject, delta=-before, total=0, face=face))


def stop(step: Step) -> None:
    step.end_spiel(PRINZESSIN)
    step.emit(ev.Stopped(player=step.subject, total=step.points))
