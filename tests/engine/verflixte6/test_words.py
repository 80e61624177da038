"""The forum words (rules page §1 and V6-S4/S7, the joker names of §4) read by the parser."""

from __future__ import annotations

import pytest

from engine.errors import InvalidCommand
from engine.game import Command
from engine.verflixte6 import GAME
from engine.verflixte6.commands import (
    ChooseJokers,
    Continue,
    Decline,
    Fight,
    Keep,
    PlayJoker,
    Repeat,
    Retreat,
    Rob,
    Stop,
)
from engine.verflixte6.jokers import registry


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("weiter", Continue()),
        ("Weiter!", Continue()),
        ("  WEITER  bitte ", Continue()),
        ("stopp", Stop()),
        ("Stop.", Stop()),
        ("ich stoppe", Stop()),
        ("kämpfen", Fight()),
        ("kaempfen!", Fight()),
        ("Ich kämpfe", Fight()),
        ("kneifen", Decline()),
        ("ablehnen", Decline()),
        ("zurücktreten", Retreat()),
        ("zuruecktreten", Retreat()),
        ("behalten", Keep()),
        ("wiederholen", Repeat()),
        ("raube nicht", Rob(None)),
        ("Raube niemanden!", Rob(None)),
        ("raube anna", Rob("anna")),
        ("raube @Anna", Rob("Anna")),
        ("raube bei Anna Lena", Rob("Anna Lena")),
        ("raube <@1234>", Rob("<@1234>")),
        ("Raube: Ben bitte", Rob("Ben")),
    ],
)
def test_V6_S4_words(text: str, command: Command) -> None:
    assert GAME.parse(text) == command


@pytest.mark.parametrize(
    ("text", "joker"),
    [
        ("weiter mit Joker Rattenlord", "Rattenlord"),
        ("Weiter mit Joker: Oces Anaconda", "Oces Anaconda"),
        ("weiter mit anaconda", "Oces Anaconda"),
        ("weiter mit dem Joker Sicherheitsventil", "Venoms Sicherheitsventil"),
        ("weiter mit Joker Ventil", "Venoms Sicherheitsventil"),
        ("weiter mit Joker Kaelteschutz", "Kälteschutz"),
        ("WEITER MIT JOKER KÄLTESCHUTZ!!", "Kälteschutz"),
        ("weiter mit Joker all in", "ALL IN"),
        ("weiter mit Joker ALL-IN", "ALL IN"),
        ("weiter mit Joker Allin", "ALL IN"),
        ("weiter mit Joker Monokel", "Leelas Monokel"),
        ("weiter mit Joker Leela's Monokel", "Leelas Monokel"),
        ("weiter mit Joker Fumo", "Fumo-Joker"),
        ("weiter mit dem Fumo-Joker", "Fumo-Joker"),
        ("weiter mit Joker Pony", "Push your Pony"),
        ("weiter mit Joker Hirte der Spelunke", "Hirtenschutz"),
        ("weiter Pony", "Push your Pony"),
        ("weiter mit   Joker   Spelunkenbold .", "Spelunkenbold"),
        ("weiter mit Joker Sekante", "Senigmas Sekante"),
    ],
)
def test_V6_S4_weiter_mit_joker(text: str, joker: str) -> None:
    assert GAME.parse(text) == PlayJoker(joker)


