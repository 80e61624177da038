"""V6-N1 … V6-N5: the normal throw, Jules Törtchen, ahris Tentakel and the robbing 1."""

from __future__ import annotations

import pytest

from engine.errors import InvalidCommand
from engine.verflixte6 import events as ev
from engine.verflixte6.state import PLAYING, ZOMBIE

from .helpers import Table


def test_V6_N1_a_six_busts_to_zero_as_a_zombie() -> None:
    t = Table("anna", "ben")
    t.begin("anna", 5)
    t.say("anna", "weiter", 4)
    events = t.say("anna", "weiter", 6)
    assert events[0] == ev.Busted(player="anna", delta=-9, total=0, face=6)
    assert (t.role("anna"), t.points("anna")) == (ZOMBIE, 0)
    assert events[-1] == ev.NextUp(next_player="ben")


@pytest.mark.parametrize("face", [2, 3, 4, 5])
def test_V6_N2_one_to_five_is_added(face: int) -> None:
    t = Table("anna")
    t.begin("anna", 3)
    assert t.say("anna", "weiter", face) == [ev.Thrown(player="anna", delta=face, total=3 + face, face=face)]


def test_V6_N2_a_one_is_added_too() -> None:
    t = Table("anna")
    t.begin("anna", 3)
    t.say("anna", "weiter", 1)
    assert t.points("anna") == 4


def test_V6_N3_toertchen_pays_one_on_every_step_after_the_freiwurf() -> None:
    t = Table("anna")
    t.begin("anna", 3, ["Törtchen", "Pony"])
    assert t.points("anna") == 3  # nothing on the Freiwurf
    events = t.say("anna", "weiter", 2)
    assert events[-1] == ev.ToertchenPaid(player="anna", delta=1, total=6)
    t.say("anna", "weiter mit Joker Pony", 1, 2, 3)  # a joker step with a flat result: −5, +1
    assert t.points("anna") == 2


def test_V6_N3_toertchen_pays_once_after_a_decision_ends_the_step() -> None:
    t = Table("anna", "ben")
    t.begin("anna", 3, ["Törtchen"])
    events = t.say("anna", "weiter", 1)
    assert not any(isinstance(e, ev.ToertchenPaid) for e in events)  # the step waits on the robbery
    events = t.say("anna", "raube ben")
    assert isinstance(events[-1], ev.ToertchenPaid)
    assert t.points("anna") == 3 + 1 + 1 + 1


def test_V6_N3_toertchen_pays_nothing_on_the_step_that_ends_the_spiel() -> None:
    t = Table("anna")
    t.begin("anna", 3, ["Törtchen"])
    t.say("anna", "weiter", 6)
    assert t.points("anna") == 0
    assert not any(isinstance(e, ev.ToertchenPaid) for e in t.events)


def test_V6_N3_toertchen_comes_after_the_all_in_doubling() -> None:
    t = Table("anna")
    t.begin("anna", 5, ["Törtchen", "ALL IN"])
    t.say("anna", "weiter", 4)  # 9 + 1
    t.say("anna", "weiter mit Joker ALL IN", 2)
    assert t.points("anna") == 21  # 10 doubled, then the Törtchen


def test_V6_N3_no_toertchen_while_fumo_lasts() -> None:
    t = Table("anna")
    t.begin("anna", 3, ["Törtchen", "Fumo"])
    t.say("anna", "weiter mit Joker Fumo", 2)
    t.say("anna", "weiter", 3)
    assert t.points("anna") == 3 + 4 + 6
    assert not any(isinstance(e, ev.ToertchenPaid) for e in t.events)


@pytest.mark.parametrize(("face", "total"), [(1, 3 + 1 + 5), (2, 3 + 2 + 5), (3, 3 + 3)])
def test_V6_N4_tentakel_pays_five_on_a_normal_one_or_two(face: int, total: int) -> None:
    t = Table("anna", "ben")
    t.begin("anna", 3, ["Tentakel"])
    t.say("anna", "weiter", face)
    assert t.points("anna") == total
    assert t.spiel("anna").pending is None  # a 1 robs nothing with the Tentakel
    assert t.spiel("anna").robberies == 0


