"""``Game.suggest``: what a game offers while a player types a value; Pig and Killer offer nothing."""

from __future__ import annotations

from engine.dice import ScriptedDice
from engine.game import Join
from engine.killer import KILLER
from engine.verflixte6 import GAME as VERFLIXTE6
from tests.games.pig import GAME as PIG


def test_a_game_with_nothing_to_offer_says_none() -> None:
    assert PIG.suggest(PIG.open({}), "jokers") is None
    killer, _ = KILLER.apply(KILLER.open({}), "anna", Join("Anna"), ScriptedDice(()))
    assert KILLER.suggest(killer, "jokers") is None


def test_die_verflixte_6_offers_its_durchgangs_jokers() -> None:
    offered = VERFLIXTE6.suggest(VERFLIXTE6.open({"jokers": "Rattenlord"}), "jokers")
    assert offered is not None
    assert offered.values == ("Rattenlord",)