@pytest.mark.parametrize(
    ("text", "jokers"),
    [
        ("Joker: Spelunkenbold, Oces Anaconda", ("Spelunkenbold", "Oces Anaconda")),
        ("Joker Rattenlord, Pony und Törtchen", ("Rattenlord", "Push your Pony", "Jules Törtchen")),
        ("joker: toertchen; tentakel", ("Jules Törtchen", "ahris Tentakel")),
        ("Meine Joker: Kälteschutz / ALL IN", ("Kälteschutz", "ALL IN")),
        ("Joker: Rattenlord Anaconda Pony", ("Rattenlord", "Oces Anaconda", "Push your Pony")),
        ("Joker: keine", ()),
        ("Joker: Pony, Pony", ("Push your Pony", "Push your Pony")),  # the engine refuses the duplicate
    ],
)
def test_V6_S2_joker_choice(text: str, jokers: tuple[str, ...]) -> None:
    assert GAME.parse(text) == ChooseJokers(jokers)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Joker:", "joker_list_missing"),
        ("Joker: Zauberstab", "no_such_joker"),  # nothing close: the answer points at /info jokers
        ("weiter mit Joker Zauberstab", "no_such_joker"),
        ("Joker: Rattenlorb", "unknown_joker"),
        ("weiter mit Joker Rattenlorb", "unknown_joker"),
        ("weiter mit Joker Rattenlord und Monokel", "one_joker_per_step"),
        ("weiter mit Rattenlord, Pony", "one_joker_per_step"),
        ("weiter Rattenlord Monokel", "one_joker_per_step"),
        ("weiter mit", "joker_missing"),
        ("weiter mit Joker", "joker_missing"),
        ("raube", "victim_missing"),
        ("raube @", "victim_missing"),
        ("raube Anna und Ben", "rob_split"),
        ("raube @anna, @ben", "rob_split"),
    ],
)
def test_V6_words_malformed_commands(text: str, code: str) -> None:
    with pytest.raises(InvalidCommand) as caught:
        GAME.parse(text)
    assert caught.value.code == code


def test_V6_words_unknown_joker_comes_with_suggestions() -> None:
    with pytest.raises(InvalidCommand) as caught:
        GAME.parse("weiter mit Joker Anakondaa")
    assert caught.value.facts["name"] == "Anakondaa"
    assert caught.value.facts["suggestions"][0] == "Oces Anaconda"
    with pytest.raises(InvalidCommand) as caught:
        GAME.parse("Joker: Rattenlort, Monokle")
    assert caught.value.facts["suggestions"][0] == "Rattenlord"


@pytest.mark.parametrize(
    ("typed", "suggested"),
    [
        ("ALL", ["ALL IN"]),  # not "Leelas Monokel": two letters in common are no likeness
        ("Allin", ["ALL IN"]),
        ("Rattenlrd", ["Rattenlord"]),
        ("Monokle", ["Leelas Monokel"]),
        ("Sekamte", ["Senigmas Sekante"]),
        ("Kälte", ["Kälteschutz"]),
        ("Zauberstab", []),
    ],
)
def test_V6_words_a_suggestion_resembles_what_was_typed(typed: str, suggested: list[str]) -> None:
    assert registry.suggest(typed) == suggested


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "hallo zusammen",
        "weiter so!",
        "weiter gehts",
        "viel Glück beim Stoppen",
        "ich würde kämpfen",
        "gg",
    ],
)
def test_V6_words_chit_chat_is_none(text: str) -> None:
    assert GAME.parse(text) is None


@pytest.mark.parametrize("name", registry.NAMES)
def test_V6_words_every_canonical_name_reads_back(name: str) -> None:
    assert registry.resolve(name) == name
    assert registry.resolve(name.upper()) == name
    assert GAME.parse(f"weiter mit Joker {name}") == PlayJoker(name)


@pytest.mark.parametrize(
    "text",
    ["weiter", "Weiter!", "stopp", "Joker: Alle Neune, Kälteschutz", "raube Bea", "weiter mit Joker", ""],
)
def test_V6_words_cached_reading_matches_a_fresh_one(text: str) -> None:
    """parse keeps its readings: a repeat gives what the uncached reader gives, errors included."""
    from engine.verflixte6 import words

    def read(reader: object) -> object:
        try:
            return reader(text)  # type: ignore[operator]
        except InvalidCommand as error:
            return ("error", error.code, error.facts)

    fresh = read(words.parse.__wrapped__)
    assert read(words.parse) == fresh
    assert read(words.parse) == fresh  # the second time from the cache
