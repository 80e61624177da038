"""What Die verflixte 6! asks and shows beyond the story: after the Freiwurf and every step that leaves
the Spiel running the words valid now (``v6.move_asked``, the very words of the buttons), the
moderator's close once nobody is left to play, an empty close said as such, the running table's
details (jokers in hand, valve level, Fumo), and refusals that name the fix."""

from __future__ import annotations

from typing import Any

import pytest

from bot.texts import LANGUAGES, render
from engine.errors import IllegalCommand, InvalidCommand
from engine.game import Close, Join, Leave, Remove
from engine.verflixte6 import GAME
from engine.verflixte6 import events as ev
from engine.verflixte6.commands import Fight, Rob

from .helpers import Table

SCOPE = (GAME.catalogue, GAME.name)


def said(event: ev.V6Event, lang: str) -> str:
    return render(event.kind(), event.facts(), lang, str.capitalize, scope=SCOPE)


def button_words(t: Table) -> tuple[str, ...]:
    return tuple(choice.words for choice in GAME.choices(t.state))


def test_V6_S3_after_the_freiwurf_the_player_is_told_the_words_of_the_buttons() -> None:
    t = Table("anna", "ben")
    t.say("anna", "Joker: Rattenlord, Pony, Törtchen")
    t.say("anna", "weiter", 3)
    assert t.asked == [
        ev.MoveAsked(
            player="anna",
            valid=("weiter", "weiter mit Joker Rattenlord", "weiter mit Joker Push your Pony", "stopp"),
        )
    ]  # the Törtchen is an autojoker: nothing to announce
    assert t.asked[0].valid == button_words(t)
    for lang in LANGUAGES:
        text = said(t.asked[0], lang)
        assert all(words in text for words in t.asked[0].valid)
        assert "Anna" in text


def test_V6_S4_every_throw_asks_again_and_a_used_joker_is_no_longer_offered() -> None:
    t = Table("anna")
    t.begin("anna", 3, ["Push your Pony"])
    t.say("anna", "weiter", 2)
    assert t.asked == [
        ev.MoveAsked(player="anna", valid=("weiter", "weiter mit Joker Push your Pony", "stopp"))
    ]
    t.say("anna", "weiter mit Joker Pony", 5, 5, 5)
    assert t.asked == [ev.MoveAsked(player="anna", valid=("weiter", "stopp"))]
    assert t.asked[0].valid == button_words(t)


def test_V6_S6_a_question_is_not_followed_by_the_throw_words_but_its_answer_is() -> None:
    t = Table("anna", "ben")
    t.begin("anna", 3)
    t.say("anna", "stopp")
    t.begin("ben", 2)
    t.say("ben", "weiter", 1)  # the robbing 1: the question says what to answer
    assert t.asked == []
    assert isinstance(t.events[-1], ev.RobberyOffered)
    t.say("ben", "raube anna")
    assert t.asked == [ev.MoveAsked(player="ben", valid=("weiter", "stopp"))]


def test_V6_S7_nothing_is_asked_once_the_spiel_is_over() -> None:
    t = Table("anna", "ben")
    t.begin("anna", 3)
    t.say("anna", "weiter", 6)  # bust: ben is next
    assert t.asked == []
    t.begin("ben", 3)
    t.say("ben", "stopp")
    assert t.asked == [ev.AllPlayed()]


def test_V6_R6_the_moderator_is_told_to_close_when_the_last_spiel_ends() -> None:
    t = Table("anna", "ben")
    t.begin("anna", 3)
    t.say("anna", "stopp")
    assert ev.AllPlayed() not in t.told  # ben still waits
    t.begin("ben", 3)
    t.say("ben", "stopp")
    assert t.told[-1] == ev.AllPlayed()
    for lang in LANGUAGES:
        assert "/close" in said(ev.AllPlayed(), lang)
    t.do("cleo", Join("Cleo"))  # a late sign-up plays, and the moderator is told again after her
    t.begin("cleo", 4)
    t.say("cleo", "stopp")
    assert t.told[-1] == ev.AllPlayed()


def test_V6_R6_removing_the_last_waiting_jungfrau_also_leaves_nobody_to_play() -> None:
    t = Table("anna", "ben")
    t.begin("anna", 3)
    t.say("anna", "stopp")
    t.do("mod", Remove("ben"))
    assert t.told[-1] == ev.AllPlayed()
    assert Table("anna").do("anna", Leave()) == [ev.Left(player="anna", points=0)]  # nobody left: no call


@pytest.mark.parametrize("players", [(), ("anna", "ben")])
def test_V6_R6_closing_a_durchgang_nobody_played_says_so(players: tuple[str, ...]) -> None:
    t = Table(*players)
    closed = t.do("mod", Close())
    assert closed[-1] == ev.ClosedEmpty()
    for lang in LANGUAGES:
        assert said(ev.ClosedEmpty(), lang) != said(ev.Closed(players=()), lang)


def test_V6_R6_closing_after_a_spiel_thanks_the_players() -> None:
    t = Table("anna", "ben")
    t.begin("anna", 3)
    assert t.do("mod", Close())[-1] == ev.Closed(players=("anna", "ben"))


def details(t: Table) -> dict[str, tuple[tuple[str, Any], ...]]:
    return {seat.player: seat.details for seat in GAME.table(t.state)}


