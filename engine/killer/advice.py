"""``conseil``: the exact odds of the current keep state, as an event (nothing else changes).

The same solver drives ``auto``, so the advice and what the croupier does for a player who lets the
time run out always agree.
"""

from __future__ import annotations

from fractions import Fraction

from engine.game import Event
from engine.killer import odds
from engine.killer.events import AdviceAttack, AdviceSum, PhaseOdds
from engine.killer.state import KillerState, Turn


def goal(state: KillerState, turn: Turn) -> odds.Goal:
    """What the keep phase is played for: the kept sum in setup, else what the variant plays for (an
    attack, a zombie's announced side, the older revision's strength)."""
    if turn.step == "setup":
        return "sum"
    return turn.direction or state.variant.play_goal


def auto_keep(state: KillerState, turn: Turn) -> tuple[int, ...]:
    return odds.solver(state.rules.dice, goal(state, turn)).best_keep(sum(turn.kept), turn.roll)


def _text(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def _pct(p: Fraction) -> float:
    return round(float(p) * 100, 2)


def advice(state: KillerState, by: str) -> Event:
    dice = state.rules.dice
    turn = state.turn
    if turn is not None and turn.step in ("setup", "keep") and turn.roll:
        target = goal(state, turn)
        found = odds.advise(dice, turn.kept, turn.roll, target)
        if target == "sum":
            expected = found.odds.expected_sum
            return AdviceSum(
                turn.player, by, turn.roll, turn.kept, found.keep, _text(expected), float(expected)
            )
        result = found.odds
        return AdviceAttack(
            player=turn.player,
            by=by,
            roll=turn.roll,
            kept=turn.kept,
            keep=found.keep,
            goal=target,
            p_attack=_text(result.p_attack),
            attack_pct=_pct(result.p_attack),
            p_regeneration=_text(result.p_regeneration),
            regeneration_pct=_pct(result.p_regeneration),
            p_loss=_text(result.p_loss),
            loss_pct=_pct(result.p_loss),
            expected_loss=round(float(result.expected_loss), 3),
            attack_by_value=tuple(_text(result.attack(v)) for v in range(1, 7)),
        )
    if state.variant.play_goal == "sum":  # no roll to advise on: a whole phase's odds
        expected = odds.phase_odds(dice, "sum").expected_sum
        subject = turn.player if turn is not None else by
        return AdviceSum(subject, by, (), (), (), _text(expected), float(expected))
    whole = odds.phase_odds(dice, "attack")
    return PhaseOdds(
        by=by,
        dice=dice,
        p_attack=_text(whole.p_attack),
        attack_pct=_pct(whole.p_attack),
        p_regeneration=_text(whole.p_regeneration),
        regeneration_pct=_pct(whole.p_regeneration),
        p_loss=_text(whole.p_loss),
        loss_pct=_pct(whole.p_loss),
        expected_loss=round(float(whole.expected_loss), 3),
    )
