"""Sign-up, moderator commands, time-outs, advice, and the canonical state form."""

from __future__ import annotations

import json
from fractions import Fraction

from engine.game import Close, Leave, Remove, Skip, Start, Timeout
from engine.killer import KILLER, KILLER_CLASSIC, odds
from engine.killer import events as ev

from .helpers import Table, kinds, of, position

SIX_SIXES = [6, 6, 6, 6, 6]


def test_K5_S1_signup_leave_and_skip_change_the_setup_order() -> None:
    table = Table([*SIX_SIXES], players=("anna", "ben", "carl", "dora"))
    table.do("dora", Leave())
    assert [p.id for p in table.state.players] == ["anna", "ben", "carl"]
    table.do("mod", Skip("@Anna"))
    assert of(table.events, ev.MovedToEnd) == [ev.MovedToEnd("anna")]
    table.do("mod", Remove("carl"))
    table.do("mod", Start())
    assert table.to_act == "ben"  # first in the sign-up order now
    assert [seat.player for seat in KILLER.table(table.state)] == ["ben", "anna"]


def test_K5_R1_removing_the_player_to_act_hands_the_turn_on() -> None:
    table = Table([*SIX_SIXES, 1, 2, 3, 4, 5], players=("anna", "ben", "carl"), setup=(30, 30, 30))
    assert table.to_act == "anna"
    events = table.do("mod", Remove("anna"))
    assert kinds(events)[:2] == ["killer.removed", "killer.turn_started"]
    assert table.to_act == "ben"
    assert table.roll == (1, 2, 3, 4, 5)
    assert table.game.summary(table.state)["players"]["anna"]["status"] == "dead"


def test_K5_Z1_a_removed_player_never_comes_back_as_a_zombie() -> None:
    table = position(
        {"anna": ("alive", 30), "ben": ("dead", -2), "carl": ("alive", 30)},
        "anna",
        [5, 6, 4, 4, 4, 1, 2, 3, 4, 5],
        options={"modes": ["zombie"]},
    )
    table.do("mod", Remove("ben"))
    events = table.do("anna", "garde tout")
    assert of(events, ev.ZombieRolled) == []
    assert table.to_act == "carl"


def test_K5_S1_removing_during_setup_moves_to_the_next_setup() -> None:
    table = Table([6, 6, 6, 6, 6, 1, 1, 1, 1, 1], players=("anna", "ben", "carl"))
    table.do("mod", Start())
    table.do("mod", Remove("anna"))
    assert table.to_act == "ben"
    assert table.roll == (1, 1, 1, 1, 1)


def test_K5_E1_close_ends_the_game_as_it_stands() -> None:
    table = Table([5, 6, 4, 4, 4], setup=(30, 30))
    events = table.do("mod", Close())
    assert kinds(events) == ["killer.closed", "killer.no_winner"]
    assert table.game.finished(table.state)
    assert table.state.winner is None
    lone = position(
        {"anna": ("alive", 3), "ben": ("dead", -2), "carl": ("dying", -1)}, "anna", [1, 2, 3, 4, 5]
    )
    lone.do("mod", Remove("carl"))
    assert kinds(lone.do("mod", Close())) == ["killer.closed", "killer.won"]


def test_K5_R1_timeout_keeps_like_auto_for_the_best_odds() -> None:
    table = Table([6, 5, 2, 1, 1, 3, 3, 3], setup=(30, 30))
    events = table.do("mod", Timeout())
    assert of(events, ev.TimedOut) == [ev.TimedOut("anna", "keep")]
    assert of(events, ev.Kept)[0].values == odds.solver(5).best_keep(0, (6, 5, 2, 1, 1)) == (1, 1)


def test_K5_A1_timeout_with_an_attack_pending_lets_it_go() -> None:
    table = Table([5, 6, 6, 4, 4, *SIX_SIXES], setup=(30, 30))
    table.do("anna", "garde tout")
    events = table.do("mod", Timeout())
    assert kinds(events)[:2] == ["killer.timed_out", "killer.attack_forfeited"]
    assert (table.hp("anna"), table.hp("ben"), table.to_act) == (30, 30, "ben")


