"""Changes of PDV and what they do to a player's status, for both rule texts.

Kept in one place because every source of damage or healing (a miss, an attack, a mythic roll, a
regeneration) must move players between alive, dying, dead and zombie the same way.
"""

from __future__ import annotations

import dataclasses

from engine.game import Event
from engine.killer.events import Dying, Eliminated, TerminatorLevel, TurnedToDust
from engine.killer.state import KillerState, Player


def lose(state: KillerState, player_id: str, amount: int) -> tuple[KillerState, list[Event]]:
    """Take ``amount`` PDV; below 0 a living player is dying (K5-D1) or out (K6-E1); a zombie at 0
    or less is dust again (K5-Z1)."""
    player = state.player(player_id)
    hp = player.hp - amount
    status = player.status
    events: list[Event] = []
    if state.rules.classic:
        if status == "alive" and hp < 0:
            status = "dead"
            events.append(Eliminated(player_id, hp))
    elif status == "alive" and hp < 0:
        status = "dying"
        events.append(Dying(player_id, hp))
    elif status == "zombie" and hp <= 0:
        status = "dead"
        events.append(TurnedToDust(player_id, hp))
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


def immune(player: Player, value: int) -> bool:
    """A Terminator of level k shrugs off attacks of 1 … k, never a 6 (K5-T1)."""
    return value < 6 and value <= player.terminator
