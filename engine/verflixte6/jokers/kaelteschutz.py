"""Kälteschutz (V6-J1): the only multi-use joker. On the n-th use a die d costs d if d ≤ n, else pays d.

A 6 always pays, which is how Kälte saves the player from it — once: the joker is then spent, as it is
after the fifth use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.verflixte6 import events as ev
from engine.verflixte6.jokers.spec import MULTI, JokerSpec

if TYPE_CHECKING:
    from engine.verflixte6.step import Step

NAME = "Kälteschutz"
MAX_USES = 5


def play(step: Step) -> None:
    use = step.spiel.cold_uses + 1
    face = step.roll()
    delta = -face if face <= use else face
    step.update_spiel(cold_uses=use)
    total = step.add(delta)
    step.emit(ev.KaelteschutzThrown(player=step.subject, delta=delta, total=total, face=face, use=use))
    if face == 6:
        step.update_spiel(used=(*step.spiel.used, NAME))
        step.emit(ev.KaelteschutzSaved(player=step.subject))
    elif use >= MAX_USES:
        step.update_spiel(used=(*step.spiel.used, NAME))
        step.emit(ev.KaelteschutzExpired(player=step.subject, uses=use))


SPEC = JokerSpec(
    name=NAME,
    aliases=("Kaelteschutz", "Kältes Schutz", "Kälte", "Kälteschutz-Joker", "Kalteschutz"),
    kind=MULTI,
    play=play,
)
