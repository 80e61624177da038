"""Every word in the channel's language, written the way that language writes it — over every catalogue,
and over what the games really say (the V6 event zoo, seeded Killer games, in de/en/fr):

* numbers: a typographic minus, never "– -5"; changes through ``{delta:signed}``; decimals and
  percentages with the language's marks ("63,90 %"), never a bare ``:.2f``;
* plurals: a counted noun goes through ``{n:plural:…}`` (no "alle 1 Würfe", "1 Augen"), French counts
  0 as singular;
* lists: an empty list is said ("Modes : aucun"), never "Modes : ." or "gardés )";
* French: "de" elides before a name ("Au tour d'anna"), and no sentence assumes a player's gender;
* docs: the rules pages point at nothing outside the repository.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

import bot.texts
from bot.games import GAMES, scope_of
from bot.texts import LANGUAGES, MINUS, render
from engine.game import Event
from tests.engine.killer.test_catalogue import _games as killer_games
from tests.engine.verflixte6.cases import event_zoo

ROOT = Path(__file__).resolve().parents[2]
PLAYER_FACTS = ("player", "victim", "robber", "target", "attacker", "winner", "next_player")


def catalogues() -> Iterator[tuple[str, str, str, str]]:
    """(file, language, key, template) of every catalogue: the shared ones and each game's."""
    folders = {Path(bot.texts.__file__).parent}
    folders |= {Path(str(resources.files(game.catalogue) / "texts")) for game in GAMES.values()}
    for folder in sorted(folders):
        for path in sorted(folder.glob("*.json")):
            lang = path.name.removesuffix(".json").rsplit(".", 1)[-1]
            for key, template in json.loads(path.read_text(encoding="utf-8")).items():
                yield path.name, lang, key, template


CATALOGUES = list(catalogues())
# Nouns after a count that may be 1 (a number of dice is never: Killer plays with 3 to 10).
COUNTED = {
    "de": r"Augen?|Würfe|Lebenspunkte[n]?|Einsätzen|Punkte",
    "en": r"pips?|hit points|uses",
    "fr": r"points|utilisations",
}


@pytest.mark.parametrize(("name", "lang", "key", "template"), CATALOGUES)
def test_templates_write_numbers_and_plurals_the_languages_way(
    name: str, lang: str, key: str, template: str
) -> None:
    assert ":+d}" not in template, "a change is written with {delta:signed} (typographic minus, ±0)"
    assert ":.2f}" not in template, "decimals and percentages use {x:decimal} / {p:percent}"
    assert "– {delta" not in template
    assert "– -" not in template
    bare = re.search(rf"\{{[a-z_]+\}} ({COUNTED.get(lang, '$^')})\b", template)
    assert bare is None, f"a counted noun after a bare number: {bare and bare.group(0)} (use :plural)"


@pytest.mark.parametrize(
    ("name", "key", "template"), [(n, k, t) for n, lang, k, t in CATALOGUES if lang == "fr"]
)
def test_french_elides_and_assumes_no_gender(name: str, key: str, template: str) -> None:
    for fact in PLAYER_FACTS:
        assert f"de {{{fact}}}" not in template, "write {player:elide:de}: d'anna, de ben"
        assert f"d'{{{fact}}}" not in template
    if any(f"{{{fact}" in template for fact in PLAYER_FACTS):
        gendered = re.findall(
            r"\b(?:il|lui|inscrit|éliminé|retiré|vivant|mourant|(?<!la )mort(?!·))\b", template
        )
        assert [g for g in gendered if g != "il"] == [], gendered
        assert not re.search(r"\bil (?:doit|est|a|en)\b", template)


@pytest.mark.parametrize(
    ("name", "key", "template"), [(n, k, t) for n, lang, k, t in CATALOGUES if lang == "fr"]
)
def test_french_says_tu_throughout(name: str, key: str, template: str) -> None:
    """One register, as the players of a forum table speak: tu — never vous, votre, vos, nor an
    imperative in -ez ("vérifiez", "Réessayez")."""
    assert not re.search(r"\b(?:vous|votre|vos)\b", template, re.IGNORECASE), template
    assert not re.search(r"\b\w+ez\b", template.replace("chez", "")), template


def said(events: list[Event], scope: Any, lang: str) -> Iterator[str]:
    for event in events:
        yield render(event.kind(), event.facts(), lang, str.capitalize, scope=scope)


@pytest.fixture(scope="module")
def spoken() -> dict[str, list[str]]:
    """Everything the games say in real play, per language."""
    v6 = event_zoo()
    killer = list(killer_games())
    out: dict[str, list[str]] = {}
    for lang in LANGUAGES:
        out[lang] = [
            *said(v6, scope_of(GAMES["verflixte6"]), lang),
            *said(killer, scope_of(GAMES["killer"]), lang),
            *said(killer, scope_of(GAMES["killer-classic"]), lang),
        ]
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_what_the_games_say_has_no_stray_signs_or_empty_lists(
    lang: str, spoken: dict[str, list[str]]
) -> None:
    for text in spoken[lang]:
        assert not re.search(r"(?<![\w/=])-\d", text), f"an ASCII minus: {text}"
        assert not re.search("– [−+]", text), text
        for hole in (" )", "( ", ": .", " : ,", "()", ":  ", " ,"):
            assert hole not in text, f"{hole!r} in {text}"
    assert any(MINUS in text for text in spoken[lang])  # negative numbers did come up


