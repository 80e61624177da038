"""V6-J1 … V6-J14: every joker, with the rule text's worked examples."""

from __future__ import annotations

import pytest

from engine.errors import IllegalCommand
from engine.verflixte6 import events as ev
from engine.verflixte6.commands import PlayJoker
from engine.verflixte6.jokers import registry
from engine.verflixte6.state import PLAYING, PRINZESSIN, ZOMBIE

from .helpers import Table


def playing(*jokers: str, freiwurf: int = 3, others: tuple[str, ...] = ("ben",), **options: str) -> Table:
    t = Table("anna", *others, **options)
    t.begin("anna", freiwurf, jokers)
    return t


# --- V6-J1 Kälteschutz --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("earlier", "face", "delta"),
    [
        ((), 1, -1),
        ((), 2, +2),
        ((2,), 2, -2),
        ((2,), 3, +3),
        ((2, 3), 3, -3),
        ((2, 3, 4), 4, -4),
        ((2, 3, 4, 5), 5, -5),
        ((2, 3, 4, 5), 3, -3),
    ],
)
def test_V6_J1_kaelteschutz_costs_the_low_faces_of_the_nth_use(
    earlier: tuple[int, ...], face: int, delta: int
) -> None:
    t = playing("Kälteschutz", freiwurf=5)
    for f in earlier:
        t.say("anna", "weiter mit Joker Kälteschutz", f)
    before = t.points("anna")
    t.say("anna", "weiter mit Joker Kälteschutz", face)
    assert t.points("anna") - before == delta
    assert t.last(ev.KaelteschutzThrown).use == len(earlier) + 1


def test_V6_J1_kaelteschutz_saves_from_a_six_once_and_expires() -> None:
    t = playing("Kälteschutz")
    events = t.say("anna", "weiter mit Joker Kälteschutz", 6)
    assert ev.KaelteschutzSaved(player="anna") in events
    assert (t.role("anna"), t.points("anna")) == (PLAYING, 9)
    t.refuse("anna", PlayJoker("Kälteschutz"), IllegalCommand, "joker_used")


def test_V6_J1_kaelteschutz_expires_after_the_fifth_use() -> None:
    t = playing("Kälteschutz", freiwurf=5)
    for face in (2, 3, 4, 5):
        t.say("anna", "weiter mit Joker Kaelteschutz", face)
    events = t.say("anna", "weiter mit Joker Kaelteschutz", 6)
    assert t.points("anna") == 5 + 2 + 3 + 4 + 5 + 6
    assert ev.KaelteschutzSaved(player="anna") in events
    t2 = playing("Kälteschutz", freiwurf=5)
    for face in (2, 3, 4, 5, 1):
        t2.say("anna", "weiter mit Joker Kälteschutz", face)
    assert t2.events[-1] == ev.KaelteschutzExpired(player="anna", uses=5)
    t2.refuse("anna", PlayJoker("Kälteschutz"), IllegalCommand, "joker_used")


def test_V6_J1_kaelteschutz_is_the_only_multi_use_joker() -> None:
    assert [s.name for s in registry.JOKERS if s.kind == "multi"] == ["Kälteschutz"]


# --- V6-J2 Spelunkenbold ------------------------------------------------------------------------------


def test_V6_J2_spelunkenbold_seed_example_four_gives_nine() -> None:
    t = Table("anna")
    t.begin("anna", 2, ["Spelunkenbold"])
    t.set_points("anna", 0)
    events = t.say("anna", "weiter mit Joker Spelunkenbold", 4)
    assert events[-1] == ev.SpelunkenboldWon(player="anna", delta=9, total=9, face=4)


def test_V6_J2_spelunkenbold_six_costs_three_and_play_goes_on() -> None:
    t = playing("Spelunkenbold")
    t.say("anna", "weiter mit Joker Spelunkenbold", 6)
    assert (t.role("anna"), t.points("anna")) == (PLAYING, 0)
    t.refuse("anna", PlayJoker("Spelunkenbold"), IllegalCommand, "joker_used")


# --- V6-J3 Oces Anaconda ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attack", "face", "delta"),
    [(4, 2, -10), (3, 6, +18), (3, 3, +15), (1, 1, +13), (6, 5, -10), (6, 6, +18)],
    ids=["seed 2 vs 4", "seed 6 vs 3", "tie", "ones", "six attack", "sixes"],
)
def test_V6_J3_anaconda_fight(attack: int, face: int, delta: int) -> None:
    t = playing("Anaconda", freiwurf=5)
    events = t.say("anna", "weiter mit Joker Anaconda", attack)
    assert events[-1] == ev.AnacondaAttack(player="anna", attack=attack, valid=("kämpfen", "kneifen"))
    t.say("anna", "kämpfen", face)
    assert t.points("anna") == 5 + delta
    assert t.role("anna") == PLAYING  # play goes on, even after a lost fight


