"""V6-R1 … V6-R6: who can be robbed, the Beefmaker limit, the Keuler, and the close of the Durchgang."""

from __future__ import annotations

from engine.errors import IllegalCommand
from engine.game import Close
from engine.verflixte6 import events as ev
from engine.verflixte6.commands import Rob
from engine.verflixte6.state import DID_NOT_PLAY, PRINZESSIN, ZOMBIE

from .helpers import Table


def test_V6_R1_victims_are_jungfrauen_and_prinzessinnen_only() -> None:
    t = Table("anna", "ben", "cleo", "dora")
    t.begin("anna", 3)
    t.say("anna", "stopp")  # Prinzessin
    t.begin("ben", 3)
    t.say("ben", "weiter", 6)  # Zombie
    t.begin("cleo", 3)
    t.say("cleo", "weiter", 1)
    assert t.last(ev.RobberyOffered).victims == ("anna", "dora")
    error = t.refuse("cleo", Rob("ben"), IllegalCommand, "rob_zombie")
    assert error.facts == {"target": "ben", "role": ZOMBIE, "victims": ["anna", "dora"]}
    assert t.refuse("cleo", Rob("@cleo"), IllegalCommand, "rob_self").facts == {"victims": ["anna", "dora"]}


def test_V6_R1_a_running_spiel_cannot_be_robbed_in_parallel_play() -> None:
    t = Table("anna", "ben", "cleo", parallel="yes")
    t.begin("anna", 3)
    t.begin("ben", 3)
    t.say("ben", "weiter", 1)
    assert t.last(ev.RobberyOffered).victims == ("cleo",)
    t.refuse("ben", Rob("anna"), IllegalCommand, "rob_playing")


def test_V6_R2_a_robbed_jungfrau_keeps_the_loss_into_her_spiel() -> None:
    t = Table("anna", "ben")
    t.begin("anna", 3)
    for _ in range(2):
        t.say("anna", "weiter", 1)
        t.say("anna", "raube ben")
    t.say("anna", "stopp")
    assert t.points("ben") == -3
    t.say("ben", "weiter", 2)
    assert t.points("ben") == -1


def test_V6_R3_a_prinzessin_can_be_robbed_below_zero_and_stays_robbable() -> None:
    t = Table("anna", "ben")
    t.begin("anna", 2)
    t.say("anna", "stopp")
    t.begin("ben", 3)
    for _ in range(3):
        t.say("ben", "weiter", 1)
        t.say("ben", "raube anna")
    assert (t.role("anna"), t.points("anna")) == (PRINZESSIN, 2 - 1 - 2 - 3)
    assert t.last(ev.Robbed).victim == "anna"  # still robbable after reaching 0


def test_V6_R4_the_beefmaker_hits_each_participant_once_per_durchgang() -> None:
    t = Table("anna", "ben", "cleo")
    t.begin("anna", 3, ["Beefmaker"])
    t.say("anna", "weiter mit Joker Beefmaker", 2, 2, 5)
    t.say("anna", "raube cleo")
    t.say("anna", "stopp")
    t.begin("ben", 3, ["Beefmaker"])  # another user, the same victim is off limits
    t.say("ben", "weiter mit Joker Beefmaker", 4, 4, 4)
    assert t.last(ev.RobberyOffered).victims == ("anna",)
    error = t.refuse("ben", Rob("cleo"), IllegalCommand, "rob_beefmaker_twice")
    assert error.facts["victims"] == ["anna"]
    assert t.state.beefmaker_victims == ("cleo",)


def test_V6_R4_without_anyone_left_to_hit_the_beefmaker_still_pays() -> None:
    t = Table("anna", "ben")
    t.begin("anna", 3, ["Beefmaker"])
    t.say("anna", "weiter mit Joker Beefmaker", 2, 2, 5)
    t.say("anna", "raube ben")
    t.say("anna", "weiter", 6)  # anna a Zombie: nobody is left to hit
    t.begin("ben", 3, ["Beefmaker"])
    events = t.say("ben", "weiter mit Joker Beefmaker", 6, 6, 1)
    assert ev.RobberySkipped(player="ben", source="Beefmaker", amount=6, count=0) in events
    assert t.points("ben") == -6 + 3 + 12


