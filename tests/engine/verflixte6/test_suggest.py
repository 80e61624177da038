"""V6-S2: while a player types the joker choice, the game offers the jokers its Durchgang plays with,
at most three to a list, and "none" — and every list it offers is a line the game accepts."""

from __future__ import annotations

from engine.errors import IllegalCommand
from engine.game import Candidates
from engine.verflixte6 import GAME
from engine.verflixte6 import events as ev

from .helpers import Table


def offered(t: Table) -> Candidates:
    candidates = GAME.suggest(t.state, "jokers")
    assert candidates is not None
    return candidates


def test_V6_S2_the_jokers_offered_are_the_durchgangs_in_the_order_of_the_rule_text() -> None:
    t = Table("anna", "ben", jokers="Rattenlord, ALL IN, Kälteschutz")
    assert offered(t).values == ("Kälteschutz", "Rattenlord", "ALL IN")
    assert offered(t).limit == 3
    assert offered(Table("anna", jokers="keine")).values == ()
    default = offered(Table("anna"))
    assert "Senigmas Sekante" not in default.values  # not enabled by default
    assert "Rattenlord" in default.values


def test_V6_S2_every_offered_list_is_a_joker_choice_the_game_accepts() -> None:
    t = Table("anna", "ben", jokers="Rattenlord, ALL IN, Kälteschutz, Push your Pony")
    candidates = offered(t)
    for name in candidates.values:
        assert t.say("anna", f"Joker: {name}") == [ev.JokersChosen("anna", (name,))]
    full = candidates.values[: candidates.limit]
    assert t.say("anna", "Joker: " + ", ".join(full)) == [ev.JokersChosen("anna", full)]
    too_many = "Joker: " + ", ".join(candidates.values[: candidates.limit + 1])
    t.refuse("anna", too_many, IllegalCommand, "too_many_jokers")
    assert t.say("anna", f"Joker: {candidates.none}") == [ev.JokersCleared("anna")]
    assert candidates.none_label == "choice.no_jokers"  # the label of the board's own "no jokers"


def test_nothing_else_is_offered() -> None:
    t = Table("anna", "ben")
    assert GAME.suggest(t.state, "players") is None  # the table's seats are the service's to offer
    assert GAME.suggest(t.state, "options") is None
