"""Buttons offer exactly what the player may type now (rules page §6 and V6-S6: only valid answers)."""

from __future__ import annotations

from engine.dice import ScriptedDice
from engine.game import Choice, Join
from engine.verflixte6 import GAME

from .helpers import Table


def words(choices: list[Choice]) -> list[str]:
    return [c.words for c in choices if not c.multi]


def accepted(t: Table, choice_words: str) -> bool:
    command = GAME.parse(choice_words)
    actor = GAME.to_act(t.state)
    assert command is not None
    assert actor is not None
    GAME.apply(t.state, actor, command, ScriptedDice([3] * 6))
    return True


def test_V6_S2_choices_for_the_next_jungfrau() -> None:
    t = Table("anna", "ben", jokers="Rattenlord, Pony, Monokel, Törtchen")
    choices = list(GAME.choices(t.state))
    jokers = [c for c in choices if c.multi]
    assert [c.words for c in jokers] == ["Rattenlord", "Jules Törtchen", "Push your Pony", "Leelas Monokel"]
    assert {(c.group, c.prefix, c.separator, c.limit) for c in jokers} == {("jokers", "Joker:", ", ", 3)}
    composed = jokers[0].compose([c.words for c in jokers[:3]])
    assert composed == "Joker: Rattenlord, Jules Törtchen, Push your Pony"
    assert accepted(t, composed)
    assert words(choices) == ["weiter"]
    t.say("anna", composed)
    assert words(list(GAME.choices(t.state))) == ["Joker: keine", "weiter"]


def test_V6_S4_choices_while_playing_skip_autojokers_and_used_jokers() -> None:
    t = Table("anna")
    t.begin("anna", 3, ["Törtchen", "Pony", "Kälteschutz"])
    assert words(list(GAME.choices(t.state))) == [
        "weiter",
        "weiter mit Joker Push your Pony",  # in the order the player chose them
        "weiter mit Joker Kälteschutz",
        "stopp",
    ]
    t.say("anna", "weiter mit Joker Pony", 4, 4, 4)
    assert words(list(GAME.choices(t.state))) == ["weiter", "weiter mit Joker Kälteschutz", "stopp"]


def test_V6_S6_choices_for_each_pending_decision() -> None:
    t = Table("anna")
    t.begin("anna", 3, ["Anaconda", "Rattenlord", "Monokel"])
    t.say("anna", "weiter mit Joker Anaconda", 3)
    assert words(list(GAME.choices(t.state))) == ["kämpfen", "kneifen"]
    t.say("anna", "kneifen")
    t.say("anna", "weiter mit Joker Rattenlord", 2)
    assert words(list(GAME.choices(t.state))) == ["weiter", "zurücktreten"]
    t.say("anna", "zurücktreten")
    t.say("anna", "weiter mit Joker Monokel", 2, 2)
    assert words(list(GAME.choices(t.state))) == ["behalten", "wiederholen"]
    for choice in GAME.choices(t.state):
        assert accepted(t, choice.words)


def test_V6_R1_victim_choices_name_the_eligible_ones() -> None:
    t = Table("ben", "cleo")
    t.do("a1", Join("Anna"))
    t.do("a2", Join("anna"))  # two players called Anna: the buttons fall back on mentions
    t.begin("ben", 2)
    t.say("ben", "weiter", 1)
    choices = list(GAME.choices(t.state))
    assert [(c.action, c.words, c.label) for c in choices] == [
        ("rob", "raube Cleo", "Cleo"),
        ("rob", "raube <@a1>", "Anna"),
        ("rob", "raube <@a2>", "anna"),
        ("rob_none", "raube nicht", "Niemanden"),
    ]
    for choice in choices:
        assert accepted(t, choice.words)


def test_V6_choices_are_empty_when_nobody_is_to_act() -> None:
    assert list(GAME.choices(Table("anna", order="shuffled").state)) == []
    t = Table("anna")
    t.begin("anna", 2)
    t.say("anna", "stopp")
    assert list(GAME.choices(t.state)) == []
