"""Changes of PDV and what they do to a player's status.

Kept in one place because every source of damage or healing (a miss, an attack, a mythic roll, a
regeneration) must move players between alive, dying, dead and zombie the same way; what a loss does
to a status is the variant's (:meth:`engine.killer.variant.Variant.after_loss`).
"""

from __future__ import annotations

import dataclasses

from engine.game import Event
from engine.killer.events import TerminatorLevel
from engine.killer.state import KillerState


def lose(state: KillerState, player_id: str, amount: int) -> tuple[KillerState, list[Event]]:
    """Take ``amount`` PDV; the variant says what that does to the player's status."""
    player = state.player(player_id)
    hp = player.hp - amount
    status, events = state.variant.after_loss(state, player, hp)
    return state.replace_player(dataclasses.replace(player, hp=hp, status=status)), events


def gain(
    state: KillerState, player_id: str, amount: int, *, regeneration: bool
) -> tuple[KillerState, list[Event]]:
    """Add PDV. A regeneration from below 0 to 0 or more makes a Terminator one level up (K5-T1).

    The status of a dying player is settled at the end of the turn (K5-D1), not here.
    """
    player = state.player(player_id)
    hp = player.hp + amount
    level = player.terminator
    events: list[Event] = []
    if regeneration and state.rules.terminator and player.hp < 0 <= hp:
        level += 1
        events.append(TerminatorLevel(player_id, level))
    return state.replace_player(dataclasses.replace(player, hp=hp, terminator=level)), events
