"""Near misses: a line whose first word is a typo of a game word gets the word it probably meant
(``Game.near_miss``); commands, chit-chat and sentences that merely contain a word get None."""

from __future__ import annotations

from typing import Any

import pytest

from bot.texts import LANGUAGES, render
from engine.commands import distance
from engine.game import Game
from engine.killer import KILLER, KILLER_CLASSIC
from engine.verflixte6 import GAME as V6
from tests.games.pig.game import GAME as PIG


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("wieter", "weiter"),
        ("weitr", "weiter"),
        ("WEITR!", "weiter"),
        ("weıter", "weiter"),  # a dotless ı
        ("stpp", "stopp"),
        ("stoop", "stopp"),
        ("ich wieter", "weiter"),
        ("wieter mit Joker Rattenlord", "weiter"),
        ("jocker: Rattenlord, Pony", "Joker"),
        ("raueb anna", "raube"),
        ("kämpfn", "kämpfen"),
        ("kaempfn", "kämpfen"),
        ("kniefen", "kneifen"),
        ("zuruektreten", "zurücktreten"),
        ("behaltn", "behalten"),
        ("wiederhohlen", "wiederholen"),
    ],
)
def test_verflixte6_near_misses(typed: str, meant: str) -> None:
    assert V6.parse(typed) is None
    assert V6.near_miss(typed) == meant


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("garde tou", "garde tout"),
        ("grade tout", "garde tout"),
        ("gard 6 5", "garde"),
        ("atack ben", "attaque"),
        ("atack", "attaque"),
        ("attack anna", "attaque"),
        ("pase", "passe"),
        ("je pase", "passe"),
        ("hatu", "haut"),
        ("bass", "bas"),
        ("auot", "auto"),
        ("conseill", "conseil"),
    ],
)
@pytest.mark.parametrize("game", [KILLER, KILLER_CLASSIC], ids=["killer", "killer-classic"])
def test_killer_near_misses(game: Game[Any], typed: str, meant: str) -> None:
    assert game.near_miss(typed) == meant


CHIT_CHAT = [
    "",
    "hallo zusammen",
    "das ist gut",
    "Wetter ist heute schön",  # "Wetter" alone might be a typo; in a sentence it is chat
    "weiter so, anna!",  # an exact word followed by chat is chat, not a typo
    "stopp doch mal kurz, ich muss weg",
    "ich sage gleich weiter",  # the word somewhere in a sentence
    "bah non",
    "pas mal",
    "mais oui",
    "tout va bien",
    "garde 7",  # a malformed command: its own refusal explains it
    "qui garde le chat ?",
]


@pytest.mark.parametrize("line", CHIT_CHAT)
@pytest.mark.parametrize("game", [V6, KILLER, KILLER_CLASSIC, PIG], ids=lambda g: g.name)
def test_chit_chat_is_no_near_miss(game: Game[Any], line: str) -> None:
    assert game.near_miss(line) is None


@pytest.mark.parametrize(
    ("game", "line"),
    [
        (V6, "weiter"),
        (V6, "Weiter bitte!"),
        (V6, "weiter mit Joker Rattenlord"),
        (V6, "stop"),
        (KILLER, "garde 6 5"),
        (KILLER, "garde tout"),
        (KILLER, "attaque ben"),
        (PIG, "roll"),
    ],
)
def test_a_command_is_no_near_miss(game: Game[Any], line: str) -> None:
    assert game.parse(line) is not None
    assert game.near_miss(line) is None


def test_the_third_game_answers_near_misses_with_its_own_words() -> None:
    assert (PIG.near_miss("rol"), PIG.near_miss("hodl"), PIG.near_miss("hello")) == ("roll", "hold", None)


def test_edit_distance_counts_a_swap_of_neighbours_as_one() -> None:
    assert distance("wieter", "weiter") == 1
    assert distance("weitr", "weiter") == 1
    assert distance("stpp", "stopp") == 1
    assert distance("garde", "garde") == 0
    assert distance("", "bas") == 3


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_answer_names_the_word_in_every_language(lang: str) -> None:
    word = V6.near_miss("wieter")
    assert word is not None
    answer = render("error.did_you_mean", {"word": word}, lang)
    assert word in answer
    assert answer != render("error.did_you_mean", {"word": "stopp"}, lang)
