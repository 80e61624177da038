"""The Durchgang around the Spiele (rules page §6, "around the table") and the options it opens with."""

from __future__ import annotations

import inspect

import pytest

from engine.dice import ScriptedDice, randbelow
from engine.errors import IllegalCommand, InvalidCommand, NotYourTurn
from engine.game import Game, Join, Leave, Remove, Seat, Skip, Start, Timeout
from engine.verflixte6 import GAME, Verflixte6
from engine.verflixte6 import events as ev
from engine.verflixte6.commands import Continue, Stop
from engine.verflixte6.jokers import registry
from engine.verflixte6.state import JUNGFRAU, PLAYING, PRINZESSIN

from .helpers import Table


def test_V6_game_satisfies_the_game_protocol() -> None:
    """mypy does not read the tests, so the protocol is held up here: every method, with the protocol's
    parameters, and every class attribute."""
    methods = [name for name, value in vars(Game).items() if callable(value) and not name.startswith("_")]
    for name in methods:
        ours, theirs = inspect.signature(getattr(Verflixte6, name)), inspect.signature(getattr(Game, name))
        assert list(ours.parameters) == list(theirs.parameters), name
    assert {name for name in Game.__annotations__ if not hasattr(GAME, name)} == set()
    assert (GAME.name, GAME.language, GAME.catalogue, GAME.ranked) == (
        "verflixte6",
        "de",
        "engine.verflixte6",
        True,
    )


def test_V6_table_signup_order_one_spiel_at_a_time() -> None:
    """§6: turn order is the sign-up order; only the next Jungfrau or the running Spiel may act."""
    t = Table("anna", "ben")
    assert GAME.to_act(t.state) == "anna"
    error = t.refuse("ben", "weiter", NotYourTurn, "not_your_turn")
    assert error.facts == {"player": "anna"}
    t.begin("anna", 3)
    t.refuse("ben", "Joker: Pony", NotYourTurn, "not_your_turn")
    events = t.say("anna", "stopp")
    assert events[-1] == ev.NextUp(next_player="ben")
    assert GAME.to_act(t.state) == "ben"


def test_V6_table_late_signup_joins_the_end_of_the_queue() -> None:
    t = Table("anna", "ben")
    t.begin("anna", 3)
    events = t.do("zoe", Join("Zoe"))
    assert events == [ev.Joined(player="zoe", name="Zoe", points=0, position=3)]
    assert [s.player for s in GAME.table(t.state)] == ["anna", "ben", "zoe"]


def test_V6_table_a_jungfrau_may_leave_and_a_rejoin_keeps_her_balance() -> None:
    t = Table("anna", "ben")
    t.begin("anna", 3)
    t.say("anna", "weiter", 1)
    t.say("anna", "raube ben")
    assert t.do("ben", Leave()) == [ev.Left(player="ben", points=-1)]
    assert [p.id for p in t.state.participants] == ["anna"]
    t.do("ben", Join("Ben"))
    assert t.points("ben") == -1


def test_V6_table_start_in_signup_order_uses_no_dice() -> None:
    t = Table("anna", "ben")
    assert t.do("mod", Start()) == [ev.Started(order="signup", players=("anna", "ben"), faces=())]
    t.refuse("mod", Start(), IllegalCommand, "already_started")


def test_V6_table_shuffled_order_waits_for_start_and_shuffles_with_the_dice() -> None:
    t = Table("anna", "ben", "cleo", order="shuffled")
    assert GAME.to_act(t.state) is None
    t.refuse("anna", Continue(), IllegalCommand, "not_started")
    events = t.do("mod", Start(), 1, 1)  # Fisher–Yates: swap 3rd with 1st, then 2nd with 1st
    assert events[0] == ev.Started(order="shuffled", players=("ben", "cleo", "anna"), faces=(1, 1))
    assert events[-1] == ev.NextUp(next_player="ben")
    assert [p.id for p in t.state.participants] == ["ben", "cleo", "anna"]
    t.do("dora", Join("Dora"))
    assert t.state.participants[-1].id == "dora"


def test_V6_table_randbelow_rejects_the_biased_top() -> None:
    dice = ScriptedDice([5, 6, 3])  # n = 4: faces 5 and 6 are rejected
    assert randbelow(dice, 4) == 2
    assert dice.left == 0
    dice = ScriptedDice([6, 6, 1, 2])  # n = 7: two digits, 35 rejected, then 0·6 + 1
    assert randbelow(dice, 7) == 1
    assert randbelow(ScriptedDice([]), 1) == 0


def test_V6_table_parallel_play_lets_every_jungfrau_start() -> None:
    t = Table("anna", "ben", "cleo", parallel=True)
    t.begin("ben", 4)
    t.begin("anna", 2)
    assert (t.role("anna"), t.role("ben")) == (PLAYING, PLAYING)
    t.say("ben", "weiter", 3)
    t.say("anna", "stopp")
    assert [s.to_act for s in GAME.table(t.state)] == [False, True, True]
    assert not any(isinstance(e, ev.NextUp) for e in t.events)


def test_V6_table_skip_and_remove_waiting_jungfrauen() -> None:
    t = Table("anna", "ben", "cleo")
    assert t.do("mod", Skip("@Anna")) == [ev.Skipped(player="anna"), ev.NextUp(next_player="ben")]
    assert [p.id for p in t.state.participants] == ["ben", "cleo", "anna"]
    t.do("mod", Remove("cleo"))
    assert [p.id for p in t.state.participants] == ["ben", "anna"]
    t.refuse("mod", Remove("cleo"), InvalidCommand, "no_such_player")  # nobody else comes close
    assert t.refuse("mod", Remove("an"), InvalidCommand, "unknown_player").facts["suggestions"] == ["Anna"]


