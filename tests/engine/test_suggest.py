"""``Game.suggest`` is optional: :func:`engine.game.suggested` asks a game that has it and takes a game
without it (Pig, written before the hook) as offering nothing; Killer offers nothing either."""

from __future__ import annotations

from engine.dice import ScriptedDice
from engine.game import Join, suggested
from engine.killer import KILLER
from engine.verflixte6 import GAME as VERFLIXTE6
from tests.games.pig import GAME as PIG


def test_a_game_without_the_hook_offers_nothing() -> None:
    assert not hasattr(PIG, "suggest")
    state = PIG.open({})
    assert suggested(PIG, state, "jokers") is None


def test_the_hook_is_asked_where_a_game_has_it() -> None:
    durchgang = VERFLIXTE6.open({"jokers": "Rattenlord"})
    assert suggested(VERFLIXTE6, durchgang, "jokers") == VERFLIXTE6.suggest(durchgang, "jokers")
    assert suggested(VERFLIXTE6, durchgang, "jokers") is not None
    killer, _ = KILLER.apply(KILLER.open({}), "anna", Join("Anna"), ScriptedDice(()))
    assert suggested(KILLER, killer, "jokers") is None
