"""Buttons offer exactly what the player may type now (rules page §6 and V6-S6: only valid answers).

A choice names no label: its ``action`` is the catalogue key ``choice.<action>``, rendered over its
``facts`` in the reader's language; its ``tone`` is the emphasis today's Discord buttons have.
"""

from __future__ import annotations

from typing import Any

from bot.texts import LANGUAGES, game_catalogue, render
from engine.game import Choice, Join
from engine.verflixte6 import GAME
from engine.verflixte6 import events as ev

from .helpers import Table, attempt

SCOPE = (GAME.catalogue, GAME.name)
Row = tuple[str, str, dict[str, Any], str]  # action, words, facts, tone


def label(t: Table, choice: Choice, lang: str) -> str:
    names = {seat.player: seat.name for seat in GAME.table(t.state)}
    return render(f"choice.{choice.action}", choice.facts, lang, lambda pid: names.get(pid, pid), scope=SCOPE)


def offered(t: Table) -> list[Choice]:
    """The choices now; each one's label renders in every language, with no placeholder or key left."""
    choices = list(GAME.choices(t.state))
    for choice in choices:
        for lang in LANGUAGES:
            text = label(t, choice, lang)
            assert text, (choice, lang)
            assert "{" not in text, (choice, lang, text)
            assert "[choice." not in text, (choice, lang, text)
    return choices


def rows(choices: list[Choice]) -> list[Row]:
    return [(c.action, c.words, dict(c.facts), c.tone) for c in choices]


def test_V6_S2_choices_for_the_next_jungfrau() -> None:
    t = Table("anna", "ben", jokers="Rattenlord, Pony, Monokel, Törtchen")
    choices = offered(t)
    jokers = [c for c in choices if c.multi]
    names = ["Rattenlord", "Jules Törtchen", "Push your Pony", "Leelas Monokel"]
    assert rows(jokers) == [("choose_jokers", name, {"joker": name}, "") for name in names]
    assert {(c.group, c.prefix, c.separator, c.limit) for c in jokers} == {("jokers", "Joker:", ", ", 3)}
    assert [label(t, c, "de") for c in jokers] == names
    assert rows([c for c in choices if not c.multi]) == [("freiwurf", "weiter", {}, "go")]
    composed = jokers[0].compose([c.words for c in jokers[:3]])
    assert composed == "Joker: Rattenlord, Jules Törtchen, Push your Pony"
    assert attempt(t.state, composed) == (
        ev.JokersChosen(player="anna", jokers=("Rattenlord", "Jules Törtchen", "Push your Pony")),
    )
    t.say("anna", composed)
    singles = [c for c in offered(t) if not c.multi]
    assert rows(singles) == [("no_jokers", "Joker: keine", {}, ""), ("freiwurf", "weiter", {}, "go")]
    assert [label(t, c, "de") for c in singles] == ["Ohne Joker", "Freiwurf"]
    assert attempt(t.state, "Joker: keine") == (ev.JokersCleared(player="anna"),)
    # after the Freiwurf the game asks with the very words the buttons then send
    assert attempt(t.state, "weiter") == (
        ev.Freiwurf(player="anna", delta=4, total=4, face=4),
        ev.MoveAsked(
            player="anna",
            valid=("weiter", "weiter mit Joker Rattenlord", "weiter mit Joker Push your Pony", "stopp"),
        ),
    )


def test_V6_S4_choices_while_playing_skip_autojokers_and_used_jokers() -> None:
    t = Table("anna")
    t.begin("anna", 3, ["Törtchen", "Pony", "Kälteschutz"])
    choices = offered(t)
    assert rows(choices) == [
        ("continue", "weiter", {}, "go"),
        # in the order the player chose them
        ("joker", "weiter mit Joker Push your Pony", {"joker": "Push your Pony"}, ""),
        ("joker", "weiter mit Joker Kälteschutz", {"joker": "Kälteschutz"}, ""),
        ("stop", "stopp", {}, "halt"),
    ]
    assert [c.group for c in choices] == ["", "joker", "joker", ""]
    assert [label(t, c, "de") for c in choices] == ["Weiter", "Push your Pony", "Kälteschutz", "Stopp"]
    assert [label(t, c, "en") for c in choices] == ["Continue", "Push your Pony", "Kälteschutz", "Stop"]
    t.say("anna", "weiter mit Joker Pony", 4, 4, 4)
    assert [c.words for c in offered(t)] == ["weiter", "weiter mit Joker Kälteschutz", "stopp"]