def test_V6_N4_tentakel_ignores_the_freiwurf_joker_throws_and_fumo() -> None:
    t = Table("anna")
    t.begin("anna", 1, ["Tentakel", "Hirtenschutz", "Fumo"])
    assert t.points("anna") == 1
    t.say("anna", "weiter mit Joker Hirtenschutz", 1)
    assert t.points("anna") == 3
    t.say("anna", "weiter mit Joker Fumo", 2)
    assert t.points("anna") == 7
    assert not any(isinstance(e, ev.TentakelPaid) for e in t.events)


def test_V6_N5_a_one_lets_the_player_rob_one_pip_from_one_victim() -> None:
    t = Table("anna", "ben", "cleo")
    t.begin("anna", 3)
    events = t.say("anna", "weiter", 1)
    offered = t.last(ev.RobberyOffered)
    assert (offered.amount, offered.count, offered.victims) == (1, 1, ("ben", "cleo"))
    assert events[-1] == offered
    events = t.say("anna", "raube Cleo")
    assert events == [
        ev.Robbed(robber="anna", victim="cleo", amount=1, robber_total=5, victim_total=-1, source="eins")
    ]
    assert t.role("anna") == PLAYING


def test_V6_N5_a_robbery_cannot_be_split() -> None:
    """The rule text's example: the second 1 robs 2 from A or from B, never 1 from each."""
    t = Table("robber", "a", "b")
    t.begin("robber", 3)
    t.say("robber", "weiter", 1)
    t.say("robber", "raube nicht")
    t.say("robber", "weiter", 1)
    with pytest.raises(InvalidCommand) as caught:
        t.say("robber", "raube A und B")
    assert caught.value.code == "rob_split"
    assert caught.value.facts["names"] == ["A", "B"]
    t.say("robber", "raube b")
    assert (t.points("a"), t.points("b")) == (0, -2)


def test_V6_N5_the_counter_grows_to_five_and_stays() -> None:
    """The rule text's example: the twelfth 1 still robs 5."""
    t = Table("anna", "ben")
    t.begin("anna", 3)
    amounts = []
    for _ in range(12):
        t.say("anna", "weiter", 1)
        amounts.append(t.last(ev.RobberyOffered).amount)
        t.say("anna", "raube nicht")  # declined robberies count too
    assert amounts == [1, 2, 3, 4, 5, 5, 5, 5, 5, 5, 5, 5]
    assert t.spiel("anna").robberies == 12


def test_V6_N5_ones_without_a_possible_victim_still_count() -> None:
    t = Table("anna")
    t.begin("anna", 3)
    t.say("anna", "weiter", 1)
    t.say("anna", "weiter", 1)
    assert t.events[-1] == ev.RobberySkipped(player="anna", source="eins", amount=2, count=2)
    assert t.spiel("anna").robberies == 2


def test_V6_N5_a_robbery_may_take_the_victim_below_zero() -> None:
    t = Table("anna", "ben")
    t.begin("anna", 3)
    for _ in range(3):
        t.say("anna", "weiter", 1)
        t.say("anna", "raube ben")
    assert t.points("ben") == -(1 + 2 + 3)
    assert t.points("anna") == 3 + 3 + 6


def test_V6_N5_ones_that_rob_nothing_do_not_count() -> None:
    t = Table("anna", "ben")
    t.begin("anna", 1, ["Tentakel", "Hirtenschutz", "Fumo"])  # Freiwurf 1
    t.say("anna", "weiter", 1)  # Tentakel
    t.say("anna", "weiter mit Joker Hirtenschutz", 1)  # a joker's throw
    t.say("anna", "weiter mit Joker Fumo", 1)  # Fumo
    t.say("anna", "weiter", 1)  # still Fumo
    assert t.spiel("anna").robberies == 0
    assert t.spiel("anna").pending is None