def test_french_says_d_anna_and_de_ben() -> None:
    scope = scope_of(GAMES["killer"])
    for name, expected in (("anna", "Au tour d'anna"), ("ben", "Au tour de ben")):
        assert render("killer.turn_started", {"player": name, "hp": 3}, "fr", scope=scope).startswith(
            expected
        )
    dernier = render(
        "killer.last_die_kept", {"player": "anna", "face": 2, "kept": (), "total": 9}, "fr", scope=scope
    )
    assert dernier.startswith("Dernier dé d'anna")


def test_french_repeats_the_preposition_before_each_name() -> None:
    """ "voler 1 point à anna ou à ben", not "à anna ou ben" (``{victims:or_each:à}``)."""
    scope = scope_of(GAMES["verflixte6"])
    facts = {"player": "cleo", "amount": 1, "victims": ["anna", "ben", "eve"]}
    offered = render("v6.robbery_offered", facts, "fr", scope=scope)
    assert "à anna, à ben ou à eve" in offered
    assert render("v6.robbery_offered", {**facts, "victims": ["anna"]}, "fr", scope=scope).count(" à ") == 1


# One word for one thing in each language's catalogues: the term on the left, never the others.
TERMS = {
    "en": {"free throw": ("Freiwurf", "Durchgang")},
    "fr": {"Durchgang": ("manche",), "anciennes règles": ("ancienne règle",)},
}


@pytest.mark.parametrize(("name", "lang", "key", "template"), [c for c in CATALOGUES if c[1] in TERMS])
def test_each_language_calls_a_thing_by_one_name(name: str, lang: str, key: str, template: str) -> None:
    for term, others in TERMS[lang].items():
        for other in others:
            assert other.casefold() not in template.casefold(), f"{other!r}: this language says {term!r}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_standings_columns_are_named_like_the_rounds(lang: str) -> None:
    """The column of Durchgang 1 starts like the word the game's own lines use for it: D1 where it is a
    Durchgang (German, French), R1 where it is a round (English)."""
    number = 1
    title = render("game.round", {"number": number}, lang, scope=scope_of(GAMES["verflixte6"]))
    word = title.split()[-2]  # "… · Durchgang 1", "… · round 1"
    assert render("standings.column.round", {"number": number}, lang) == f"{word[0].upper()}{number}"


@pytest.mark.parametrize(("lang", "word"), [("fr", "0 point "), ("de", "0 Augen"), ("en", "0 pips")])
def test_zero_is_singular_in_french_only(lang: str, word: str) -> None:
    scope = scope_of(GAMES["verflixte6"])
    assert word in render("v6.stopped", {"player": "anna", "total": 0}, lang, scope=scope)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_killer_says_when_no_mode_is_on_and_what_was_kept(lang: str) -> None:
    scope = scope_of(GAMES["killer"])
    started = render(
        "killer.started",
        {"players": ["a", "b"], "dice": 5, "low": 11, "high": 24, "modes": ()},
        lang,
        scope=scope,
    )
    assert ": ." not in started
    facts = {
        "player": "anna",
        "by": "anna",
        "roll": (6, 5),
        "kept": (),
        "keep": (6,),
        "goal": "attack",
        "p_attack": "1/2",
        "attack_pct": 63.9,
        "p_regeneration": "1/9",
        "regeneration_pct": 7.42,
        "p_loss": "1/3",
        "loss_pct": 28.68,
        "expected_loss": 0.66,
        "attack_by_value": (),
    }
    advice = render("killer.advice_attack", facts, lang, scope=scope)
    assert " )" not in advice
    assert ("63.90%" if lang == "en" else "63,90 %") in advice
    assert ("0.66" if lang == "en" else "0,66") in advice


@pytest.mark.parametrize("lang", LANGUAGES)
def test_german_plurals_agree(lang: str) -> None:
    one = render("common.verify_ok", {"title": "X", "count": 1, "commitment": "ab"}, lang)
    many = render("common.verify_ok", {"title": "X", "count": 3, "commitment": "ab"}, lang)
    assert one != many.replace("3", "1")  # the noun (and its verb) agree with the count
    if lang == "de":
        assert "alle 1" not in one
        assert "1 Wurf " in one


def test_the_rules_pages_point_at_nothing_outside_the_repository() -> None:
    for page in sorted((ROOT / "docs").glob("rules-*.md")):
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"shared/|/work/|\.\./", text), page.name
        for path in re.findall(r"`((?:docs|engine|bot|tests)/[\w./-]+\.(?:md|py|json))`", text):
            assert (ROOT / path).exists(), f"{page.name} points at {path}"