def test_V6_S6_choices_for_each_pending_decision() -> None:
    """Each answer does what its label says (the first event is that answer's outcome)."""
    t = Table("anna")
    t.begin("anna", 3, ["Anaconda", "Rattenlord", "Monokel"])
    t.say("anna", "weiter mit Joker Anaconda", 3)
    fight = offered(t)
    assert rows(fight) == [("fight", "kämpfen", {}, "good"), ("decline", "kneifen", {}, "")]
    assert [label(t, c, "de") for c in fight] == ["Kämpfen", "Kneifen"]
    assert [attempt(t.state, c.words)[0].kind() for c in fight] == ["v6.anaconda_won", "v6.anaconda_declined"]
    t.say("anna", "kneifen")
    t.say("anna", "weiter mit Joker Rattenlord", 2)
    retreat = offered(t)
    assert rows(retreat) == [("second_throw", "weiter", {}, "go"), ("retreat", "zurücktreten", {}, "")]
    assert [label(t, c, "de") for c in retreat] == ["Zweiter Wurf", "Zurücktreten"]
    outcomes = [attempt(t.state, c.words)[0].kind() for c in retreat]
    assert outcomes == ["v6.rattenlord_lost", "v6.rattenlord_retreated"]
    t.say("anna", "zurücktreten")
    t.say("anna", "weiter mit Joker Monokel", 2, 2)
    keep = offered(t)
    assert rows(keep) == [("keep", "behalten", {}, "good"), ("repeat", "wiederholen", {}, "")]
    assert [label(t, c, "de") for c in keep] == ["Behalten", "Wiederholen"]
    assert [attempt(t.state, c.words)[0].kind() for c in keep] == ["v6.monokel_kept", "v6.monokel_repeated"]


def test_V6_R1_victim_choices_name_the_eligible_ones() -> None:
    t = Table("ben", "cleo")
    t.do("a1", Join("Anna"))
    t.do("a2", Join("anna"))  # two players called Anna: the buttons fall back on mentions
    t.begin("ben", 2)
    t.say("ben", "weiter", 1)
    choices = offered(t)
    assert rows(choices) == [
        ("rob", "raube Cleo", {"player": "cleo"}, ""),
        ("rob", "raube <@a1>", {"player": "a1"}, ""),
        ("rob", "raube <@a2>", {"player": "a2"}, ""),
        ("rob_none", "raube nicht", {}, ""),
    ]
    assert {c.group for c in choices} == {"victim", ""}
    assert [label(t, c, "de") for c in choices] == ["Cleo", "Anna", "anna", "Niemanden"]
    for choice in choices[:-1]:
        robbed = attempt(t.state, choice.words)[0]
        assert isinstance(robbed, ev.Robbed)
        assert robbed.victim == choice.facts["player"]
    assert attempt(t.state, "raube nicht") == (
        ev.RobberyDeclined(player="ben", source="eins"),
        ev.MoveAsked(player="ben", valid=("weiter", "stopp")),
    )


def test_V6_choices_are_empty_when_nobody_is_to_act() -> None:
    assert list(GAME.choices(Table("anna", order="shuffled").state)) == []
    t = Table("anna")
    t.begin("anna", 2)
    t.say("anna", "stopp")
    assert list(GAME.choices(t.state)) == []


def test_V6_choices_scenarios_reach_every_action_in_the_catalogue() -> None:
    """The scenarios above render every ``choice.*`` key the catalogue has, and no action lacks one."""
    t = Table("anna", "ben")
    seen = {c.action for c in offered(t)}
    t.say("anna", "Joker: Anaconda, Rattenlord, Monokel")
    seen |= {c.action for c in offered(t)}
    t.say("anna", "weiter", 3)
    seen |= {c.action for c in offered(t)}
    for text, faces in [
        ("weiter", (1,)),
        ("raube nicht", ()),
        ("weiter mit Joker Anaconda", (3,)),
        ("kneifen", ()),
        ("weiter mit Joker Rattenlord", (2,)),
        ("zurücktreten", ()),
        ("weiter mit Joker Monokel", (2, 2)),
    ]:
        seen |= {c.action for c in offered(t)}
        t.say("anna", text, *faces)
    seen |= {c.action for c in offered(t)}
    for lang in LANGUAGES:
        keys = {
            key.removeprefix("choice.") for key in game_catalogue(SCOPE, lang) if key.startswith("choice.")
        }
        assert seen == keys, lang
