"""Scenarios shared by several test modules: every kind of refusal, and a Durchgang that produces every
event kind (the catalogue test renders each one)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from engine.errors import CroupierError, IllegalCommand, InvalidCommand, NotYourTurn
from engine.game import Close, Command, Join, Leave, Remove, Skip, Start, Timeout
from engine.verflixte6 import GAME
from engine.verflixte6.commands import ChooseJokers, Continue, Fight, PlayJoker, Rob, Stop
from engine.verflixte6.events import V6Event

from .helpers import Table


@dataclasses.dataclass(frozen=True)
class Refusal:
    id: str
    build: Callable[[], Table]
    actor: str
    command: Command
    error: type[CroupierError]
    code: str


@dataclasses.dataclass(frozen=True)
class Foreign(Command):
    """A command from another game."""


def fresh() -> Table:
    return Table("anna", "ben", "cleo")


def anna_playing(*jokers: str) -> Table:
    t = fresh()
    t.begin("anna", 3, jokers)
    return t


def anna_stopped() -> Table:
    t = anna_playing()
    t.say("anna", "stopp")
    return t


def anna_facing_anaconda() -> Table:
    t = anna_playing("Oces Anaconda")
    t.say("anna", "weiter mit Joker Anaconda", 4)
    return t


def ben_may_rob() -> Table:
    """Anna stopped at 3, Ben threw a robbing 1; Cleo waits."""
    t = anna_stopped()
    t.begin("ben", 2)
    t.say("ben", "weiter", 1)
    return t


def ben_may_rob_after_anna_busted() -> Table:
    t = anna_playing()
    t.say("anna", "weiter", 6)
    t.begin("ben", 2)
    t.say("ben", "weiter", 1)
    return t


def ben_may_rob_while_anna_plays() -> Table:
    """Parallel play: anna's Spiel runs while ben's 1 lets him rob."""
    t = Table("anna", "ben", "cleo", parallel="yes")
    t.begin("anna", 3)
    t.begin("ben", 3)
    t.say("ben", "weiter", 1)
    return t


def ben_may_hit_cleo_twice() -> Table:
    """anna's Beefmaker hit cleo; ben's Beefmaker may hit her no more (V6-J11)."""
    t = Table("anna", "ben", "cleo")
    t.begin("anna", 3, ["Beefmaker"])
    t.say("anna", "weiter mit Joker Beefmaker", 2, 2, 5)
    t.say("anna", "raube cleo")
    t.say("anna", "stopp")
    t.begin("ben", 3, ["Beefmaker"])
    t.say("ben", "weiter mit Joker Beefmaker", 4, 4, 4)
    return t


def two_annas() -> Table:
    t = Table("ben")
    t.do("a1", Join("Anna"))
    t.do("a2", Join("anna"))
    t.begin("ben", 2)
    t.say("ben", "weiter", 1)
    return t


def pony_used() -> Table:
    t = anna_playing("Push your Pony")
    t.say("anna", "weiter mit Joker Pony", 5, 5, 5)
    return t


def closed() -> Table:
    t = fresh()
    t.do("mod", Close())
    return t


def shuffled_waiting() -> Table:
    return Table("anna", "ben", order="shuffled")


def all_done() -> Table:
    t = Table("anna")
    t.begin("anna", 3)
    t.say("anna", "stopp")
    return t


REFUSALS: tuple[Refusal, ...] = (
    Refusal("wrong player", fresh, "ben", Continue(), NotYourTurn, "not_your_turn"),
    Refusal("wrong player mid-Spiel", anna_playing, "cleo", Stop(), NotYourTurn, "not_your_turn"),
    Refusal("stranger", fresh, "zoe", Continue(), NotYourTurn, "join_first"),
    Refusal("stranger leaves", fresh, "zoe", Leave(), NotYourTurn, "not_signed_up"),
    Refusal("Spiel over", anna_stopped, "anna", Continue(), IllegalCommand, "spiel_over"),
    Refusal("closed Durchgang", closed, "anna", Continue(), IllegalCommand, "closed"),
    Refusal("join a closed Durchgang", closed, "zoe", Join("Zoe"), IllegalCommand, "closed"),
    Refusal("before the shuffle", shuffled_waiting, "anna", Continue(), IllegalCommand, "not_started"),
    Refusal("start after the first Spiel", anna_playing, "mod", Start(), IllegalCommand, "already_started"),
    Refusal("join twice", fresh, "anna", Join("Anna"), IllegalCommand, "already_joined"),
    Refusal("leave while playing", anna_playing, "anna", Leave(), IllegalCommand, "cannot_leave"),
    Refusal("rob a stranger", ben_may_rob, "ben", Rob("zorro"), InvalidCommand, "no_such_player"),
    Refusal("rob a misspelt name", ben_may_rob, "ben", Rob("ana"), InvalidCommand, "unknown_player"),
    Refusal("rob an ambiguous name", two_annas, "ben", Rob("Anna"), InvalidCommand, "ambiguous_player"),
    Refusal("rob a Zombie", ben_may_rob_after_anna_busted, "ben", Rob("anna"), IllegalCommand, "rob_zombie"),
    Refusal(
        "rob a running Spiel", ben_may_rob_while_anna_plays, "ben", Rob("anna"), IllegalCommand, "rob_playing"
    ),
    Refusal(
        "Beefmaker twice", ben_may_hit_cleo_twice, "ben", Rob("cleo"), IllegalCommand, "rob_beefmaker_twice"
    ),
    Refusal("rob oneself", ben_may_rob, "ben", Rob("ben"), IllegalCommand, "rob_self"),
    Refusal("skip a running Spiel", anna_playing, "mod", Skip("anna"), IllegalCommand, "not_a_jungfrau"),
    Refusal("remove a Prinzessin", anna_stopped, "mod", Remove("Anna"), IllegalCommand, "not_a_jungfrau"),
    Refusal("timeout with nobody to act", all_done, "mod", Timeout(), IllegalCommand, "nobody_to_act"),
    Refusal("unknown joker", anna_playing, "anna", PlayJoker("Rattenlorb"), InvalidCommand, "unknown_joker"),
    Refusal("no such joker", anna_playing, "anna", PlayJoker("Zauberstab"), InvalidCommand, "no_such_joker"),
    Refusal(
        "disabled joker",
        fresh,
        "anna",
        ChooseJokers(("Senigmas Sekante",)),
        IllegalCommand,
        "joker_disabled",
    ),
    Refusal(
        "duplicate joker",
        fresh,
        "anna",
        ChooseJokers(("Pony", "Push your Pony")),
        IllegalCommand,
        "duplicate_joker",
    ),
    Refusal(
        "fourth joker",
        fresh,
        "anna",
        ChooseJokers(("Pony", "Monokel", "Rattenlord", "ALL IN")),
        IllegalCommand,
        "too_many_jokers",
    ),
    Refusal(
        "jokers after the Freiwurf", anna_playing, "anna", ChooseJokers(()), IllegalCommand, "jokers_locked"
    ),
    Refusal("stopp before the Freiwurf", fresh, "anna", Stop(), IllegalCommand, "stop_before_freiwurf"),
    Refusal(
        "joker before the Freiwurf",
        fresh,
        "anna",
        PlayJoker("Rattenlord"),
        IllegalCommand,
        "joker_before_freiwurf",
    ),
    Refusal(
        "joker not chosen", anna_playing, "anna", PlayJoker("Rattenlord"), IllegalCommand, "joker_not_chosen"
    ),
    Refusal("joker used up", pony_used, "anna", PlayJoker("Pony"), IllegalCommand, "joker_used"),
    Refusal(
        "autojoker announced",
        lambda: anna_playing("Jules Törtchen"),
        "anna",
        PlayJoker("Törtchen"),
        IllegalCommand,
        "autojoker",
    ),
    Refusal("stopp while deciding", anna_facing_anaconda, "anna", Stop(), IllegalCommand, "decision_pending"),
    Refusal("wrong answer", anna_facing_anaconda, "anna", Rob(None), IllegalCommand, "decision_pending"),
    Refusal("answer to no decision", anna_playing, "anna", Fight(), IllegalCommand, "no_decision_pending"),
    Refusal("answer before the Freiwurf", fresh, "anna", Fight(), IllegalCommand, "no_decision_pending"),
    Refusal("another game's command", fresh, "anna", Foreign(), InvalidCommand, "unknown_command"),
)


def other_errors() -> list[CroupierError]:
    """Refusals that come from opening, parsing or loading rather than from ``apply``."""
    attempts: list[Callable[[], object]] = [
        lambda: GAME.open({"colour": "red"}),
        lambda: GAME.open({"order": "alphabetical"}),
        lambda: GAME.open({"parallel": "vielleicht"}),
        lambda: GAME.open({"jokers": "Rattenlord, Zauberstab"}),
        lambda: GAME.parse("Joker:"),
        lambda: GAME.parse("weiter mit"),
        lambda: GAME.parse("weiter mit Joker Zauberstab"),
        lambda: GAME.parse("weiter mit Joker Rattenlorb"),
        lambda: GAME.parse("weiter mit Joker Rattenlord und Monokel"),
        lambda: GAME.parse("raube"),
        lambda: GAME.parse("raube Anna und Ben"),
        lambda: GAME.load({"format": 99}),
    ]
    errors: list[CroupierError] = []
    for attempt in attempts:
        try:
            attempt()
        except CroupierError as error:
            errors.append(error)
        else:  # pragma: no cover - a case that stopped failing is a test bug
            raise AssertionError(f"{attempt} was accepted")
    return errors


def misread_errors() -> list[CroupierError]:
    """What a misspelt joker becomes once the Durchgang is known (``Game.misread``): the jokers in
    hand named plainly, or none left to play."""
    unknown = InvalidCommand("unknown_joker", name="Monokle", suggestions=["Leelas Monokel"])
    holding, empty_handed = anna_playing("Rattenlord"), anna_playing()
    return [GAME.misread(t.state, "anna", unknown) for t in (holding, empty_handed)]


def refusal_errors() -> list[CroupierError]:
    errors: list[CroupierError] = []
    for case in REFUSALS:
        t = case.build()
        errors.append(t.refuse(case.actor, case.command, case.error, case.code))
    return errors


ZOO_PLAYERS = (
    "anna", "ben", "cleo", "dora", "eve", "fritz", "gus", "hanna", "ida", "jan", "kim", "leo", "mia",
    "nina", "otto", "paul",
)  # fmt: skip


def event_zoo() -> list[V6Event]:
    """A Durchgang that makes the croupier say every kind of thing once at least."""
    seen: list[V6Event] = []
    t = Table(jokers="+Senigmas Sekante")
    for pid in ZOO_PLAYERS:
        t.do(pid, Join(pid.capitalize()))
        seen += t.told
    t.do("mod", Start())
    seen += t.told

    def say(actor: str, text: str, *faces: int) -> None:
        t.say(actor, text, *faces)
        seen.extend(t.told)

    say("anna", "Joker: Tentakel, Fumo, Pony")
    say("anna", "weiter", 3)
    say("anna", "weiter", 2)  # +2, Tentakel +5
    say("anna", "weiter mit Joker Fumo", 3)  # +6
    say("anna", "weiter mit Joker Pony", 5, 5, 5)  # Fumo ends, +15
    say("anna", "stopp")  # 31
    say("ben", "Joker: keine")
    say("ben", "weiter", 4)
    say("ben", "weiter", 1)
    say("ben", "raube anna")
    say("ben", "weiter", 6)  # Zombie
    say("cleo", "Joker: Beefmaker, Anaconda, Rattenlord")
    say("cleo", "weiter", 2)
    say("cleo", "weiter mit Joker Beefmaker", 3, 1, 3)
    seen += GAME.prompt(t.state)  # the victim asked again (as after an undo)
    say("cleo", "raube @Anna")
    say("cleo", "weiter mit Joker Anaconda", 4)
    seen += GAME.prompt(t.state)  # the fight asked again
    say("cleo", "kämpfen", 5)
    say("cleo", "weiter mit Joker Rattenlord", 2)
    say("cleo", "weiter", 3)
    say("cleo", "stopp")
    say("dora", "Joker: Monokel, Spelunkenbold, Hirtenschutz")
    say("dora", "weiter", 1)
    say("dora", "weiter mit Joker Monokel", 2, 3)
    say("dora", "wiederholen", 4, 4)
    say("dora", "weiter mit Joker Spelunkenbold", 6)
    say("dora", "weiter mit Joker Hirtenschutz", 3)
    say("dora", "stopp")
    say("eve", "Joker: Kälteschutz, Ventil, ALL IN")
    say("eve", "weiter", 5)
    say("eve", "weiter mit Joker Kälteschutz", 2)
    say("eve", "weiter mit Joker Kälteschutz", 6)
    say("eve", "weiter mit Joker Ventil", 3)
    say("eve", "weiter mit Joker ALL IN", 2)
    say("eve", "weiter", 6)
    say("fritz", "Joker: Spelunkenbold, Anaconda, Rattenlord")
    say("fritz", "weiter", 2)
    say("fritz", "weiter mit Joker Spelunkenbold", 1)
    say("fritz", "weiter mit Joker Anaconda", 5)
    say("fritz", "kneifen")
    say("fritz", "weiter mit Joker Rattenlord", 6)
    say("fritz", "stopp")
    say("gus", "Joker: Anaconda, Rattenlord, ALL IN")
    say("gus", "weiter", 2)
    say("gus", "weiter mit Joker Anaconda", 5)
    say("gus", "kämpfen", 1)
    say("gus", "weiter mit Joker Rattenlord", 1)
    say("gus", "zurücktreten")
    say("gus", "weiter mit Joker ALL IN", 5)
    say("hanna", "Joker: Pony, Monokel, Beefmaker")
    say("hanna", "weiter", 4)
    say("hanna", "weiter mit Joker Pony", 1, 2, 3)
    say("hanna", "weiter mit Joker Monokel", 1, 1)
    say("hanna", "behalten")
    say("hanna", "weiter mit Joker Beefmaker", 1, 2, 3)
    say("hanna", "stopp")  # 4 − 5 + 2 + 0 = 1
    say("ida", "Joker: Kälteschutz")
    say("ida", "weiter", 1)
    for face in (3, 4, 5, 5, 1):
        say("ida", "weiter mit Joker Kälteschutz", face)
    say("ida", "stopp")
    say("jan", "Joker: Ventil, Rattenlord")
    say("jan", "weiter", 6)
    say("jan", "weiter mit Joker Ventil", 4)
    say("jan", "weiter mit Joker Rattenlord", 1)
    say("jan", "weiter", 2)  # the valve follows the total down
    say("jan", "stopp")
    say("kim", "Joker: Sekante")
    say("kim", "weiter", 1)
    say("kim", "weiter mit Joker Sekante")
    say("kim", "raube hanna")  # Hanna 1 → −9: Keuler
    say("kim", "stopp")
    say("leo", "Joker: Törtchen")
    say("leo", "weiter", 2)
    say("leo", "weiter", 1)
    say("leo", "raube nicht")
    say("leo", "stopp")
    say("mia", "Joker: Anaconda")
    say("mia", "weiter", 3)
    say("mia", "weiter mit Joker Anaconda", 2)
    t.do("mod", Timeout())
    seen += t.told
    t.do("mod", Skip("nina"))
    seen += t.told
    t.do("otto", Leave())
    seen += t.told
    t.do("mod", Remove("paul"))
    seen += t.told
    t.do("mod", Close())
    seen += t.told

    solo = Table("solo")
    solo.begin("solo", 2)
    solo.say("solo", "weiter", 1)  # nobody to rob
    seen += solo.told
    solo.say("solo", "stopp")  # the last Spiel: the moderator is told to close
    seen += solo.told
    empty = Table()
    empty.do("mod", Close())  # nobody played
    seen += empty.told
    return seen
