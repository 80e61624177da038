"""Before the first die: joining, leaving, reordering, and the start that makes the setup rolls due."""

from __future__ import annotations

import dataclasses

from engine.commands import fold
from engine.errors import IllegalCommand, InvalidCommand
from engine.killer import events as ev
from engine.killer.flow import Result, begin_setup
from engine.killer.state import KillerState, Player

MIN_PLAYERS = 2


def _open_signup(state: KillerState) -> None:
    if state.over:
        raise IllegalCommand("killer_over")
    if state.started:
        raise IllegalCommand("killer_already_started")


def join(state: KillerState, actor: str, name: str) -> Result:
    _open_signup(state)
    name = name.strip()
    if not name or not fold(name.lstrip("@")):
        raise InvalidCommand("killer_empty_name")
    if state.has(actor):
        raise IllegalCommand("killer_already_joined", player=actor)
    folded = fold(name)
    for player in state.players:
        if folded in (fold(player.name), fold(player.id)):
            raise IllegalCommand("killer_name_taken", name=name)
    state = dataclasses.replace(state, players=(*state.players, Player(actor, name)))
    return state, [ev.Joined(actor, name)]


def leave(state: KillerState, actor: str) -> Result:
    if state.started or state.over:
        raise IllegalCommand("killer_leave_started")
    if not state.has(actor):
        raise IllegalCommand("killer_not_a_player", player=actor)
    players = tuple(p for p in state.players if p.id != actor)
    return dataclasses.replace(state, players=players), [ev.Left(actor)]


def move_to_end(state: KillerState, player_id: str) -> Result:
    """A moderator's Skip: only the sign-up order can change; the turn order is fixed (K5-S1, K6-S1)."""
    if state.started or state.over:
        raise IllegalCommand("killer_fixed_order")
    moved = state.player(player_id)
    players = (*(p for p in state.players if p.id != player_id), moved)
    return dataclasses.replace(state, players=players), [ev.MovedToEnd(player_id)]


def drop(state: KillerState, player_id: str) -> Result:
    """A moderator's Remove before the start: the sign-up is simply struck out."""
    players = tuple(p for p in state.players if p.id != player_id)
    return dataclasses.replace(state, players=players), [ev.Removed(player_id, 0)]


def start(state: KillerState) -> Result:
    """End the sign-up; the first setup roll is then due (made by the caller's settle)."""
    _open_signup(state)
    if len(state.players) < MIN_PLAYERS:
        raise IllegalCommand("killer_not_enough_players", count=len(state.players), minimum=MIN_PLAYERS)
    first = state.variant.started(tuple(p.id for p in state.players), state.rules)
    state, more = begin_setup(dataclasses.replace(state, started=True))
    return state, [first, *more]
