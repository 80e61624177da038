"""The mapped tables as Core tables, and what several repositories share about them."""

from __future__ import annotations

from functools import cache
from typing import Any, cast

from sqlalchemy import (
    JSON,
    ColumnElement,
    Select,
    Table,
    func,
    literal_column,
    select,
)

from bot.store.models import (
    ChannelReadRow,
    ChannelSettingsRow,
    CommandLogRow,
    CorrectionRow,
    GameRow,
    ParticipantRow,
    TournamentRow,
)

tournaments_t = cast(Table, TournamentRow.__table__)
games_t = cast(Table, GameRow.__table__)
participants_t = cast(Table, ParticipantRow.__table__)
log_t = cast(Table, CommandLogRow.__table__)
settings_t = cast(Table, ChannelSettingsRow.__table__)
corrections_t = cast(Table, CorrectionRow.__table__)
reads_t = cast(Table, ChannelReadRow.__table__)

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