def test_V6_J3_anaconda_declined_costs_two() -> None:
    t = playing("Oces Anaconda", freiwurf=5)
    t.say("anna", "weiter mit Joker Oces Anaconda", 5)
    assert t.say("anna", "kneifen") == [ev.AnacondaDeclined(player="anna", delta=-2, total=3, attack=5)]


# --- V6-J4 Hirtenschutz -------------------------------------------------------------------------------


@pytest.mark.parametrize(("face", "delta"), [(4, 8), (6, 12), (1, 2)], ids=["seed 4 to 8", "six", "one"])
def test_V6_J4_hirtenschutz_doubles_without_bust_or_robbery(face: int, delta: int) -> None:
    t = playing("Hirtenschutz")
    t.say("anna", "weiter mit Joker Hirtenschutz", face)
    assert t.points("anna") == 3 + delta
    assert t.role("anna") == PLAYING
    assert t.spiel("anna").pending is None
    assert t.spiel("anna").robberies == 0


# --- V6-J5 Rattenlord ---------------------------------------------------------------------------------


@pytest.mark.parametrize("face", [5, 6])
def test_V6_J5_rattenlord_first_die_above_four_wins_eighteen_flat(face: int) -> None:
    t = playing("Rattenlord")
    events = t.say("anna", "weiter mit Joker Rattenlord", face)
    assert events[-1] == ev.RattenlordWon(player="anna", delta=18, total=21, faces=(face,), rat=4)
    assert t.spiel("anna").pending is None


def test_V6_J5_rattenlord_retreat_after_a_failed_first_die() -> None:
    t = playing("Rattenlord")
    events = t.say("anna", "weiter mit Joker Rattenlord", 4)  # a tie goes to the rat
    assert events[-1] == ev.RattenlordChallenge(
        player="anna", face=4, rat=4, valid=("weiter", "zurücktreten")
    )
    t.say("anna", "zurücktreten")
    assert t.points("anna") == 1


@pytest.mark.parametrize(("second", "delta"), [(5, 18), (6, 18), (4, -10), (1, -10)])
def test_V6_J5_rattenlord_second_die_on_weiter(second: int, delta: int) -> None:
    t = playing("Rattenlord")
    t.say("anna", "weiter mit Joker Rattenlord", 2)
    t.say("anna", "weiter", second)
    assert t.points("anna") == 3 + delta
    assert t.role("anna") == PLAYING


# --- V6-J6 ALL IN -------------------------------------------------------------------------------------


@pytest.mark.parametrize("face", [1, 2, 3])
def test_V6_J6_all_in_doubles_without_adding_the_die(face: int) -> None:
    t = playing("ALL IN", freiwurf=5)
    t.say("anna", "weiter mit Joker all in", face)
    assert t.points("anna") == 10


def test_V6_J6_all_in_doubles_a_negative_total() -> None:
    t = playing("ALL IN", "Pony", freiwurf=2)
    t.say("anna", "weiter mit Joker Pony", 1, 1, 1)  # −3
    t.say("anna", "weiter mit Joker ALL IN", 3)
    assert t.points("anna") == -6


@pytest.mark.parametrize("face", [4, 5, 6])
def test_V6_J6_all_in_lost_is_a_zombie_whatever_the_valve(face: int) -> None:
    t = playing("ALL IN", "Sicherheitsventil", freiwurf=5)
    t.say("anna", "weiter mit Joker Ventil", 3)  # valve at 5, total 8
    events = t.say("anna", "weiter mit Joker ALL IN", face)
    assert ev.AllInLost(player="anna", delta=-8, total=0, face=face) in events
    assert (t.role("anna"), t.points("anna")) == (ZOMBIE, 0)


# --- V6-J7 / V6-J8 autojokers -------------------------------------------------------------------------


@pytest.mark.parametrize("joker", ["Jules Törtchen", "ahris Tentakel"])
def test_V6_J7_J8_autojokers_are_never_announced(joker: str) -> None:
    t = playing(joker)
    t.refuse("anna", PlayJoker(joker), IllegalCommand, "autojoker")
    assert not registry.spec(joker).announced


