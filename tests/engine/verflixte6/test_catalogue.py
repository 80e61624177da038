"""The game's catalogue: every event, refusal, role, joker and choice has a text in German, English and
French, with the same keys and the same placeholders in each, and each formats with the facts it is given."""

from __future__ import annotations

import re
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import engine.verflixte6
from bot.service.croupier import NOTHING_OPEN
from bot.texts import LANGUAGES, PLAYER_FIELDS, game_catalogue, render
from engine.errors import CroupierError
from engine.verflixte6 import GAME
from engine.verflixte6.events import V6Event, all_event_classes
from engine.verflixte6.jokers import registry
from engine.verflixte6.state import ROLES

from .cases import event_zoo, misread_errors, other_errors, refusal_errors

PACKAGE = Path(engine.verflixte6.__file__).parent
SCOPE = (GAME.catalogue, GAME.name)
RAISED = re.compile(r"(?:InvalidCommand|IllegalCommand|NotYourTurn)\(\s*\"([a-z_]+)\"")
ACTION = re.compile(r"\baction=\"([a-z_]+)\"")
HIGHLIGHT = re.compile(r"\"(highlight\.[a-z_]+)\"")
GROUP = re.compile(r'(?:\bgroup=|_GROUP = )"(\w+)"')  # a choices' group: one select menu
# What the front ends render about the game itself, with the facts they pass (bot/replies.py).
FRONT = {
    "game.title": {},
    "game.round": {"number": 7},
    "game.opened": {"number": 7, "tournament": "Sommer", "commitment": "ab12"},
    "help.words": {},
    "help.rules": {},
}


def own_catalogue(lang: str) -> dict[str, str]:
    return dict(game_catalogue(SCOPE, lang))


def codes_in_source() -> set[str]:
    return {
        code for path in PACKAGE.rglob("*.py") for code in RAISED.findall(path.read_text(encoding="utf-8"))
    }


def actions_in_source() -> set[str]:
    return set(ACTION.findall((PACKAGE / "choices.py").read_text(encoding="utf-8")))


def select_groups_in_source() -> set[str]:
    """The groups the choices come in (each a select menu, its placeholder ``select.<group>``)."""
    return set(GROUP.findall((PACKAGE / "choices.py").read_text(encoding="utf-8")))


def highlights_in_source() -> set[str]:
    return {
        key for path in PACKAGE.rglob("*.py") for key in HIGHLIGHT.findall(path.read_text(encoding="utf-8"))
    }


SEAT_DETAILS = ("jokers", "cold", "valve", "fumo")  # the running table's details (Verflixte6.table)


def expected_keys() -> set[str]:
    events = {cls.kind() for cls in all_event_classes()} | {f"seat.details.{key}" for key in SEAT_DETAILS}
    codes = {f"error.{code}" for code in codes_in_source()}
    roles = {f"role.{role}" for role in ROLES}
    jokers = {f"v6.joker_info.{name}" for name in registry.NAMES}
    choices = {f"choice.{action}" for action in actions_in_source()}  # labels: test_choices renders them
    highlights = highlights_in_source()  # headings: test_highlights renders them
    selects = {f"select.{group}" for group in select_groups_in_source()}  # what an empty menu says
    # Each topic's title, summary and the sentence said in games without it.
    elsewhere = {key for topic in GAME.topics for key in (topic.title, topic.summary, topic.elsewhere)}
    service = {f"error.{NOTHING_OPEN}"}  # the service's words for it: "no Durchgang is open"
    return events | codes | roles | jokers | choices | highlights | selects | elsewhere | service | set(FRONT)


def fields(template: str) -> Iterator[str]:
    """Every replacement field as written (``cmd[join]``, ``amount``), nested ones in specs included."""
    for _, field, spec, _ in string.Formatter().parse(template):
        if field is not None:
            yield field
        if spec:
            yield from fields(spec)


def placeholders(template: str) -> set[str]:
    """The facts a template reads (``cmd`` is the front end's, not a fact)."""
    return {field.split(".")[0].split("[")[0] for field in fields(template)} - {"cmd"}


@pytest.fixture(scope="module")
def zoo() -> list[V6Event]:
    return event_zoo()


@pytest.fixture(scope="module")
def errors() -> list[CroupierError]:
    return refusal_errors() + other_errors() + misread_errors()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_V6_catalogue_has_exactly_the_keys_the_game_uses(lang: str) -> None:
    keys, expected = set(own_catalogue(lang)), expected_keys()
    assert expected - keys == set()  # every event, error, role, joker, choice, highlight, front text
    assert keys - expected == set()  # nothing stale


def test_V6_catalogue_languages_have_the_same_keys_and_placeholders() -> None:
    german = own_catalogue("de")
    for lang in LANGUAGES:
        other = own_catalogue(lang)
        assert list(other) == list(german), lang  # same keys, same order: easy to compare side by side
        for key, template in other.items():
            assert set(fields(template)) == set(fields(german[key])), (lang, key, template)


def test_V6_catalogue_zoo_produces_every_event_kind(zoo: list[V6Event]) -> None:
    assert {type(e) for e in zoo} == set(all_event_classes())


def test_V6_catalogue_scenarios_raise_every_error_code(errors: list[CroupierError]) -> None:
    assert codes_in_source() - {e.code for e in errors} == set()


def _name_of(pid: str) -> str:
    return pid.capitalize()


def _rendered(key: str, facts: dict[str, Any], lang: str) -> str:
    template = own_catalogue(lang)[key]
    assert placeholders(template) <= set(facts), (lang, key, template)
    text = render(key, facts, lang, _name_of, scope=SCOPE)
    assert "{" not in text, (lang, text)
    assert "None" not in text, (lang, text)
    return text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_V6_catalogue_event_templates_format_with_real_facts(lang: str, zoo: list[V6Event]) -> None:
    for event in zoo:
        _rendered(event.kind(), event.facts(), lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_V6_catalogue_error_templates_format_with_real_facts(lang: str, errors: list[CroupierError]) -> None:
    for error in errors:
        _rendered(f"error.{error.code}", dict(error.facts), lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_V6_catalogue_front_roles_and_joker_texts_format(lang: str) -> None:
    for key, facts in FRONT.items():
        _rendered(key, facts, lang)
    for role in ROLES:
        _rendered(f"role.{role}", {}, lang)
    for name in registry.NAMES:
        assert name in _rendered(f"v6.joker_info.{name}", {}, lang)


def test_V6_catalogue_names_players_by_display_name(zoo: list[V6Event]) -> None:
    robbed = next(e for e in zoo if e.kind() == "v6.robbed")
    assert "Ben raubt Anna 1 Auge." in render("v6.robbed", robbed.facts(), "de", _name_of, scope=SCOPE)
    assert "Ben robs 1 pip from Anna." in render("v6.robbed", robbed.facts(), "en", _name_of, scope=SCOPE)
    assert "Ben vole 1 point à Anna." in render("v6.robbed", robbed.facts(), "fr", _name_of, scope=SCOPE)


NAMED = "|".join(sorted({*PLAYER_FIELDS, "name", "joker"}))
ELIDED = re.compile(rf"\b(?:de|que|le|la|du|ce|ne|se|jusque|lorsque|puisque) \{{(?:{NAMED})\b", re.IGNORECASE)


def test_V6_catalogue_french_never_needs_an_elision_before_a_name() -> None:
    """A template cannot write « d'Anna » and « de Ben » alike, so no article or « de »/« que » precedes a
    name in French: « c'est à {player} de jouer », never « au tour de {player} »."""
    for key, template in own_catalogue("fr").items():
        assert not ELIDED.search(template), (key, template)
