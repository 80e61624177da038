"""V6-N3 … V6-N5 through the autojoker hooks: which run, in what order, and what a settled face means.

The hooks of the subject's chosen jokers run in registry order, whatever order the player chose them in;
every ``after_throw`` hook runs, and a normal 1 robs only if none of them settled it.
"""

from __future__ import annotations

import pytest

from engine.dice import ScriptedDice
from engine.verflixte6 import throws
from engine.verflixte6.jokers.spec import AUTO, JokerSpec
from engine.verflixte6.robbery import EINS
from engine.verflixte6.state import JUNGFRAU, PLAYING, Durchgang, Options, Participant, Spiel
from engine.verflixte6.step import Step

from .helpers import Table, kinds


@pytest.mark.parametrize("chosen", [["Törtchen", "Tentakel"], ["Tentakel", "Törtchen"]])
def test_V6_N3_N4_tentakel_pays_on_the_throw_and_the_toertchen_when_the_step_ends(chosen: list[str]) -> None:
    t = Table("anna", "ben")
    t.begin("anna", 3, chosen)
    assert kinds(t.say("anna", "weiter", 1)) == ["v6.thrown", "v6.tentakel_paid", "v6.toertchen_paid"]
    assert t.points("anna") == 3 + 1 + 5 + 1


def stand_in(name: str, log: list[str], settles: bool) -> JokerSpec:
    def after_throw(step: Step, face: int) -> bool:
        log.append(f"{name} after {face}")
        return settles

    def on_finish(step: Step) -> None:
        log.append(f"{name} finish")

    return JokerSpec(name=name, aliases=(), kind=AUTO, after_throw=after_throw, on_finish=on_finish)


def playing(*chosen: str) -> Durchgang:
    anna = Participant(id="anna", name="Anna", role=PLAYING, points=3, spiel=Spiel(jokers=chosen))
    ben = Participant(id="ben", name="Ben", role=JUNGFRAU)
    return Durchgang(options=Options(jokers=()), participants=(anna, ben))


@pytest.mark.parametrize(
    ("settles", "robs"), [((False, False), True), ((True, False), False), ((False, True), False)]
)
def test_V6_N5_every_hook_runs_in_registry_order_and_a_settled_one_robs_nothing(
    settles: tuple[bool, bool], robs: bool
) -> None:
    log: list[str] = []
    registry = (
        stand_in("first", log, settles[0]),
        stand_in("second", log, settles[1]),
        stand_in("x", log, True),
    )
    step = Step(playing("second", "first"), "anna", ScriptedDice([1]), registry)  # chosen in reverse; x not
    throws.normal_throw(step)
    step.finish()
    pending = step.spiel.pending
    assert (pending is not None and pending.source == EINS) == robs
    assert log == ["first after 1", "second after 1"] + ([] if robs else ["first finish", "second finish"])


def test_V6_N2_hooks_see_no_six_and_no_fumo_throw() -> None:
    log: list[str] = []
    registry = (stand_in("first", log, False),)
    busted = Step(playing("first"), "anna", ScriptedDice([6]), registry)
    throws.normal_throw(busted)
    busted.finish()
    fumo = Step(playing("first"), "anna", ScriptedDice([2]), registry)
    fumo.update_spiel(fumo=True)
    throws.normal_throw(fumo)
    assert log == []  # a bust ends the Spiel; a Fumo throw is doubled, not normal (V6-J13)