def test_the_running_table_shows_jokers_in_hand_the_valve_and_fumo() -> None:
    t = Table("anna", "ben")
    assert details(t) == {"anna": (), "ben": ()}
    t.say("anna", "Joker: Ventil, Fumo, Pony")
    assert details(t)["anna"] == (("jokers", ("Venoms Sicherheitsventil", "Fumo-Joker", "Push your Pony")),)
    t.say("anna", "weiter", 5)
    t.say("anna", "weiter mit Joker Ventil", 2)  # the valve at 5, its compulsory throw: 7
    t.say("anna", "weiter mit Joker Fumo", 3)  # 13, Fumo lasts
    assert details(t)["anna"] == (("jokers", ("Push your Pony",)), ("valve", 5), ("fumo", True))
    t.say("anna", "stopp")
    assert details(t)["anna"] == ()  # the Spiel is over: nothing left to show


def test_V6_J1_the_running_table_shows_the_kaelteschutz_uses_left() -> None:
    """Its n-th use decides what a die costs, so the table says how many are left, not just its name."""
    t = Table("anna", "ben")
    t.say("anna", "Joker: Kälteschutz, Pony")
    assert details(t)["anna"] == (("jokers", ("Push your Pony",)), ("cold", (5, 5)))
    t.say("anna", "weiter", 3)
    t.say("anna", "weiter mit Joker Kälteschutz", 4)  # use 1: +4
    assert details(t)["anna"] == (("jokers", ("Push your Pony",)), ("cold", (4, 5)))
    t.say("anna", "weiter mit Kälte", 2)  # use 2: −2
    assert details(t)["anna"] == (("jokers", ("Push your Pony",)), ("cold", (3, 5)))
    for lang in LANGUAGES:
        assert render("seat.details.cold", {"cold": (3, 5)}, lang, scope=SCOPE) == "❄️ Kälteschutz 3/5"
    t.say("anna", "weiter mit Kälte", 6)  # a 6 pays and spends the joker
    assert details(t)["anna"] == (("jokers", ("Push your Pony",)),)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_seat_detail_has_a_sentence(lang: str) -> None:
    for key, value in (("jokers", ("Rattenlord", "ALL IN")), ("cold", (2, 5)), ("valve", 7), ("fumo", True)):
        text = render(f"seat.details.{key}", {key: value}, lang, scope=SCOPE)
        assert text
        assert "{" not in text
        assert "[seat" not in text
    assert "Rattenlord, ALL IN" in render(
        "seat.details.jokers", {"jokers": ("Rattenlord", "ALL IN")}, lang, scope=SCOPE
    )


def test_refusals_name_the_fix() -> None:
    t = Table("anna", "ben", "cleo")
    t.begin("anna", 3)
    t.say("anna", "stopp")
    t.begin("ben", 2)
    t.say("ben", "weiter", 1)
    assert t.refuse("ben", Rob("ben"), IllegalCommand, "rob_self").facts == {"victims": ["anna", "cleo"]}
    error = t.refuse("mod", Remove("zed"), InvalidCommand, "no_such_player")
    assert error.facts == {"name": "zed", "players": ["anna", "ben", "cleo"]}
    t.say("ben", "raube nicht")
    error = t.refuse("ben", Fight(), IllegalCommand, "no_decision_pending")
    assert error.facts == {"valid": ["weiter", "stopp"]}
    with pytest.raises(InvalidCommand) as caught:
        GAME.parse("weiter mit Joker Rattenlord und Monokel")
    assert caught.value.code == "one_joker_per_step"
    for lang in LANGUAGES:
        text = render("error.one_joker_per_step", caught.value.facts, lang, scope=SCOPE)
        assert "weiter mit Joker Rattenlord" in text
        assert "Leelas Monokel" in text
        assert "zed" in render("error.no_such_player", error.facts | {"name": "zed"}, lang, scope=SCOPE)


def test_V6_S6_the_game_says_what_it_waits_on_for_a_state_reached_without_a_move() -> None:
    """``Game.prompt``: what an answer about the Durchgang ends with when no move of it asked (an undo):
    the Jungfrau called up, the words of a running Spiel, or its open question with its answers."""
    t = Table("anna", "ben", "cleo")
    assert GAME.prompt(t.state) == [ev.NextUp(next_player="anna")]
    t.say("anna", "Joker: Anaconda")
    t.say("anna", "weiter", 3)
    assert GAME.prompt(t.state) == [
        ev.MoveAsked(player="anna", valid=("weiter", "weiter mit Joker Oces Anaconda", "stopp"))
    ]
    t.say("anna", "weiter mit Joker Anaconda", 4)
    assert GAME.prompt(t.state) == [ev.DecisionAsked(player="anna", valid=("kämpfen", "kneifen"))]
    t.say("anna", "kneifen")
    t.say("anna", "weiter", 1)
    assert GAME.prompt(t.state) == [ev.VictimAsked(player="anna", amount=1, victims=("ben", "cleo"))]
    for lang in LANGUAGES:
        assert "raube" in said(GAME.prompt(t.state)[0], lang)
        assert "Ben" in said(GAME.prompt(t.state)[0], lang)
    t.say("anna", "raube nicht")
    t.say("anna", "stopp")
    t.say("ben", "weiter", 2)
    t.say("ben", "stopp")
    t.say("cleo", "weiter", 2)
    t.say("cleo", "stopp")
    assert GAME.prompt(t.state) == []  # nobody left to act
