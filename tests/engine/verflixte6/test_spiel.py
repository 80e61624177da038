"""V6-S1 … V6-S7: how one Spiel runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import engine.verflixte6
from engine.errors import DiceExhausted, IllegalCommand
from engine.verflixte6 import events as ev
from engine.verflixte6.commands import ChooseJokers, Continue, Rob, Stop
from engine.verflixte6.state import PLAYING, PRINZESSIN

from .helpers import Table

PACKAGE = Path(engine.verflixte6.__file__).parent
FORBIDDEN = re.compile(
    r"^\s*(?:import|from)\s+(random|secrets|time|datetime|asyncio|sqlalchemy|discord|os|socket)\b",
    re.MULTILINE,
)


def test_V6_S1_the_engine_touches_no_random_clock_or_io() -> None:
    for source in PACKAGE.rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        assert not FORBIDDEN.search(text), source
        assert "open(" not in text.replace("def open(", "").replace("GAME.open(", ""), source


def test_V6_S1_every_die_is_asked_of_the_injected_source_one_per_throw() -> None:
    t = Table("anna")
    t.begin("anna", 4)
    t.say("anna", "weiter", 2)
    assert t.last(ev.Thrown).face == 2
    t.refuse("anna", "weiter", DiceExhausted, "dice_exhausted")  # no die given: nothing happens


def test_V6_S2_up_to_three_distinct_jokers_are_shown() -> None:
    t = Table("anna")
    events = t.say("anna", "Joker: Rattenlord, Pony, Monokel")
    assert events == [
        ev.JokersChosen(player="anna", jokers=("Rattenlord", "Push your Pony", "Leelas Monokel"))
    ]
    assert t.spiel("anna").jokers == ("Rattenlord", "Push your Pony", "Leelas Monokel")


def test_V6_S2_the_choice_can_change_until_the_freiwurf() -> None:
    t = Table("anna")
    t.say("anna", "Joker: Rattenlord, Pony")
    t.say("anna", "Joker: Anaconda")
    assert t.spiel("anna").jokers == ("Oces Anaconda",)
    t.say("anna", "weiter", 3)
    t.refuse("anna", ChooseJokers(("Pony",)), IllegalCommand, "jokers_locked")


def test_V6_S2_sekante_is_not_enabled_by_default_and_four_are_too_many() -> None:
    t = Table("anna")
    t.refuse("anna", ChooseJokers(("Sekante",)), IllegalCommand, "joker_disabled")
    t.refuse("anna", "Joker: Pony, Monokel, Rattenlord, ALL IN", IllegalCommand, "too_many_jokers")
    t.refuse("anna", "Joker: Pony, Pony", IllegalCommand, "duplicate_joker")


def test_V6_S2_only_enabled_jokers_can_be_chosen() -> None:
    t = Table("anna", jokers="Rattenlord, ALL IN")
    error = t.refuse("anna", "Joker: Pony", IllegalCommand, "joker_disabled")
    assert error.facts["enabled"] == ["Rattenlord", "ALL IN"]
    t.say("anna", "Joker: all in, rattenlord")
    assert t.spiel("anna").jokers == ("ALL IN", "Rattenlord")


def test_V6_S3_the_freiwurf_counts_a_six_at_face_value() -> None:
    t = Table("anna", "ben")
    t.say("anna", "Joker: Törtchen, Tentakel")
    events = t.say("anna", "weiter", 6)
    assert events == [ev.Freiwurf(player="anna", delta=6, total=6, face=6)]
    assert t.role("anna") == PLAYING


def test_V6_S3_a_one_on_the_freiwurf_robs_nothing_and_autojokers_pay_nothing() -> None:
    t = Table("anna", "ben")
    t.say("anna", "Joker: Törtchen, Tentakel")
    events = t.say("anna", "weiter", 1)
    assert events == [ev.Freiwurf(player="anna", delta=1, total=1, face=1)]
    assert t.spiel("anna").robberies == 0
    assert t.spiel("anna").pending is None


def test_V6_S4_after_the_freiwurf_weiter_joker_or_stopp() -> None:
    t = Table("anna")
    t.begin("anna", 3, ["Pony"])
    t.say("anna", "weiter", 2)
    assert t.points("anna") == 5  # the rule text's own example: 3 then 2
    t.say("anna", "weiter mit Joker Pony", 4, 4, 4)
    assert t.points("anna") == 17
    t.say("anna", "stopp")
    assert (t.role("anna"), t.points("anna")) == (PRINZESSIN, 17)


def test_V6_S5_a_robbed_jungfrau_starts_from_her_negative_balance() -> None:
    t = Table("anna", "ben")
    t.begin("anna", 2)
    t.say("anna", "weiter", 1)
    t.say("anna", "raube ben")
    assert t.points("ben") == -1
    t.say("anna", "stopp")
    t.say("ben", "weiter", 3)
    assert t.last(ev.Freiwurf).total == 2


def test_V6_S5_the_total_may_be_negative_during_the_spiel() -> None:
    t = Table("anna")
    t.begin("anna", 1, ["Anaconda"])
    t.say("anna", "weiter mit Joker Anaconda", 5)
    t.say("anna", "kämpfen", 2)
    assert t.points("anna") == -9
    t.say("anna", "weiter", 3)
    assert t.points("anna") == -6


def test_V6_S6_a_pending_decision_accepts_only_its_answers() -> None:
    t = Table("anna")
    t.begin("anna", 3, ["Anaconda"])
    t.say("anna", "weiter mit Joker Anaconda", 4)
    for command in (Continue(), Stop(), Rob("anna"), ChooseJokers(())):
        error = t.refuse("anna", command, IllegalCommand, "decision_pending")
        assert error.facts["valid"] == ["kämpfen", "kneifen"]


def test_V6_S6_without_an_eligible_victim_the_robbery_is_skipped_without_a_question() -> None:
    t = Table("anna")
    t.begin("anna", 3)
    events = t.say("anna", "weiter", 1)
    assert ev.RobberySkipped(player="anna", source="eins", amount=1, count=1) in events
    assert t.spiel("anna").pending is None
    t.say("anna", "weiter", 2)  # the Spiel simply goes on
    assert t.points("anna") == 6


def test_V6_S7_stopp_makes_a_prinzessin_even_at_or_below_zero() -> None:
    t = Table("anna")
    t.begin("anna", 2, ["Pony"])
    t.say("anna", "weiter mit Joker Pony", 1, 1, 1)
    events = t.say("anna", "stopp")
    assert events == [ev.Stopped(player="anna", total=-3)]
    assert t.role("anna") == PRINZESSIN


def test_V6_S7_stopp_before_the_freiwurf_is_refused() -> None:
    t = Table("anna")
    t.refuse("anna", "stopp", IllegalCommand, "stop_before_freiwurf")
    t.say("anna", "Joker: Pony")
    t.refuse("anna", "stop", IllegalCommand, "stop_before_freiwurf")


@pytest.mark.parametrize("opening", ["weiter", "Joker: keine"])
def test_V6_S7_playing_without_jokers_needs_no_word(opening: str) -> None:
    t = Table("anna")
    if opening != "weiter":
        assert t.say("anna", opening) == [ev.JokersCleared(player="anna")]
    t.say("anna", "weiter", 4)
    assert (t.role("anna"), t.points("anna"), t.spiel("anna").jokers) == (PLAYING, 4, ())