def test_V6_R5_a_robbing_one_that_zombifies_a_prinzessin_pays_the_keuler_once() -> None:
    t = Table("anna", "ben")
    t.begin("anna", 2)
    t.say("anna", "stopp")
    t.begin("ben", 4)
    t.say("ben", "weiter", 1)
    t.say("ben", "raube anna")  # 2 → 1
    assert not any(isinstance(e, ev.KeulerBonus) for e in t.events)
    t.say("ben", "weiter", 1)
    events = t.say("ben", "raube anna")  # 1 → −1: zombified
    assert events[-1] == ev.KeulerBonus(player="ben", delta=5, total=4 + 1 + 1 + 1 + 2 + 5, victim="anna")
    t.say("ben", "weiter", 1)
    t.say("ben", "raube anna")  # further down: no second bonus
    assert not any(isinstance(e, ev.KeulerBonus) for e in t.events)
    assert t.state.keuler_victims == ("anna",)


def test_V6_R5_a_beefmaker_six_can_make_a_keuler() -> None:
    t = Table("anna", "ben")
    t.begin("anna", 4)
    t.say("anna", "stopp")
    t.begin("ben", 3, ["Beefmaker"])
    t.say("ben", "weiter mit Joker Beefmaker", 3, 1, 3)
    events = t.say("ben", "raube anna")
    assert events[-1] == ev.KeulerBonus(player="ben", delta=5, total=3 + 12 + 5, victim="anna")


def test_V6_R5_robbing_a_jungfrau_below_zero_makes_no_keuler() -> None:
    t = Table("anna", "ben")
    t.begin("anna", 3)
    t.say("anna", "weiter", 1)
    t.say("anna", "raube ben")
    assert not any(isinstance(e, ev.KeulerBonus) for e in t.events)


def test_V6_R6_close_defaults_stops_zombifies_and_records_absentees() -> None:
    t = Table("anna", "ben", "cleo", "dora")
    t.begin("anna", 2)
    t.say("anna", "stopp")
    t.begin("ben", 5)
    for _ in range(2):
        t.say("ben", "weiter", 1)
        t.say("ben", "raube anna")  # anna 2 → 1 → −1 (Keuler for ben)
    t.say("ben", "stopp")
    t.begin("cleo", 4, ["Anaconda"])
    t.say("cleo", "weiter mit Joker Anaconda", 3)  # pending when the moderator closes
    events = t.do("mod", Close())
    kinds = [e.kind() for e in events]
    assert kinds == [
        "v6.decision_defaulted",
        "v6.anaconda_declined",
        "v6.stopped",
        "v6.zombified",
        "v6.did_not_play",
        "v6.closed",
    ]
    assert events[0] == ev.DecisionDefaulted(player="cleo", decision="fight", answer="kneifen")
    summary = {pid: (row["role"], row["points"]) for pid, row in _summary(t).items()}
    assert summary == {
        "anna": (ZOMBIE, 0),
        "ben": (PRINZESSIN, 5 + 1 + 1 + 1 + 2 + 5),
        "cleo": (PRINZESSIN, 2),
        "dora": (DID_NOT_PLAY, 0),
    }


def test_V6_R6_a_jungfrau_with_jokers_but_no_freiwurf_did_not_play() -> None:
    t = Table("anna", "ben")
    t.begin("anna", 3)
    t.say("anna", "weiter", 1)
    t.say("anna", "raube ben")
    t.say("anna", "stopp")
    t.say("ben", "Joker: Pony")
    t.do("mod", Close())
    assert (t.role("ben"), t.points("ben")) == (DID_NOT_PLAY, 0)


def test_V6_R6_a_prinzessin_at_exactly_zero_becomes_a_zombie() -> None:
    t = Table("anna")
    t.begin("anna", 2, ["Anaconda"])
    t.say("anna", "weiter mit Joker Anaconda", 6)
    t.say("anna", "kneifen")
    t.say("anna", "stopp")
    t.do("mod", Close())
    assert (t.role("anna"), t.points("anna")) == (ZOMBIE, 0)


def _summary(t: Table) -> dict[str, dict[str, object]]:
    from engine.verflixte6 import GAME

    result: dict[str, dict[str, object]] = GAME.summary(t.state)["players"]
    return result