# --- V6-J9 Push your Pony -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "delta"),
    [((5, 5, 4), 14), ((2, 3, 4), -5), ((6, 4, 1), 11), ((6, 3, 1), -5)],
    ids=["seed 14 kept", "seed 9 penalty", "11 kept", "10 penalty"],
)
def test_V6_J9_pony(faces: tuple[int, int, int], delta: int) -> None:
    t = playing("Pony")
    t.say("anna", "weiter mit Joker Push your Pony", *faces)
    assert t.points("anna") == 3 + delta
    assert t.role("anna") == PLAYING
    assert t.spiel("anna").pending is None


# --- V6-J10 Leelas Monokel ----------------------------------------------------------------------------


def test_V6_J10_monokel_keep_the_pair() -> None:
    t = playing("Monokel")
    events = t.say("anna", "weiter mit Joker Monokel", 6, 1)
    assert events[-1] == ev.MonokelShown(
        player="anna", faces=(6, 1), pips=7, valid=("behalten", "wiederholen")
    )
    t.say("anna", "behalten")
    assert (t.role("anna"), t.points("anna")) == (PLAYING, 10)


def test_V6_J10_monokel_repeat_must_be_kept() -> None:
    t = playing("Monokel")
    t.say("anna", "weiter mit Joker Monokel", 1, 2)
    events = t.say("anna", "wiederholen", 6, 6)
    assert events[0] == ev.MonokelRepeated(
        player="anna", delta=12, total=15, faces=(6, 6), first_faces=(1, 2)
    )
    assert t.spiel("anna").pending is None
    t.refuse("anna", "wiederholen", IllegalCommand, "no_decision_pending")


# --- V6-J11 Beefmaker ---------------------------------------------------------------------------------


def test_V6_J11_beefmaker_seed_three_one_three() -> None:
    t = Table("anna", "ben")
    t.begin("anna", 3, ["Beefmaker"])
    events = t.say("anna", "weiter mit Joker Beefmaker", 3, 1, 3)
    assert ev.BeefmakerWon(player="anna", delta=12, total=15, faces=(3, 1, 3)) in events
    assert t.last(ev.RobberyOffered).amount == 6
    events = t.say("anna", "raube ben")
    assert events == [ev.BeefmakerHit(player="anna", victim="ben", amount=6, victim_total=-6)]
    assert (t.points("anna"), t.points("ben")) == (15, -6)  # the player's gain stays 12


def test_V6_J11_beefmaker_without_a_repeat_gives_nothing() -> None:
    t = playing("Beefmaker")
    events = t.say("anna", "weiter mit Joker Beefmaker", 1, 2, 6)
    assert events[-1] == ev.BeefmakerMissed(player="anna", delta=0, total=3, faces=(1, 2, 6))
    assert (t.role("anna"), t.spiel("anna").pending) == (PLAYING, None)


# --- V6-J12 Venoms Sicherheitsventil ------------------------------------------------------------------


def valve_at(level: int, *jokers: str) -> Table:
    t = playing("Sicherheitsventil", *jokers)
    t.set_points("anna", level)
    return t


def test_V6_J12_valve_seed_twenty_then_five() -> None:
    t = valve_at(20)
    events = t.say("anna", "weiter mit Joker Sicherheitsventil", 5)
    assert ev.ValveArmed(player="anna", level=20) in events
    assert (t.points("anna"), t.spiel("anna").valve, t.role("anna")) == (25, 20, PLAYING)


def test_V6_J12_valve_seed_twenty_then_six_ends_at_twenty() -> None:
    t = valve_at(20)
    t.say("anna", "weiter mit Joker Ventil", 6)
    assert (t.points("anna"), t.role("anna")) == (20, PRINZESSIN)


def test_V6_J12_valve_seed_twentyfive_later_six_at_thirtythree() -> None:
    t = valve_at(25)
    t.say("anna", "weiter mit Joker Ventil", 3)
    t.say("anna", "weiter", 5)
    assert t.points("anna") == 33
    events = t.say("anna", "weiter", 6)
    assert events[0] == ev.ValveCaught(player="anna", delta=-8, total=25, face=6, level=25)
    assert (t.points("anna"), t.role("anna")) == (25, PRINZESSIN)


def test_V6_J12_valve_compulsory_throw_robs_nothing() -> None:
    t = valve_at(10)
    t.say("anna", "weiter mit Joker Ventil", 1)
    assert t.points("anna") == 11
    assert (t.spiel("anna").pending, t.spiel("anna").robberies) == (None, 0)


def test_V6_J12_valve_does_not_soften_all_in() -> None:
    """The rule text's example: valve at 25, a failed ALL IN at 30 → 0, over."""
    t = valve_at(25, "ALL IN")
    t.say("anna", "weiter mit Joker Ventil", 5)
    t.say("anna", "weiter mit Joker ALL IN", 6)
    assert (t.points("anna"), t.role("anna")) == (0, ZOMBIE)


