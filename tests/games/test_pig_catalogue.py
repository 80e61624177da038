"""Pig's catalogue (tests/games/pig/texts) is complete in de, en and fr, like the croupier's own games':
the same keys and placeholders in every language, a template for every event, refusal, choice, role
and info line the game produces, nothing stale, and every event's template formats with its facts."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import json
import string
from importlib import resources
from pathlib import Path

import pytest

from bot.games import scope_of
from bot.texts import CONSOLE_COMMANDS, LANGUAGES, render
from tests.games.pig import GAME as PIG
from tests.games.pig import game as pig_game

SOURCE = Path(pig_game.__file__)
TEXTS = resources.files(PIG.catalogue) / "texts"
GAME_KEYS = {"game.title", "game.round", "game.opened", "help.words", "help.rules"}
EVENTS = [
    cls
    for _, cls in inspect.getmembers(pig_game, inspect.isclass)
    if issubclass(cls, pig_game.PigEvent) and cls is not pig_game.PigEvent
]


def catalogue(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((TEXTS / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def constants(call: str, keyword: str | None = None) -> set[str]:
    """The string constants Pig's source passes to ``call``: its first argument, or ``keyword``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(SOURCE.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == call):
            continue
        values = [k.value for k in node.keywords if k.arg == keyword] if keyword else node.args[:1]
        found |= {v.value for v in values if isinstance(v, ast.Constant) and isinstance(v.value, str)}
    return found


def expected_keys() -> set[str]:
    keys = GAME_KEYS | {cls.kind() for cls in EVENTS}
    keys |= {
        f"error.{code}"
        for name in ("InvalidCommand", "IllegalCommand", "NotYourTurn")
        for code in constants(name)
    }
    keys |= {f"choice.{action}" for action in constants("Choice")}
    keys |= {f"role.{role}" for role in ("waiting", "rolling", "winner")}
    for topic in PIG.topics:  # each topic's title, summary and entries (and its own "elsewhere")
        keys |= {topic.title, topic.summary, *(line.key for line in PIG.info(None, topic.name))}
        keys |= {topic.elsewhere} - {""}
    return keys


def test_the_source_scan_finds_what_pig_produces() -> None:
    assert {
        "error.pig_over",
        "error.pig_not_your_turn",
        "choice.roll",
        "choice.hold",
        "info.odds",
        "info.odds.title",
        "info.odds.summary",
    } <= expected_keys()
    assert len(EVENTS) >= 8


def test_every_language_has_the_same_keys_and_placeholders() -> None:
    files = {lang: catalogue(lang) for lang in LANGUAGES}
    keys = set(files["en"])
    for lang in LANGUAGES:
        assert set(files[lang]) == keys, (lang, set(files[lang]) ^ keys)
    for key in sorted(keys):
        assert fields(files["de"][key]) == fields(files["en"][key]) == fields(files["fr"][key]), key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalogue_is_complete_and_nothing_in_it_is_stale(lang: str) -> None:
    keys, expected = set(catalogue(lang)), expected_keys()
    assert expected - keys == set(), "missing"
    assert keys - expected == set(), "stale"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("event", EVENTS, ids=lambda cls: cls.kind())
def test_every_event_renders_with_its_own_facts(lang: str, event: type[pig_game.PigEvent]) -> None:
    values = {"player": "anna", "face": 4, "turn": 9, "lost": 2, "banked": 5, "total": 12}
    instance = event(**{spec.name: values[spec.name] for spec in dataclasses.fields(event)})
    text = render(instance.kind(), instance.facts(), lang, str, CONSOLE_COMMANDS, scope_of(PIG))
    assert text != instance.kind()
    assert "{" not in text
    assert fields(catalogue(lang)[instance.kind()]) <= set(instance.facts()) | {"cmd[join]"}
