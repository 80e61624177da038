"""Robbery as a transfer of pips, for the robbing 1 (V6-N5), the Beefmaker and the Sekante (V6-R1…R5).

Victims are Jungfrauen and Prinzessinnen of the Durchgang other than the robber — never a Zombie, never a
participant whose Spiel is running. Where nobody qualifies the robbery lapses without a question.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.errors import IllegalCommand
from engine.records import evolve
from engine.verflixte6 import events as ev
from engine.verflixte6 import players
from engine.verflixte6.answers import VALID, VICTIM
from engine.verflixte6.commands import Rob
from engine.verflixte6.state import JUNGFRAU, PRINZESSIN, ZOMBIE, Durchgang, Participant, Pending

if TYPE_CHECKING:
    from engine.game import Command
    from engine.verflixte6.step import Step

EINS = "eins"  # the source of a robbery by a normal 1
MAX_AMOUNT = 5
KEULER_BONUS = 5


def eligible(state: Durchgang, robber: str, exclude: Sequence[str] = ()) -> tuple[str, ...]:
    return tuple(
        p.id
        for p in state.participants
        if p.role in (JUNGFRAU, PRINZESSIN) and p.id != robber and p.id not in exclude
    )


def offer_eins(step: Step) -> None:
    """A normal 1: the counter rises, and the player may rob min(k, 5) from one victim."""
    count = step.spiel.robberies + 1
    step.update_spiel(robberies=count)
    offer(step, EINS, min(count, MAX_AMOUNT), count=count)


def offer(step: Step, source: str, amount: int, count: int = 0, exclude: Sequence[str] = ()) -> None:
    victims = eligible(step.state, step.subject, exclude)
    if not victims:
        step.emit(ev.RobberySkipped(player=step.subject, source=source, amount=amount, count=count))
        return
    step.set_pending(Pending(decision=VICTIM, source=source, amount=amount))
    step.emit(
        ev.RobberyOffered(
            player=step.subject,
            source=source,
            amount=amount,
            count=count,
            victims=victims,
            valid=VALID[VICTIM],
        )
    )


def choose(step: Step, command: Command, exclude: Sequence[str] = ()) -> str | None:
    """The victim a ``raube`` answer names (None for ``raube nicht``), checked for eligibility."""
    assert isinstance(command, Rob)
    if command.target is None:
        return None
    victim = players.resolve(step.state, command.target)
    victims = eligible(step.state, step.subject, exclude)
    if victim == step.subject:
        raise IllegalCommand("rob_self", victims=list(victims))
    if victim not in victims:
        raise _not_robbable(step.get(victim), victim in exclude, victims)
    return victim


def _not_robbable(victim: Participant, excluded: bool, victims: Sequence[str]) -> IllegalCommand:
    """Why ``victim`` cannot be robbed, with the rule's reason: a Zombie is out ("Leichenfleddern ist
    verboten", V6-N5); a Beefmaker hits each participant once per Durchgang (V6-J11); anyone else not
    robbable is playing their Spiel right now (V6-R1)."""
    facts = {"target": victim.id, "role": victim.role, "victims": list(victims)}
    if victim.role == ZOMBIE:
        return IllegalCommand("rob_zombie", **facts)
    if excluded:
        return IllegalCommand("rob_beefmaker_twice", **facts)
    return IllegalCommand("rob_playing", **facts)


def answer(step: Step, pending: Pending, command: Command) -> None:
    """The answer to a robbing 1."""
    victim = choose(step, command)
    step.set_pending(None)
    if victim is None:
        decline(step, EINS)
    else:
        transfer(step, victim, pending.amount, EINS)


def decline(step: Step, source: str) -> None:
    step.emit(ev.RobberyDeclined(player=step.subject, source=source))


def transfer(step: Step, victim: str, amount: int, source: str) -> None:
    """The victim loses exactly what the robber gains, even below 0."""
    before = step.get(victim).points
    victim_total = step.add(-amount, victim)
    robber_total = step.add(amount)
    step.emit(
        ev.Robbed(
            robber=step.subject,
            victim=victim,
            amount=amount,
            robber_total=robber_total,
            victim_total=victim_total,
            source=source,
        )
    )
    keuler(step, victim, before)


def keuler(step: Step, victim: str, before: int) -> None:
    """V6-R5: pushing a Prinzessin from above 0 to 0 or below pays the robber +5, once per victim."""
    target = step.get(victim)
    if target.role != PRINZESSIN or before <= 0 or target.points > 0:
        return
    if victim in step.state.keuler_victims:
        return
    step.state = evolve(step.state, keuler_victims=(*step.state.keuler_victims, victim))
    total = step.add(KEULER_BONUS)
    step.emit(ev.KeulerBonus(player=step.subject, delta=KEULER_BONUS, total=total, victim=victim))
