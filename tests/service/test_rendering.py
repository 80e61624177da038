"""How the Narrator renders a move: the same reply however it came by the tables it shows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.service.rendering import Narrator, Table
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