def test_K5_D1_a_dying_player_timing_out_on_a_suicide_attack_dies() -> None:
    table = position({"anna": ("alive", 30), "ben": ("dying", -3)}, "ben", [5, 6, 6, 4, 4, 1, 2, 3, 4, 5])
    table.do("ben", "garde tout")
    table.do("mod", Timeout())
    assert table.status("ben") == "dead"
    assert table.state.winner == "anna"


def test_K5_Z1_timeout_before_the_announcement_aims_high() -> None:
    table = position(
        {"anna": ("alive", 30), "ben": ("zombie", 1)}, "ben", [1, 2, 3, 4, 5], options={"modes": ["zombie"]}
    )
    events = table.do("mod", Timeout())
    assert of(events, ev.AimedHigh) == [ev.AimedHigh("ben", 24)]
    assert table.roll == (1, 2, 3, 4, 5)


def test_K6_A1_timeout_after_a_hit_passes() -> None:
    table = Table([6] * 6 + [6, 1, 2, 3, 4, 5], setup=(30, 30), game=KILLER_CLASSIC)
    table.do("anna", "garde tout")
    table.do("anna", "attaque ben")
    events = table.do("mod", Timeout())
    assert kinds(events)[:2] == ["killer.timed_out", "killer.passed"]
    assert table.to_act == "ben"


def test_K5_P1_advice_gives_exact_odds_and_changes_nothing() -> None:
    table = Table([6, 5, 2, 1, 1], setup=(30, 30))
    state = table.state
    new, events = KILLER.apply(state, "stranger", KILLER.parse("conseil"), table.dice)  # type: ignore[arg-type]
    assert new is state
    assert table.dice.position == 15
    (advice,) = events
    assert isinstance(advice, ev.AdviceAttack)
    assert advice.keep == (1, 1)
    assert advice.by == "stranger"
    assert advice.player == "anna"
    expected = odds.advise(5, (), (6, 5, 2, 1, 1)).odds
    assert advice.p_attack == f"{expected.p_attack.numerator}/{expected.p_attack.denominator}"
    assert 0 < advice.attack_pct < 100


def test_K5_P1_advice_in_setup_is_about_the_sum_and_elsewhere_about_a_whole_phase() -> None:
    table = Table([6, 5, 2, 1, 1])
    table.do("mod", Start())
    (setup_advice,) = table.do("ben", "conseil")
    assert isinstance(setup_advice, ev.AdviceSum)
    assert setup_advice.keep == (6,)
    target = Table([5, 6, 6, 4, 4], setup=(30, 30))
    target.do("anna", "garde tout")
    (phase,) = target.do("ben", "conseil")
    assert isinstance(phase, ev.PhaseOdds)
    assert phase.p_attack == _text(odds.phase_odds(5).p_attack)
    classic = Table([6] * 6, setup=(30, 30), game=KILLER_CLASSIC)
    (strength,) = classic.do("anna", "conseil")
    assert isinstance(strength, ev.AdviceSum)
    assert strength.keep == (6, 6, 6, 6, 6, 6)


def test_K5_K1_canonical_state_survives_json_and_keeps_playing() -> None:
    table = Table([6, 6, 1, 2, 3, 6, 6, 6], setup=(30, 30), options={"modes": "terminator,zombie"})
    table.do("anna", "garde 6 6")
    data = json.loads(json.dumps(KILLER.dump(table.state)))
    restored = KILLER.load(data)
    assert restored == table.state
    assert KILLER.dump(restored) == data
    after, _ = KILLER.apply(restored, "anna", KILLER.parse("garde tout"), table.dice)  # type: ignore[arg-type]
    assert after.player("anna").hp == 30  # 6 + 6 + 6 + 6 + 6 = 30 → attack of 6


def test_K5_S1_table_and_summary_show_the_running_state() -> None:
    table = position({"anna": ("alive", 30), "ben": ("dying", -2)}, "ben", [1, 2, 3, 4, 5])
    seats = KILLER.table(table.state)
    assert [(s.player, s.role, s.points, s.to_act) for s in seats] == [
        ("anna", "alive", 30, False),
        ("ben", "dying", -2, True),
    ]
    assert KILLER.summary(table.state) == {
        "players": {
            "anna": {"status": "alive", "hp": 30, "terminator": 0},
            "ben": {"status": "dying", "hp": -2, "terminator": 0},
        },
        "winner": None,
        "finished": False,
    }


def _text(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"
