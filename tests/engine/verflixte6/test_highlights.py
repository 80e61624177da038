"""V6-S2: the jokers a player chose are shown ("eingeblendet") beside the reply, as data: when they are
chosen, and again at the Freiwurf that brings them into the Spiel."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from bot.texts import LANGUAGES, render
from engine.game import Close, Highlight, Join, Skip
from engine.verflixte6 import GAME
from engine.verflixte6 import events as ev

from .helpers import Table

SCOPE = (GAME.catalogue, GAME.name)


def card(player: str, *jokers: str) -> Highlight:
    items = tuple((name, f"v6.joker_info.{name}") for name in jokers)
    return Highlight(key="highlight.jokers", facts={"player": player}, items=items)


def said(t: Table, actor: str, text: str, *faces: int) -> Sequence[Highlight]:
    """The highlights of the reply to this line."""
    before = t.state
    events = t.say(actor, text, *faces)
    return GAME.highlights(before, t.state, events)


def test_V6_S2_chosen_jokers_are_shown_in_the_order_chosen() -> None:
    t = Table("anna", "ben")
    assert said(t, "anna", "Joker: Pony, Rattenlord") == [card("anna", "Push your Pony", "Rattenlord")]
    assert said(t, "anna", "Joker: Monokel") == [card("anna", "Leelas Monokel")]  # a changed choice again
    assert said(t, "anna", "Joker: keine") == []


def test_V6_S2_the_freiwurf_shows_the_jokers_brought_into_the_spiel() -> None:
    t = Table("anna", "ben")
    t.say("anna", "Joker: Törtchen, ALL IN")
    assert said(t, "anna", "weiter", 3) == [card("anna", "Jules Törtchen", "ALL IN")]
    assert said(t, "anna", "weiter", 2) == []
    assert said(t, "anna", "weiter mit Joker ALL IN", 1) == []
    assert said(t, "anna", "stopp") == []
    assert said(t, "ben", "weiter", 4) == []  # no jokers, no card


def test_V6_S2_each_player_is_shown_once_per_reply() -> None:
    t = Table("anna", "ben", parallel=True)
    t.say("anna", "Joker: Pony")
    t.say("ben", "Joker: Beefmaker")
    after = t.state
    chosen = ev.JokersChosen(player="anna", jokers=("Push your Pony",))
    freiwurf = ev.Freiwurf(player="anna", delta=3, total=3, face=3)
    other = ev.Freiwurf(player="ben", delta=2, total=2, face=2)
    events = [chosen, freiwurf, other, freiwurf, chosen]
    assert GAME.highlights(after, after, events) == [card("anna", "Push your Pony"), card("ben", "Beefmaker")]


def test_V6_S2_the_durchgang_around_the_spiele_shows_nothing() -> None:
    t = Table("anna", "ben")
    t.say("anna", "Joker: Pony")
    for actor, command in [("zoe", Join("Zoe")), ("mod", Skip("anna")), ("mod", Close())]:
        before = t.state
        events = t.do(actor, command)
        assert GAME.highlights(before, t.state, events) == []
    assert GAME.highlights(t.state, t.state, []) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_V6_S2_joker_cards_render_in_every_language(lang: str) -> None:
    t = Table("anna")
    (shown,) = said(t, "anna", "Joker: Kälteschutz, Fumo, Beefmaker")
    heading = render(shown.key, shown.facts, lang, lambda pid: pid.capitalize(), scope=SCOPE)
    assert "Anna" in heading
    assert "{" not in heading
    for name, key in shown.items:
        text = render(key, {}, lang, scope=SCOPE)
        assert name in text
        assert not text.startswith("["), text
