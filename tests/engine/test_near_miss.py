"""Near misses: a line whose first word is a typo of a game word gets the word it probably meant
(``Game.near_miss``); commands, chit-chat and sentences that merely contain a word get None. The
check is bounded: a huge first word is given up on by its length, before a letter is compared."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, SupportsIndex

import pytest

import engine.commands
from bot.texts import LANGUAGES, render
from engine.commands import distance, near, tolerance
from engine.dice import ScriptedDice
from engine.game import Game, Join
from engine.killer import KILLER, KILLER_CLASSIC
from engine.verflixte6 import GAME as V6
from tests.engine.killer.helpers import position
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


def test_raube_nich_meant_raube_nicht() -> None:
    """V6-N5 words: "raube nich" reads as robbing someone called "nich"; once no player answers to that
    name (the service asks only then), it meant „raube nicht“. A name further off stays a name."""
    assert V6.parse("raube nich") is not None
    assert V6.near_miss("raube nich") == V6.near_miss("raube nciht") == "raube nicht"
    assert V6.near_miss("raube nick") is None  # two letters off: a player's name, not a typo
    assert V6.near_miss("raube nicht") is None


class _Letters(str):
    """A word that counts how often its letters are read (iterated or indexed)."""

    reads = 0

    def __iter__(self) -> Iterator[str]:
        type(self).reads += 1
        return super().__iter__()

    def __getitem__(self, index: SupportsIndex | slice) -> str:
        type(self).reads += 1
        return super().__getitem__(index)


@pytest.mark.parametrize("length", [2_000, 4_000, 100_000])
def test_a_huge_first_word_is_rejected_by_its_length_alone(length: int) -> None:
    """Security: one 2,000-letter word used to cost ~80 ms of edit distance per game word on the
    event loop. Now the lengths are compared first: not one letter of the huge word is read."""
    huge = _Letters("w" * length)
    _Letters.reads = 0
    assert distance(huge, "weiter", tolerance("weiter")) == tolerance("weiter") + 1
    assert near(huge, "weiter") is None
    assert _Letters.reads == 0


def test_near_miss_compares_no_letter_of_a_huge_first_word(monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the whole check of every game: each comparison with a game word ends at the length
    test, for a line as long as a Discord message allows."""
    compared: list[int] = []  # the cells each comparison of the huge word would compute
    real = engine.commands.distance

    def counting(a: str, b: str, limit: int | None = None) -> int:
        assert limit is not None, "every near-miss comparison is bounded"
        if len(a) > 1_000:
            compared.append(len(a) * len(b) if abs(len(a) - len(b)) <= limit else 0)
        return real(a, b, limit)

    monkeypatch.setattr(engine.commands, "distance", counting)
    line = "w" * 1_990 + " weiter"
    for game in (V6, KILLER, KILLER_CLASSIC, PIG):
        assert game.near_miss(line) is None
    assert compared
    assert set(compared) == {0}


@pytest.mark.parametrize(
    ("a", "b", "limit", "expected"),
    [
        ("wieter", "weiter", 2, 1),
        ("weitr", "weiter", 1, 1),
        ("xxxxxx", "weiter", 2, 3),  # far off: reported as limit + 1
        ("weiterxxxx", "weiter", 2, 3),  # lengths too far apart
        ("garde", "garde", 0, 0),
    ],
)
def test_a_bounded_distance_is_exact_up_to_its_limit(a: str, b: str, limit: int, expected: int) -> None:
    assert distance(a, b, limit) == expected
    assert min(distance(a, b), limit + 1) == expected


def test_K5_K1_with_the_game_a_near_miss_offers_only_words_valid_now() -> None:
    """K5-K1 / K5-A1: "atack ben" meant "attaque" only once an attack awaits its target; in a keep
    phase the keep words are what counts ("garde tou"), and a question ("conseill") is always valid."""
    keeping = position({"anna": ("alive", 30), "ben": ("alive", 30)}, "anna", [5, 6, 6, 4, 4])
    assert KILLER.near_miss("atack ben") == "attaque"  # without the game: any of its words
    assert KILLER.near_miss("atack ben", keeping.state) is None
    assert KILLER.near_miss("garde tou", keeping.state) == "garde tout"
    assert KILLER.near_miss("conseill", keeping.state) == "conseil"
    keeping.do("anna", "garde tout")  # 25: an attack of 1
    assert keeping.step == "target"
    assert KILLER.near_miss("atack ben", keeping.state) == "attaque"
    assert KILLER.near_miss("garde tou", keeping.state) is None


def test_V6_S2_with_the_game_a_near_miss_offers_only_words_valid_now() -> None:
    """V6-S2: before the Freiwurf "stopp" is refused, so "stpp" is no near miss of it; "wieter" is."""
    state = V6.open({})
    for player in ("anna", "ben"):
        state, _ = V6.apply(state, player, Join(player), ScriptedDice(()))
    assert V6.near_miss("stpp") == "stopp"
    assert V6.near_miss("stpp", state) is None
    assert V6.near_miss("wieter", state) == "weiter"
    assert V6.near_miss("raube nich", state) is None  # no robbery awaits an answer
