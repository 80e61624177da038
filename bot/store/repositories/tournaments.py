"""``uow.tournaments``: the series of games played in a channel."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    Row,
    bindparam,
    insert,
    select,
)

from bot.store.models import (
    SCORINGS,
)
from bot.store.records import (
    Tournament,
)
from bot.store.repositories.prepared import Prepared
from bot.store.repositories.tables import tournaments_t
from bot.store.repositories.transaction import Transaction, check_instant

# Prepared once: every opening of a game asks it (see .prepared).
_CURRENT = Prepared(
    select(tournaments_t)
    .where(tournaments_t.c.channel == bindparam("b_channel"))
    .order_by(tournaments_t.c.id.desc())
    .limit(1),
    name="TournamentRow",
)


class Tournaments:
    """``uow.tournaments``: the series of games played in a channel."""

    def __init__(self, tx: Transaction) -> None:
        self._tx = tx

    def create(self, guild: str, channel: str, name: str, scoring: str, now: datetime) -> Tournament:
        if scoring not in SCORINGS:
            raise ValueError(f"scoring must be one of {', '.join(SCORINGS)}, not {scoring!r}")
        check_instant("now", now)
        result = self._tx.execute(
            insert(tournaments_t)
            .values(guild=guild, channel=channel, name=name, scoring=scoring, created_at=now)
            .returning(*tournaments_t.c)
        )
        return _tournament(result.one())

    def get(self, tournament_id: int) -> Tournament | None:
        result = self._tx.execute(select(tournaments_t).where(tournaments_t.c.id == tournament_id))
        row = result.first()
        return None if row is None else _tournament(row)

    def current(self, channel: str) -> Tournament | None:
        """The channel's newest tournament: the one new games join."""
        row = self._tx.run(_CURRENT, {"b_channel": channel}).first()
        return None if row is None else _tournament(row)

    def named(self, name: str) -> tuple[Tournament, ...]:
        """Tournaments by name, case and surrounding blanks ignored, oldest first."""
        wanted = " ".join(name.split()).casefold()
        result = self._tx.execute(select(tournaments_t).order_by(tournaments_t.c.id))
        return tuple(t for t in map(_tournament, result) if " ".join(t.name.split()).casefold() == wanted)

    def list(self, channel: str) -> tuple[Tournament, ...]:
        """The channel's tournaments, oldest first."""
        result = self._tx.execute(
            select(tournaments_t).where(tournaments_t.c.channel == channel).order_by(tournaments_t.c.id)
        )
        return tuple(_tournament(row) for row in result)


def _tournament(row: Row[Any]) -> Tournament:
    return Tournament(
        id=row.id,
        guild=row.guild,
        channel=row.channel,
        name=row.name,
        scoring=row.scoring,
        created_at=row.created_at,
    )