def test_V6_table_timeout_answers_safely_then_stops() -> None:
    t = Table("anna", "ben")
    t.begin("anna", 4, ["Rattenlord"])
    t.say("anna", "weiter mit Joker Rattenlord", 2)
    events = t.do("mod", Timeout())
    assert [e.kind() for e in events] == [
        "v6.timed_out",
        "v6.decision_defaulted",
        "v6.rattenlord_retreated",
        "v6.stopped",
        "v6.next_up",
    ]
    assert (t.role("anna"), t.points("anna")) == (PRINZESSIN, 2)


@pytest.mark.parametrize(
    ("jokers", "setup", "answer", "points"),
    [
        (["Monokel"], [("weiter mit Joker Monokel", (2, 3))], "behalten", 4 + 5),
        (["Anaconda"], [("weiter mit Joker Anaconda", (3,))], "kneifen", 4 - 2),
        ([], [("weiter", (1,))], "raube nicht", 4 + 1),
        (["Beefmaker"], [("weiter mit Joker Beefmaker", (2, 2, 3))], "raube nicht", 4 + 12),
    ],
)
def test_V6_table_timeout_safe_defaults(
    jokers: list[str], setup: list[tuple[str, tuple[int, ...]]], answer: str, points: int
) -> None:
    t = Table("anna", "ben")
    t.begin("anna", 4, jokers)
    for text, faces in setup:
        t.say("anna", text, *faces)
    t.do("mod", Timeout())
    assert t.last(ev.DecisionDefaulted).answer == answer
    assert (t.role("anna"), t.points("anna"), t.points("ben")) == (PRINZESSIN, points, 0)


def test_V6_table_timeout_of_a_waiting_jungfrau_moves_her_to_the_end() -> None:
    t = Table("anna", "ben")
    t.say("anna", "Joker: Pony")
    events = t.do("mod", Timeout())
    assert events == [ev.TimedOut(player="anna"), ev.Skipped(player="anna"), ev.NextUp(next_player="ben")]
    assert t.role("anna") == JUNGFRAU
    assert t.spiel("anna").jokers == ("Push your Pony",)  # her choice stays


def test_V6_table_timeout_names_the_slow_player_in_parallel_play() -> None:
    t = Table("anna", "ben", parallel="ja")
    t.begin("anna", 3)
    t.begin("ben", 5)
    t.do("ben", Timeout())
    assert (t.role("anna"), t.role("ben")) == (PLAYING, PRINZESSIN)


def test_V6_table_seats_and_summary() -> None:
    t = Table("anna", "ben")
    t.begin("anna", 3)
    assert list(GAME.table(t.state)) == [
        Seat(player="anna", name="Anna", role="playing", points=3, to_act=True),
        Seat(player="ben", name="Ben", role="jungfrau", points=0, to_act=False),
    ]
    assert GAME.summary(t.state) == {
        "players": {"anna": {"role": "playing", "points": 3}, "ben": {"role": "jungfrau", "points": 0}}
    }
    assert not GAME.finished(t.state)


def test_V6_table_a_stranger_is_told_who_is_to_act_and_how_to_join() -> None:
    t = Table("anna")
    error = t.refuse("zoe", Stop(), NotYourTurn, "join_first")
    assert error.facts == {"player": "anna"}


# --- options --------------------------------------------------------------------------------------------


def test_V6_options_defaults() -> None:
    state = GAME.open({})
    assert state.options.jokers == registry.DEFAULT_ENABLED
    assert len(registry.DEFAULT_ENABLED) == 13
    assert (state.options.order, state.options.parallel) == ("signup", False)


@pytest.mark.parametrize(
    ("value", "enabled"),
    [
        ("Rattenlord,ALL IN", ("Rattenlord", "ALL IN")),
        (["all in", "rattenlord"], ("Rattenlord", "ALL IN")),
        ("keine", ()),
        ("+Sekante", (*registry.DEFAULT_ENABLED, "Senigmas Sekante")),
        (
            "-Pony, -Fumo",
            tuple(n for n in registry.DEFAULT_ENABLED if n not in ("Push your Pony", "Fumo-Joker")),
        ),
    ],
)
def test_V6_options_jokers(value: object, enabled: tuple[str, ...]) -> None:
    assert GAME.open({"jokers": value}).options.jokers == enabled


@pytest.mark.parametrize(
    ("options", "order", "parallel"),
    [
        ({"order": "shuffled", "parallel": "yes"}, "shuffled", True),
        ({"order": "Signup", "parallel": "0"}, "signup", False),
    ],
)
def test_V6_options_from_chat_strings(options: dict[str, str], order: str, parallel: bool) -> None:
    state = GAME.open(options)
    assert (state.options.order, state.options.parallel) == (order, parallel)


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"colour": "red"}, "unknown_option"),
        ({"order": "alphabetical"}, "bad_option_value"),
        ({"parallel": "vielleicht"}, "bad_option_value"),
        ({"jokers": "Rattenlord, Zauberstab"}, "no_such_joker"),
        ({"jokers": "Rattenlord, Ponny"}, "unknown_joker"),
        ({"jokers": "+Pony, Rattenlord"}, "bad_option_value"),
        ({"jokers": 7}, "bad_option_value"),
    ],
)
def test_V6_options_refused(options: dict[str, object], code: str) -> None:
    with pytest.raises(InvalidCommand) as caught:
        GAME.open(options)
    assert caught.value.code == code
