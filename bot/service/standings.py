"""From stored games to the table people see: the tournament standings."""

from __future__ import annotations

from collections.abc import Sequence

from bot.exports import StandingsNote, StandingsRow, StandingsTable
from bot.games import GAMES
from bot.shown_names import distinguished
from bot.store import Correction, GameRecord, Tournament
from bot.store.repositories.corrections import adjustments, barred
from bot.texts import DEFAULT
from engine.standings import standings


def standings_of(
    tournament: Tournament,
    closed: Sequence[GameRecord],
    corrections: Sequence[Correction] = (),
    language: str = DEFAULT,
) -> StandingsTable:
    """The tournament table over its closed games of ranked kinds (Killer games have no table).

    The tournament's corrections count too (:mod:`bot.service.corrections`): points adjustments are added to
    the totals and listed as notes, one line each; disqualified players are out of the ranking — their
    results are left out before places are given — and listed under it with the reason.
    """
    rounds = [game for game in closed if game.kind in GAMES and GAMES[game.kind].ranked]
    out = barred(corrections)
    names: dict[str, str] = {c.player: c.player_name for c in corrections if c.player and c.player_name}
    results = []
    for record in rounds:
        game = GAMES[record.kind]
        found = game.results(game.load(record.snapshot))
        results.append({player: result for player, result in found.items() if player not in out})
        names.update({p.player: p.name for p in record.participants})
    adjusted = {player: points for player, points in adjustments(corrections).items() if player not in out}
    rows = standings(results, tournament.scoring, names, adjusted)
    adjusting = [
        c for c in corrections if c.kind == "adjust" and c.player is not None and c.player not in out
    ]
    # As readers see them: the ranked in rank order, then those the notes name; look-alikes told apart.
    order = dict.fromkeys([*(row.player for row in rows), *(str(c.player) for c in adjusting), *out])
    shown = distinguished({player: names.get(player, player) for player in order})
    notes = [
        StandingsNote("adjust", str(c.player), shown[str(c.player)], c.reason, c.points) for c in adjusting
    ]
    notes += [StandingsNote("disqualified", player, shown[player], c.reason) for player, c in out.items()]
    return StandingsTable(
        tournament=tournament.name,
        scoring=tournament.scoring,
        durchgaenge=tuple(game.number for game in rounds),
        rows=tuple(
            StandingsRow(
                rank=row.rank,
                player=row.player,
                name=shown[row.player],
                points=row.points,
                total=row.total,
                best=row.best if row.played else None,
                zombies=row.zombies,
                adjustment=row.adjustment,
            )
            for row in rows
        ),
        notes=tuple(notes),
        language=language,
    )
