"""Killer's catalogue (engine/killer/texts) is complete in de, en and fr for both rule sets: the same
keys and placeholders in every language, a template for every event, refusal, choice and role the
engine produces, nothing stale, and every template formats with facts the engine really gives."""

from __future__ import annotations

import ast
import inspect
import json
import random
import re
import string
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any, get_args

import pytest

from bot.service.croupier import NOTHING_OPEN
from bot.texts import LANGUAGES, game_catalogue, render
from engine.errors import CroupierError
from engine.game import Close, Command, Event, Join, Leave, Remove, Skip, Start, Timeout
from engine.killer import KILLER, KILLER_CLASSIC, Advice, Attack, Keep
from engine.killer import events as ev
from engine.killer import game as killer_game
from engine.killer.game import EXPECTING, EXPECTING_BARE_ATTACK, _KillerGame
from engine.killer.rules import MODES
from engine.killer.state import Status

from .helpers import SeededDice, Table, position, sensible
from .test_snapshot import STORED_CLASSIC, STORED_KILLER

ENGINE = Path(__file__).resolve().parents[3] / "engine" / "killer"
TEXTS = resources.files(KILLER.catalogue) / "texts"
GAMES = {KILLER.name: KILLER, KILLER_CLASSIC.name: KILLER_CLASSIC}
SCOPES = [(KILLER.catalogue, name) for name in GAMES]
FILES = ["{lang}.json", f"{KILLER_CLASSIC.name}.{{lang}}.json"]  # shared, then the older rules' own
EVENT_CLASSES = [
    cls
    for _, cls in inspect.getmembers(ev, inspect.isclass)
    if issubclass(cls, ev.KillerEvent) and cls is not ev.KillerEvent
]
SHARED_CODES = {
    "not_your_turn",
    "unknown_player",
    "no_such_player",
    "unsupported_format",
}  # same facts as other games'
GAME_KEYS = {"game.title", "game.round", "game.opened", "help.words", "help.rules"}
GAME_FACTS = {"number": 7, "tournament": "Frühjahr 2025", "commitment": "ab" * 32}


