"""The tables, and what several repositories share about them."""

from __future__ import annotations

from functools import cache
from typing import Any

from sqlalchemy import (
    JSON,
    ColumnElement,
    Select,
    func,
    literal_column,
    select,
)

from bot.store.models import (
    corrections_t,
    games_t,
    log_t,
    participants_t,
    reads_t,
    settings_t,
    tournaments_t,
)

__all__ = [
    "corrections_t",
    "games_t",
    "log_t",
    "participants_t",
    "reads_t",
    "settings_t",
    "tournaments_t",
]

SETTING_FIELDS = ("language", "moderator_role", "turn_timeout_seconds", "threads")
PARTICIPANT_FIELDS = ("player", "name", "position", "role", "points")
IS_OPEN = games_t.c.status == literal_column("'open'")  # a literal, so the partial index applies


@cache
def select_games(dialect: str) -> Select[Any]:
    """Games with their participants folded into one JSON column: one query loads a whole game."""
    seat = [participants_t.c[field] for field in PARTICIPANT_FIELDS]
    if dialect == "postgresql":
        folded: ColumnElement[Any] = func.json_agg(func.json_build_array(*seat), type_=JSON)
    else:
        folded = func.json_group_array(func.json_array(*seat), type_=JSON)
    seats = (
        select(folded)
        .where(participants_t.c.game_id == games_t.c.id)
        .correlate(games_t)
        .scalar_subquery()
        .label("seats")
    )
    return select(games_t, seats)
