"""Senigmas Sekante (V6-J14, a house rule): the text names it without describing it, so it is off
unless the moderator enables it. Enabled, it takes 10 pips from one Jungfrau or Prinzessin, no die."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.verflixte6 import robbery
from engine.verflixte6.jokers.spec import ONCE, JokerSpec

if TYPE_CHECKING:
    from engine.game import Command
    from engine.verflixte6.state import Pending
    from engine.verflixte6.step import Step

NAME = "Senigmas Sekante"
AMOUNT = 10


def play(step: Step) -> None:
    robbery.offer(step, NAME, AMOUNT)


def answer(step: Step, pending: Pending, command: Command) -> None:
    victim = robbery.choose(step, command)
    step.set_pending(None)
    if victim is None:
        robbery.decline(step, NAME)
    else:
        robbery.transfer(step, victim, pending.amount, NAME)


SPEC = JokerSpec(
    name=NAME,
    aliases=("Sekante", "Senigma", "Senigmas", "Senigma's Sekante", "Secante"),
    kind=ONCE,
    play=play,
    answer=answer,
    enabled_by_default=False,
)