def _file(pattern: str, lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((TEXTS / pattern.format(lang=lang)).read_text(encoding="utf-8"))
    return data


def _fields(template: str) -> set[str]:
    """Placeholder names, those in plural specs (``{n:plural:dé:dés}``) and indices (``cmd[join]``) too."""
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


# What the engine produces, read from its source.


def _calls(name: str) -> Iterator[ast.Call]:
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name:
                yield node


def _raise_sites() -> dict[str, set[str]]:
    """Each refusal code raised under engine/killer with the fact names given where it is raised."""
    sites: dict[str, set[str]] = {}
    for name in ("InvalidCommand", "IllegalCommand", "NotYourTurn"):
        for node in _calls(name):
            first = node.args[0]
            codes = (
                [first.value]
                if isinstance(first, ast.Constant)
                else [*EXPECTING.values(), EXPECTING_BARE_ATTACK]
            )
            for code in codes:
                sites.setdefault(code, set()).update(k.arg for k in node.keywords if k.arg)
    return sites


def _actions() -> set[str]:
    """Every ``Choice(action=…)`` the engine builds."""
    return {
        keyword.value.value
        for node in _calls("Choice")
        for keyword in node.keywords
        if keyword.arg == "action" and isinstance(keyword.value, ast.Constant)
    }


SEAT_DETAILS = {"terminator"}  # the keys of the running table's details (KillerGame.table)
GROUP = re.compile(r'(?:\bgroup=|_GROUP = )"(\w+)"')  # a choices' group: one select menu


def _select_groups() -> set[str]:
    """The groups the choices come in (each a select menu, its placeholder ``select.<group>``)."""
    return set(GROUP.findall((ENGINE / "choices.py").read_text(encoding="utf-8")))


def _expected_keys() -> set[str]:
    keys = {cls.kind() for cls in EVENT_CLASSES} | GAME_KEYS | {f"seat.details.{k}" for k in SEAT_DETAILS}
    keys |= {f"error.{code}" for code in _raise_sites()}
    keys |= {f"choice.{action}" for action in _actions()}
    keys |= {f"select.{group}" for group in _select_groups()}
    keys |= {f"mode.{mode}" for mode in MODES}  # the modes as the opening names them
    keys |= {f"error.{NOTHING_OPEN}"}  # the service's words for it: "no Killer game is open"
    return keys | {f"role.{status}" for status in get_args(Status)}


def test_the_source_scan_finds_what_the_engine_produces() -> None:
    assert {"killer_not_rolled", "killer_expect_again", "killer_bad_snapshot", "not_your_turn"} <= set(
        _raise_sites()
    )
    assert {"keep_die", "attack", "pass", "attack_self"} <= _actions()
    assert _select_groups() == {"keep", "target"}


# Keys and placeholders


@pytest.mark.parametrize("pattern", FILES)
def test_every_language_has_the_same_keys_and_placeholders(pattern: str) -> None:
    files = {lang: _file(pattern, lang) for lang in LANGUAGES}
    keys = set(files["en"])
    for lang in LANGUAGES:
        assert set(files[lang]) == keys, f"{pattern.format(lang=lang)}: {set(files[lang]) ^ keys}"
    for key in sorted(keys):
        fields = {lang: _fields(files[lang][key]) for lang in LANGUAGES}
        assert fields["de"] == fields["en"] == fields["fr"], (key, fields)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_older_rules_only_say_differently_what_the_shared_file_says(lang: str) -> None:
    shared, own = _file(FILES[0], lang), _file(FILES[1], lang)
    assert set(own) <= set(shared)
    assert set(own) >= GAME_KEYS
    for key in own:  # fewer facts may do (the older rules' single attack roll sets nothing aside)
        assert _fields(own[key]) <= _fields(shared[key]), key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalogue_is_complete_and_nothing_in_it_is_stale(lang: str) -> None:
    keys = set(_file(FILES[0], lang))
    expected = _expected_keys()
    assert expected - keys == set(), "missing"
    assert keys - expected == set(), "stale"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_template_uses_only_the_facts_its_raise_sites_give(lang: str) -> None:
    for scope in SCOPES:
        templates = game_catalogue(scope, lang)
        for code, facts in _raise_sites().items():
            names = _fields(templates[f"error.{code}"])
            assert names <= facts, f"{scope[1]} {lang} error.{code} uses {names - facts}"
            assert code in SHARED_CODES or code.startswith("killer_")


# Sentences in the right language: only the French words players type may cross over.

QUOTED = re.compile(r"„[^“]*“|“[^”]*”|«[^»]*»|\"[^\"]*\"|\{[^}]*\}|docs/\S+")
# Telling words only: not "du" (German too), "die" (an English die), "partie" (German too).
FRENCH = {"le", "la", "les", "est", "une", "pour", "avec", "pas", "qui", "au", "aux", "et", "vie"}
ENGLISH = {"the", "and", "is", "with", "of", "to", "attack", "game", "turn", "dice", "keep", "wins"}
GERMAN = {"der", "das", "und", "ist", "mit", "nicht", "würfel", "zug"}


@pytest.mark.parametrize(
    ("lang", "foreign"), [("de", FRENCH | ENGLISH), ("en", FRENCH | GERMAN), ("fr", ENGLISH | GERMAN)]
)
@pytest.mark.parametrize("pattern", FILES)
def test_no_sentence_is_in_another_language(pattern: str, lang: str, foreign: set[str]) -> None:
    for key, template in _file(pattern, lang).items():
        words = set(re.findall(r"[^\W\d_]+", QUOTED.sub(" ", template).lower()))
        assert not words & foreign, (key, words & foreign)


# Every template formats with real facts


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
    keeping = _keeping()
    yield from KILLER.prompt(keeping.state)  # the roll on the table, said again (after an undo)
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
    all_immune = position(
        {"anna": ("alive", 30), "ben": ("alive", 10)},
        "ben",
        [5, 6, 6, 4, 4],
        options={"modes": ["terminator"]},
        terminator={"anna": 1},
    )
    all_immune.do("ben", "garde tout")  # an attack of 1: anna is immune, only "attaque" is left
    yield from all_immune.events
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


class _Odd(Command):
    """A command no Killer step knows."""


def _refusal(attempt: Callable[[], object]) -> CroupierError:
    with pytest.raises(CroupierError) as caught:
        attempt()
    return caught.value


def _keeping() -> Table:
    return Table([6, 5, 2, 1, 1], setup=(30, 30))


def _targeting(game: _KillerGame = KILLER) -> Table:
    if game is KILLER_CLASSIC:
        table = Table([6] * 6 + [6, 1, 2, 3, 4, 5], setup=(30, 30), game=game)  # strength 6, then one hit
    else:  # anna holds an attack of 1; carl is dead, dora an immune Terminator
        table = position(
            {"anna": ("alive", 30), "ben": ("alive", 30), "carl": ("dead", -2), "dora": ("alive", 30)},
            "anna",
            [5, 6, 6, 4, 4],
            options={"modes": ["terminator"]},
            terminator={"dora": 1},
        )
    table.do("anna", "garde tout")
    return table


def _play(table: Table, actor: str, line: str | Command) -> Callable[[], object]:
    command = KILLER.parse(line) if isinstance(line, str) else line
    assert command is not None
    return lambda: table.game.apply(table.state, actor, command, table.dice)


def _refusals() -> Iterator[CroupierError]:
    """Every refusal the engine raises, provoked for real."""
    for options in ({"dice": "x"}, {"dice": 2}, {"dice": 11}, {"modes": "zombi"}, {"speed": 1}):
        yield _refusal(lambda options=options: KILLER.open(options))  # type: ignore[misc]
    for options in ({"dice": 5}, {"modes": "zombie"}):
        yield _refusal(lambda options=options: KILLER_CLASSIC.open(options))  # type: ignore[misc]
    lobby = Table(players=("anna",))
    for actor, command in [("mod", Start()), ("anna", Join("A")), ("ben", Join("ANNA")), ("ben", Join(" "))]:
        yield _refusal(_play(lobby, actor, command))
    yield _refusal(_play(lobby, "ben", Leave()))
    yield _refusal(_play(lobby, "anna", "garde 6"))
    yield _refusal(_play(lobby, "mod", Remove("zed")))
    yield _refusal(_play(lobby, "mod", Remove("ana")))
    keeping = _keeping()
    for actor, line in [("ben", "garde 6"), ("anna", "attaque ben"), ("anna", "garde 6 6")]:
        yield _refusal(_play(keeping, actor, line))
    yield _refusal(_play(keeping, "anna", Keep(())))
    yield _refusal(_play(keeping, "anna", Keep((7,))))
    yield _refusal(_play(keeping, "carl", Join("carl")))
    yield _refusal(_play(keeping, "ben", Leave()))
    yield _refusal(_play(keeping, "mod", Skip("ben")))
    for line in ("garde six", "garde les 6"):
        yield _refusal(lambda line=line: KILLER.parse(line))  # type: ignore[misc]
    state, turn = keeping.state, keeping.state.turn
    assert turn is not None
    yield _refusal(lambda: killer_game._perform(state, turn, _Odd()))
    targeting = _targeting()
    for line in ("garde 6", "attaque anna", "attaque carl", "attaque dora"):
        yield _refusal(_play(targeting, "anna", line))
    classic = _targeting(KILLER_CLASSIC)
    yield _refusal(_play(classic, "anna", Attack(None)))
    yield _refusal(_play(classic, "anna", "garde 6"))
    classic.do("anna", "attaque ben")
    yield _refusal(_play(classic, "anna", "garde 6"))
    zombie = position({"anna": ("alive", 30), "ben": ("zombie", 1)}, "ben", options={"modes": ["zombie"]})
    yield _refusal(_play(zombie, "ben", "garde tout"))
    alone = position({"ben": ("dead", -3), "anna": ("alive", 20)}, "anna", [5, 6, 6, 4, 4])
    alone.do("anna", "garde tout")  # an attack, and nobody left to attack
    yield _refusal(_play(alone, "anna", "auto"))
    out = Table([6] * 20, players=("anna", "ben", "carl"), setup=(30, 30, 30))
    out.do("mod", Remove("carl"))
    yield _refusal(_play(out, "mod", Remove("carl")))
    over = _keeping()
    over.do("mod", Close())
    yield _refusal(_play(over, "anna", "garde 6"))
    yield _refusal(lambda: KILLER.load({**STORED_KILLER, "format": 2}))
    yield _refusal(lambda: KILLER.load({**STORED_CLASSIC, "colour": "red"}))


@pytest.fixture(scope="module")
def real_events() -> dict[str, Event]:
    return {event.kind(): event for event in _games()}


@pytest.fixture(scope="module")
def real_refusals() -> dict[str, CroupierError]:
    return {error.code: error for error in _refusals()}


def test_every_event_kind_is_produced_by_real_play(real_events: dict[str, Event]) -> None:
    assert {cls.kind() for cls in EVENT_CLASSES} == set(real_events)


def test_every_refusal_code_is_provoked_for_real(real_refusals: dict[str, CroupierError]) -> None:
    assert set(real_refusals) == set(_raise_sites())


def _rendered(key: str, facts: dict[str, Any], lang: str, scope: tuple[str, str]) -> str:
    assert key in game_catalogue(scope, lang), f"{scope[1]} {lang}: no template for {key}"
    text = render(key, facts, lang, str.upper, scope=scope)  # a KeyError / ValueError on a bad spec
    assert text.strip()
    assert "{" not in text, f"{scope[1]} {lang} {key}: {text}"
    assert f"[{key}" not in text
    return text


@pytest.mark.parametrize("scope", SCOPES, ids=lambda scope: scope[1])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_template_formats_with_real_facts(
    lang: str,
    scope: tuple[str, str],
    real_events: dict[str, Event],
    real_refusals: dict[str, CroupierError],
) -> None:
    for kind, event in real_events.items():
        _rendered(kind, event.facts(), lang, scope)
    for code, error in real_refusals.items():
        _rendered(f"error.{code}", dict(error.facts), lang, scope)
    for key in GAME_KEYS:
        _rendered(key, GAME_FACTS, lang, scope)
    for status in get_args(Status):
        _rendered(f"role.{status}", {}, lang, scope)


@pytest.mark.parametrize(
    ("dice", "lang", "text"),
    [
        (1, "de", "Mit 1 Würfel geht es nicht"),
        (2, "de", "Mit 2 Würfeln geht es nicht"),
        (1, "fr", "avec 1 dé :"),
        (2, "en", "with 2 dice:"),
    ],
)
def test_K5_S1_too_few_dice_agree_in_number(dice: int, lang: str, text: str) -> None:
    facts = {"dice": dice, "minimum": 3}
    assert text in render("error.killer_too_few_dice", facts, lang, scope=SCOPES[0])


QUOTED_WORD = {"de": "„{}“", "en": "“{}”", "fr": "« {} »"}  # how each catalogue quotes a word to type


@pytest.mark.parametrize("lang", LANGUAGES)
def test_K5_T1_naming_oneself_is_told_the_word_that_does_it(lang: str) -> None:
    """K5-A1: an attack turns on its attacker by a bare „attaque“, not by the attacker's name — the
    refusal says so; the older rules (K6-A1, no attack on oneself) name the way out: „passe“."""
    for game, word in ((KILLER, "attaque"), (KILLER_CLASSIC, "passe")):
        error = _refusal(_play(_targeting(game), "anna", "attaque anna"))
        assert error.code == "killer_self_target"
        said = render("error.killer_self_target", dict(error.facts), lang, scope=(game.catalogue, game.name))
        assert QUOTED_WORD[lang].format(word) in said, said


@pytest.mark.parametrize("lang", LANGUAGES)
def test_K5_A1_an_attack_without_a_hit_says_the_target_is_unharmed(lang: str) -> None:
    """K5-A1 seed example ("il a bien de la chance"): no die shows the value — the target is unharmed,
    not "loses 0 hit points (0 × 3)"."""
    table = Table([2, 2, 2, 1, 1, 1, 2, 4, 5, 6, 6, 6, 6, 6, 6], setup=(30, 30))
    table.do("anna", "garde tout")  # 8: an attack of 3
    scope = SCOPES[0]
    said = [
        render(e.kind(), e.facts(), lang, str.capitalize, scope=scope) for e in table.do("anna", "attaque")
    ]
    facts = {"attacker": "anna", "victim": "anna", "value": 3, "hp": 30}
    assert render("killer.unharmed", facts, lang, str.capitalize, scope=scope) in said
    assert not [line for line in said if "0 ×" in line]
