"""The tournament table across finished games of a ranked game (V6-R7, a reading).

Two scorings:

* ``sum`` (default): a player's score is the sum of their results.
* ``placement``: each game awards placement points by rank among those who played —
  10, 8, 6, 5, 4, 3, 2, 1 for places 1–8, then 0; players with equal results share the better place
  (two tied firsts both get 10, the next is third and gets 6); not playing gives 0.

Ties on the score are broken by the best single result, then by fewer busts (Zombies); players still
level share the rank and are listed by name.

A moderator's points adjustments (penalties and bonuses, in the scoring's unit) are added to the
score before ranking; a player with an adjustment but no result yet is ranked too.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from engine.errors import InvalidCommand
from engine.game import Result

SUM = "sum"
PLACEMENT = "placement"
SCORINGS = (SUM, PLACEMENT)
PLACEMENT_POINTS = (10, 8, 6, 5, 4, 3, 2, 1)


@dataclasses.dataclass(frozen=True)
class Row:
    rank: int
    player: str
    points: tuple[int | None, ...]  # per game, in the scoring's unit; None where absent
    total: int
    best: int
    zombies: int
    played: int
    adjustment: int = 0  # the moderators' adjustments, already counted in ``total``


Round = Mapping[str, Result]


def standings(
    rounds: Sequence[Round],
    scoring: str = SUM,
    names: Mapping[str, str] | None = None,
    adjustments: Mapping[str, int] | None = None,
) -> list[Row]:
    """The table over ``rounds`` (oldest first); ``names`` (id → display name) orders level players;
    ``adjustments`` (id → points) are added to the totals."""
    if scoring not in SCORINGS:
        raise InvalidCommand("unknown_scoring", scoring=scoring, valid=list(SCORINGS))
    parsed = list(rounds)
    scored = [
        _placements(r) if scoring == PLACEMENT else {p: res.points for p, res in r.items()} for r in parsed
    ]
    adjusted = adjustments or {}
    players = list(dict.fromkeys([*(p for r in parsed for p in r), *adjusted]))
    rows: list[Row] = []
    for player in players:
        points = tuple(s.get(player) for s in scored)
        played = [s[player] for s, r in zip(scored, parsed, strict=True) if player in r and r[player].played]
        rows.append(
            Row(
                rank=0,
                player=player,
                points=points,
                total=sum(p for p in points if p is not None) + adjusted.get(player, 0),
                best=max(played, default=0),
                zombies=sum(1 for r in parsed if player in r and r[player].busted),
                played=len(played),
                adjustment=adjusted.get(player, 0),
            )
        )
    label = names or {}
    rows.sort(
        key=lambda row: (-row.total, -row.best, row.zombies, label.get(row.player, row.player).casefold())
    )
    ranked: list[Row] = []
    for position, row in enumerate(rows, start=1):
        previous = ranked[-1] if ranked else None
        level = previous is not None and _level(previous) == _level(row)
        ranked.append(dataclasses.replace(row, rank=previous.rank if level and previous else position))
    return ranked


def _level(row: Row) -> tuple[int, int, int]:
    return (row.total, row.best, row.zombies)


def _placements(results: Mapping[str, Result]) -> dict[str, int]:
    """Placement points of one game (see the module docstring)."""
    ranked = sorted((p for p, r in results.items() if r.played), key=lambda p: -results[p].points)
    awarded = dict.fromkeys(results, 0)
    place = 0
    for index, player in enumerate(ranked):
        if index == 0 or results[player].points != results[ranked[index - 1]].points:
            place = index + 1
        awarded[player] = PLACEMENT_POINTS[place - 1] if place <= len(PLACEMENT_POINTS) else 0
    return awarded
