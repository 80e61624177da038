"""Every event and every refusal of the game has a sentence in German and English that formats with its
facts."""

from __future__ import annotations

import re
import string
from pathlib import Path
from typing import Any

import pytest

import engine.verflixte6
from bot.texts import game_catalogue, render
from engine.errors import CroupierError
from engine.verflixte6 import GAME
from engine.verflixte6.events import V6Event, all_event_classes

from .cases import event_zoo, other_errors, refusal_errors

PACKAGE = Path(engine.verflixte6.__file__).parent
SCOPE = (GAME.catalogue, GAME.name)
RAISED = re.compile(r"(?:InvalidCommand|IllegalCommand|NotYourTurn)\(\s*\"([a-z_]+)\"")
LANGS = ("de", "en")


def own_catalogue(lang: str) -> dict[str, str]:
    return dict(game_catalogue(SCOPE, lang))


def codes_in_source() -> set[str]:
    return {
        code for path in PACKAGE.rglob("*.py") for code in RAISED.findall(path.read_text(encoding="utf-8"))
    }


def placeholders(template: str) -> set[str]:
    return {
        field.split(".")[0].split("[")[0] for _, field, _, _ in string.Formatter().parse(template) if field
    }


@pytest.fixture(scope="module")
def zoo() -> list[V6Event]:
    return event_zoo()


@pytest.fixture(scope="module")
def errors() -> list[CroupierError]:
    return refusal_errors() + other_errors()


@pytest.mark.parametrize("lang", LANGS)
def test_V6_catalogue_has_every_event_and_error_code(lang: str) -> None:
    keys = set(own_catalogue(lang))
    events = {cls.kind() for cls in all_event_classes()}
    codes = {f"error.{code}" for code in codes_in_source()}
    assert events - keys == set()
    assert codes - keys == set()
    described = {k for k in keys if k.split(".")[0] in ("game", "help", "role") or "joker_info" in k}
    assert keys - events - codes - described == set()  # nothing stale


def test_V6_catalogue_zoo_produces_every_event_kind(zoo: list[V6Event]) -> None:
    assert {type(e) for e in zoo} == set(all_event_classes())


def test_V6_catalogue_scenarios_raise_every_error_code(errors: list[CroupierError]) -> None:
    assert codes_in_source() - {e.code for e in errors} == set()


def _name_of(pid: str) -> str:
    return pid.capitalize()


@pytest.mark.parametrize("lang", LANGS)
def test_V6_catalogue_event_templates_format_with_real_facts(lang: str, zoo: list[V6Event]) -> None:
    templates = own_catalogue(lang)
    for event in zoo:
        facts: dict[str, Any] = event.facts()
        template = templates[event.kind()]
        assert placeholders(template) - {"cmd"} <= set(facts), (event.kind(), template)
        text = render(event.kind(), facts, lang, _name_of, scope=SCOPE)
        assert "{" not in text, text
        assert "None" not in text, text


@pytest.mark.parametrize("lang", LANGS)
def test_V6_catalogue_error_templates_format_with_real_facts(lang: str, errors: list[CroupierError]) -> None:
    templates = own_catalogue(lang)
    for error in errors:
        if error.code == "dice_exhausted":
            continue
        template = templates[f"error.{error.code}"]
        assert placeholders(template) - {"cmd"} <= set(error.facts), (error.code, template)
        text = render(f"error.{error.code}", error.facts, lang, _name_of, scope=SCOPE)
        assert "{" not in text, text


def test_V6_catalogue_names_players_by_display_name(zoo: list[V6Event]) -> None:
    robbed = next(e for e in zoo if e.kind() == "v6.robbed")
    text = render("v6.robbed", robbed.facts(), "de", _name_of, scope=SCOPE)
    assert "Ben raubt Anna 1 Auge." in text  # singular for one pip
