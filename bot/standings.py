"""From stored games to the tables people see: tournament standings and the joker overview."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.exports import StandingsRow, StandingsTable
from bot.games import GAMES
from bot.store import GameRecord, Tournament
from engine.standings import standings
from engine.verflixte6.jokers.registry import DEFAULT_ENABLED, NAMES


def standings_of(tournament: Tournament, closed: Sequence[GameRecord]) -> StandingsTable:
    """The tournament table over its closed games of ranked kinds (Killer games have no table)."""
    rounds = [game for game in closed if game.kind in GAMES and GAMES[game.kind].ranked]
    names: dict[str, str] = {}
    results = []
    for record in rounds:
        game = GAMES[record.kind]
        results.append(game.results(game.load(record.snapshot)))
        names.update({p.player: p.name for p in record.participants})
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