def test_V6_J12_valve_rattenlord_inconsistency_follows_the_penalty() -> None:
    """Valve at 25, failed Rattenlord at 30: the text says 15, the penalty of −10 gives 20 (the reading)."""
    t = valve_at(25, "Rattenlord")
    t.say("anna", "weiter mit Joker Ventil", 5)
    t.say("anna", "weiter mit Joker Rattenlord", 3)
    events = t.say("anna", "weiter", 2)
    assert events == [
        ev.RattenlordLost(player="anna", delta=-10, total=20, faces=(3, 2), rat=4),
        ev.ValveLowered(player="anna", level=20),
    ]
    assert (t.points("anna"), t.spiel("anna").valve, t.role("anna")) == (20, 20, PLAYING)
    t.say("anna", "weiter", 6)
    assert (t.points("anna"), t.role("anna")) == (20, PRINZESSIN)


def test_V6_J12_valve_level_never_rises_again() -> None:
    t = valve_at(10, "Pony")
    t.say("anna", "weiter mit Joker Ventil", 2)
    t.say("anna", "weiter mit Joker Pony", 1, 1, 1)  # 12 − 5 = 7: the level follows down to 7
    t.say("anna", "weiter", 5)
    assert (t.points("anna"), t.spiel("anna").valve) == (12, 7)


# --- V6-J13 Fumo-Joker --------------------------------------------------------------------------------


def test_V6_J13_fumo_doubles_this_throw_and_the_next() -> None:
    t = playing("Fumo", "Tentakel", "Törtchen")
    events = t.say("anna", "weiter mit Joker Fumo", 1)
    assert events[-1] == ev.FumoThrown(player="anna", delta=2, total=5, face=1)
    t.say("anna", "weiter", 2)
    assert t.points("anna") == 9  # no Tentakel, no Törtchen, no robbery
    assert t.spiel("anna").robberies == 0


def test_V6_J13_fumo_does_not_protect_from_a_six() -> None:
    t = playing("Fumo")
    t.say("anna", "weiter mit Joker Fumo", 5)
    t.say("anna", "weiter", 6)
    assert (t.points("anna"), t.role("anna")) == (0, ZOMBIE)


def test_V6_J13_another_joker_ends_fumo_first() -> None:
    t = playing("Fumo", "Pony", "Törtchen")
    t.say("anna", "weiter mit Joker Fumo", 2)  # 3 + 4
    events = t.say("anna", "weiter mit Joker Pony", 4, 4, 4)
    assert events[0] == ev.FumoEnded(player="anna")
    assert t.points("anna") == 7 + 12 + 1  # Pony not doubled, Törtchen back
    t.say("anna", "weiter", 3)
    assert t.points("anna") == 20 + 3 + 1


def test_V6_J13_stopp_ends_fumo() -> None:
    t = playing("Fumo")
    t.say("anna", "weiter mit Joker Fumo", 2)
    t.say("anna", "stopp")
    assert t.spiel("anna").fumo is False


# --- V6-J14 Senigmas Sekante --------------------------------------------------------------------------


def test_V6_J14_sekante_is_disabled_by_default() -> None:
    assert "Senigmas Sekante" not in registry.DEFAULT_ENABLED
    assert "Senigmas Sekante" in registry.NAMES


def test_V6_J14_sekante_seed_example_zombifies_a_prinzessin_and_pays_the_keuler() -> None:
    """A stopped at 8; B takes 10 with the Sekante: A at −2, B a Keuler with +5 at once."""
    t = Table("a", "b", jokers="+Senigmas Sekante")
    t.begin("a", 5)
    t.say("a", "weiter", 3)
    t.say("a", "stopp")
    t.begin("b", 4, ["Sekante"])
    t.say("b", "weiter mit Joker Sekante")
    assert t.last(ev.RobberyOffered).amount == 10
    events = t.say("b", "raube a")
    assert events == [
        ev.Robbed(
            robber="b", victim="a", amount=10, robber_total=14, victim_total=-2, source="Senigmas Sekante"
        ),
        ev.KeulerBonus(player="b", delta=5, total=19, victim="a"),
    ]
    t.say("b", "stopp")
    assert (t.role("a"), t.points("a")) == (PRINZESSIN, -2)  # robbable until the close


def test_V6_J14_sekante_may_be_declined() -> None:
    t = Table("a", "b", jokers="+Sekante")
    t.begin("a", 5, ["Sekante"])
    t.say("a", "weiter mit Joker Sekante")
    t.say("a", "raube nicht")
    assert (t.points("a"), t.points("b")) == (5, 0)
