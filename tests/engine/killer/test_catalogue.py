"""Every Killer event kind and refusal code has a template in French and English, and each template
formats with the facts the engine really gives it."""

from __future__ import annotations

import ast
import inspect
import random
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.texts import game_catalogue, render
from engine.game import Close, Event, Join, Leave, Remove, Skip, Start, Timeout
from engine.killer import KILLER, KILLER_CLASSIC, Advice
from engine.killer import events as ev
from engine.killer.game import EXPECTING

from .helpers import SeededDice, Table, position, sensible

SCOPE = (KILLER.catalogue, KILLER.name)
ENGINE = Path(__file__).resolve().parents[3] / "engine" / "killer"
LANGUAGES = ("fr", "en")
EVENT_CLASSES = [
    cls
    for _, cls in inspect.getmembers(ev, inspect.isclass)
    if issubclass(cls, ev.KillerEvent) and cls is not ev.KillerEvent
]
SHARED_CODES = {
    "not_your_turn",
    "unknown_player",
    "unsupported_format",
}  # same facts as the other games' (player, name, suggestions, version, expected)


def catalogue(lang: str) -> dict[str, str]:
    return dict(game_catalogue(SCOPE, lang))


def _games() -> Iterator[Event]:
    """Seeded games through every phase, plus the few scenes random play rarely reaches."""
    for seed in range(40):
        classic = seed % 4 == 0
        game = KILLER_CLASSIC if classic else KILLER
        rng, dice = random.Random(seed), SeededDice(seed)
        modes = ["terminator", "zombie", "mythic"][: seed % 4]
        state = game.open({} if classic else {"dice": 3 + seed % 4, "modes": modes})
        for name in ("anna", "ben", "carl", "dora", "emil")[: 2 + seed % 4]:
            state, events = game.apply(state, name, Join(name), dice)
            yield from events
        state, events = game.apply(state, "mod", Start(), dice)
        yield from events
        while not game.finished(state):
            actor = game.to_act(state)
            assert actor is not None
            luck = rng.random()
            command = Timeout() if luck < 0.05 else Advice() if luck < 0.1 else sensible(game, state, rng)
            state, events = game.apply(state, actor, command, dice)
            yield from events
    lobby = Table([], players=("anna", "ben", "carl", "dora"))
    lobby.do("dora", Leave())
    lobby.do("mod", Skip("anna"))
    lobby.do("mod", Remove("carl"))
    lobby.do("mod", Close())
    yield from lobby.events
    immune = position(
        {"anna": ("alive", 30), "ben": ("alive", 10)},
        "ben",
        [5, 6, 6, 4, 4, 1, 2, 3, 4, 5, 2, 3, 4, 5],
        options={"modes": ["terminator"]},
        terminator={"ben": 1},
    )
    immune.do("ben", "garde tout")
    immune.do("ben", "attaque")
    yield from immune.events
    zombie = position(
        {"anna": ("alive", 30), "ben": ("zombie", 1)}, "ben", [1, 1, 1, 1, 1], options={"modes": "zombie"}
    )
    zombie.do("ben", "haut")
    zombie.do("ben", "garde tout")
    yield from zombie.events
    sweep = Table([6] * 6 + [6] * 6, setup=(30, 30, 30), players=("anna", "ben", "carl"), game=KILLER_CLASSIC)
    sweep.do("anna", "garde tout")
    sweep.do("anna", "attaque ben")
    yield from sweep.events


@pytest.fixture(scope="module")
def real_events() -> dict[str, Event]:
    return {event.kind(): event for event in _games()}


def test_every_event_kind_is_produced_by_real_play(real_events: dict[str, Event]) -> None:
    assert {cls.kind() for cls in EVENT_CLASSES} <= set(real_events)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_event_template_formats_with_real_facts(lang: str, real_events: dict[str, Event]) -> None:
    templates = catalogue(lang)
    for cls in EVENT_CLASSES:
        kind = cls.kind()
        assert kind in templates, f"{lang}: no template for {kind}"
        facts = real_events[kind].facts()
        text = templates[kind].format_map(_plain(facts))  # KeyError / ValueError on a wrong placeholder
        assert text
        assert "{" not in text
        assert render(kind, facts, lang, str.upper, scope=SCOPE)  # the service's path too


def _plain(facts: dict[str, Any]) -> dict[str, Any]:
    return {k: ", ".join(map(str, v)) if isinstance(v, list | tuple) else v for k, v in facts.items()}


def _raise_sites() -> dict[str, set[str]]:
    """Each refusal code raised under engine/killer with the fact names given where it is raised."""
    sites: dict[str, set[str]] = {}
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args):
                continue
            if node.func.id not in ("InvalidCommand", "IllegalCommand", "NotYourTurn"):
                continue
            first = node.args[0]
            codes = [first.value] if isinstance(first, ast.Constant) else list(EXPECTING.values())
            for code in codes:
                sites.setdefault(code, set()).update(k.arg for k in node.keywords if k.arg)
    return sites


def test_the_refusal_codes_are_found() -> None:
    codes = _raise_sites()
    assert {"killer_not_rolled", "killer_target_immune", "killer_expect_target", "not_your_turn"} <= set(
        codes
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_code_has_a_template_over_its_facts(lang: str) -> None:
    templates = catalogue(lang)
    for code, facts in _raise_sites().items():
        key = f"error.{code}"
        assert key in templates, f"{lang}: no template for {key}"
        names = {field for _, field, _, _ in string.Formatter().parse(templates[key]) if field}
        assert names <= facts, f"{key} uses {names - facts}"
        assert code in SHARED_CODES or code.startswith("killer_")


def test_both_catalogues_have_the_same_keys() -> None:
    assert set(catalogue("fr")) == set(catalogue("en"))
