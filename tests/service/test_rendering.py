"""How the Narrator renders a move: the same reply however it came by the tables it shows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.service import rendering
from bot.service.rendering import Narrator, Table
from bot.texts import LANGUAGES
from engine.dice import ScriptedDice
from engine.game import Join, Seat
from engine.verflixte6 import GAME


class _Counting:
    """The game, counting the states whose table it works out."""

    def __init__(self) -> None:
        self.tables: list[Any] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(GAME, name)

    def table(self, state: Any) -> Sequence[Seat]:
        self.tables.append(state)
        return GAME.table(state)


def test_the_table_the_last_move_left_is_not_worked_out_again() -> None:
    """A move's ``before`` is nearly always the state the last move left: its table is remembered —
    for that state of that game only."""
    game, narrator = _Counting(), Narrator(boards=False)
    empty = GAME.open({})
    anna, joined = GAME.apply(empty, "a1", Join("Anna"), ScriptedDice([]))
    both, then = GAME.apply(anna, "b2", Join("Ben"), ScriptedDice([]))

    def move(version: int, before: Any, after: Any, events: Any) -> str:
        table = Table(game, 1, 1, version, after)  # type: ignore[arg-type]
        return narrator.move(table, before, events, "de", actor=None).text

    first = move(1, empty, anna, joined)
    assert game.tables == [anna, empty]
    second = move(2, anna, both, then)
    assert game.tables == [anna, empty, both]  # anna's table: the one the first move showed
    assert move(2, anna, both, then) == second
    assert game.tables[3:] == [both, anna]  # the last move left ``both``, not ``anna``
    assert move(1, empty, anna, joined) == first


def _slow(narrator: Narrator, key: str, facts: dict[str, Any], name_of: Any, **kw: Any) -> str:
    """The sentence rendered anew, past the memo of sentences said before."""
    game = kw.get("game")
    scope = rendering.scope_of(game) if game is not None else None
    return narrator._line(key, facts, "de", scope, name_of, kw.get("literal", False))


def test_a_remembered_sentence_is_the_sentence_rendered_anew() -> None:
    """The memo of sentences gives what rendering gives, for every fact that tells two apart: the
    names the ids are shown by, the exact type of a fact (``True`` is not ``1``), lists and tuples."""
    narrator = Narrator(boards=False)
    names = {"a1": "Anna", "b2": "Ben"}
    cases: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
        ("v6.thrown", {"player": "a1", "delta": 3, "total": 8, "face": 3}, {"game": GAME}),
        ("v6.thrown", {"player": "a1", "delta": -6, "total": 0, "face": 6}, {"game": GAME}),
        ("v6.thrown", {"player": "a1", "delta": True, "total": 8, "face": 3}, {"game": GAME}),
        ("v6.joined", {"player": "a1", "name": "anna", "points": 0, "position": 1}, {"game": GAME}),
        ("v6.move_asked", {"player": "b2", "valid": ("weiter", "stopp")}, {"game": GAME}),
        ("v6.move_asked", {"player": "b2", "valid": ["weiter", "stopp"]}, {"game": GAME}),
        ("v6.robbery_offered", {"player": "a1", "victims": ("b2",), "amount": 1, "count": 1}, {"game": GAME}),
        ("game.round", {"number": 3}, {"game": GAME}),
        ("seat.details.jokers", {"jokers": ("Rattenlord", "Hirtenschutz")}, {"game": GAME, "literal": True}),
        ("seat.details.cold", {"cold": (5, 5)}, {"game": GAME, "literal": True}),
        ("seat.details.cold", {"cold": (4, 5)}, {"game": GAME, "literal": True}),
        ("seat.details.cold", {"cold": (5, True)}, {"game": GAME, "literal": True}),
        ("common.seed_revealed", {"seed": "ab|⟦cd"}, {}),
        ("error.unknown", {"x": None}, {}),
    ]
    rendering._SAID.clear()
    for _ in range(2):  # said first, then remembered: every case beside every other one
        for shown in (names, {"a1": "Anna (KX)", "b2": "Ben"}, {}):
            name_of = lambda player, shown=shown: shown.get(player, player)  # noqa: E731
            for key, facts, kw in cases:
                said = narrator.line(key, facts, "de", name_of=name_of, **kw)
                slow = _slow(narrator, key, facts, name_of, **kw)
                assert said == slow
                assert type(said) is type(slow)
    assert len(rendering._SAID) > 10  # most of them were remembered
    rendering._SAID.clear()
    # One id shown by two names (a look-alike joined), one sentence each.
    first = narrator.line("v6.thrown", cases[0][1], "de", game=GAME, name_of=lambda p: "Anna")
    second = narrator.line("v6.thrown", cases[0][1], "de", game=GAME, name_of=lambda p: "Anna (KX)")
    assert first != second
    assert "Anna (KX)" in second
    # True and 1 are equal keys of a dict, not the same fact: not remembered as one.
    assert rendering._memo_key("k", {"n": True}, "de", None, str, False) is None
    assert rendering._memo_key("k", {"n": (1, True)}, "de", None, str, False) is None
    assert rendering._memo_key("k", {"victims": ("a1", 2)}, "de", None, str, False) is None
    assert rendering._memo_key("k", {"n": 1}, "de", None, str, False) != rendering._memo_key(
        "k", {"n": 1.0}, "de", None, str, False
    )


def test_the_memo_of_sentences_is_bounded_and_forgets_on_a_refresh(monkeypatch: Any) -> None:
    monkeypatch.setattr(rendering, "_SAID_MAX", 3)
    rendering._SAID.clear()
    narrator = Narrator(boards=False)
    for number in range(10):
        narrator.line("game.round", {"number": number}, "de", game=GAME)
        assert len(rendering._SAID) <= 3
    LANGUAGES.refresh()
    assert rendering._SAID == {}


def test_a_remembered_row_is_the_row_built_anew() -> None:
    """Rows come from the memo only for an equal seat shown by the same name, in the same language."""
    narrator = Narrator(boards=False)
    jokers = (("jokers", ("Rattenlord", "Hirtenschutz")), ("cold", (5, 5)), ("valve", 9))
    seats = [
        Seat("a1", "Anna", "playing", 7, True, jokers),
        Seat("b2", "Ben", "jungfrau", -3, False),
        Seat("c3", "Anna", "playing", 7, False, jokers),  # looks like a1: told apart by a suffix
    ]
    rendering._ROWS.clear()
    for lang in ("de", "en", "fr", "de"):
        for table in (seats, seats[:2], [seats[1], seats[0]], [Seat("a1", "Anna", "playing", 8, True)]):
            narrator.rows(GAME, table, lang)
            remembered = narrator.rows(GAME, table, lang)  # from the memo
            assert all(any(row is kept for kept in rendering._ROWS.values()) for row in remembered)
            rendering._ROWS.clear()
            rendering._SAID.clear()
            assert narrator.rows(GAME, table, lang) == remembered
    assert not rendering._plain_seat(Seat("a1", "Anna", "playing", True))  # True is not 1
    assert not rendering._plain_seat(Seat("a1", "Anna", "playing", 1, details=(("x", [1]),)))
    assert not rendering._plain_seat(Seat("a1", "Anna", "playing", 1, details=(("x", (1.5,)),)))
    assert rendering._plain_seat(seats[0])
