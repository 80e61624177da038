"""From stored games to the tables people see: tournament standings and the joker overview."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.exports import StandingsRow, StandingsTable
from bot.store import GameRecord, Tournament
from engine.verflixte6 import GAME as VERFLIXTE6
from engine.verflixte6.jokers.registry import DEFAULT_ENABLED, NAMES
from engine.verflixte6.standings import standings

_RESULT_ROLES = frozenset({"prinzessin", "zombie", "did_not_play"})


def standings_of(tournament: Tournament, closed: Sequence[GameRecord]) -> StandingsTable:
    """The tournament table over its closed "Die verflixte 6!" Durchgänge (Killer games have no table)."""
    rounds = [game for game in closed if game.kind == VERFLIXTE6.name]
    names: dict[str, str] = {}
    results = []
    for game in rounds:
        results.append({p.player: (p.points, p.role) for p in game.participants if p.role in _RESULT_ROLES})
        names.update({p.player: p.name for p in game.participants})
    rows = standings(results, tournament.scoring, names)
    return StandingsTable(
        tournament=tournament.name,
        scoring=tournament.scoring,
        durchgaenge=tuple(game.number for game in rounds),
        rows=tuple(
            StandingsRow(
                rank=row.rank,
                player=row.player,
                name=names.get(row.player, row.player),
                points=row.points,
                total=row.total,
                best=row.best if row.played else None,
                zombies=row.zombies,
            )
            for row in rows
        ),
    )


def joker_names(state: Any) -> tuple[str, ...]:
    """The jokers enabled in an open Durchgang."""
    return tuple(state.options.jokers)


def joker_keys(enabled: Sequence[str] | None) -> tuple[str, ...]:
    """Catalogue keys of the joker descriptions to show, in registry order."""
    shown = NAMES if enabled is None else tuple(name for name in NAMES if name in enabled)
    if enabled is None:
        shown = tuple(name for name in shown if name in DEFAULT_ENABLED)
    return shown
