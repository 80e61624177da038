"""What the player to act is asked after a move, as an event: the words that are valid now.

Every reply that leaves a decision to someone ends with one of these, so nobody has to guess what to
type: the keep after each roll, the side a zombie announces, the target of an attack (and who may be
targeted), attack-or-pass in the older revision — and, for a player nobody else can be attacked by,
what the only word left does and what ends the game.
"""

from __future__ import annotations

from engine.game import Event
from engine.killer import events as ev
from engine.killer.commands import Pass
from engine.killer.state import KillerState, Turn


def prompt(state: KillerState) -> list[Event]:
    """The question the game waits on now (empty when it waits on no one, or on a due roll)."""
    turn = state.turn
    if state.over or turn is None or turn.due:
        return []
    player = turn.player
    if turn.step in ("setup", "keep"):
        return [ev.KeepAsked(player, keep_example(turn.roll))]
    if turn.step == "direction":
        return [ev.DirectionAsked(player, state.rules.low, state.rules.high)]
    if turn.step not in ("target", "again"):  # pragma: no cover - every waiting step is listed
        return []
    offered = targets(state, turn)
    if turn.step == "again":
        return [ev.AgainAsked(player, turn.value, offered)]
    if Pass in state.variant.accepts.get(turn.step, ()):
        return [ev.TargetOrPassAsked(player, turn.value, offered)]
    if offered:
        return [ev.TargetAsked(player, turn.value, offered)]
    if any(other.targetable for other in state.players if other.id != player):
        return [ev.ImmuneTargetsOnly(player, turn.value)]
    if turn.deciding:
        return [ev.LastStandingDying(player, turn.value)]
    return [ev.LastStanding(player, turn.value)]


def targets(state: KillerState, turn: Turn) -> tuple[str, ...]:
    """Whom the attack of the turn may hit: opponents still in the game and not immune to its value."""
    ids = list(state.order) or [p.id for p in state.players]
    return tuple(
        pid
        for pid in ids
        if pid != turn.player
        and state.player(pid).targetable
        and not state.variant.immune(state.player(pid), turn.value)
    )


def keep_example(roll: tuple[int, ...]) -> str:
    """A keep of this roll to show the words with: its first dice as rolled ("3 2"), one when only two
    are left. Deliberately not a choice: the two highest read as the croupier's advice even when the
    player aims low; ``conseil`` gives the best keep."""
    return " ".join(str(face) for face in roll[: 2 if len(roll) > 2 else 1])
