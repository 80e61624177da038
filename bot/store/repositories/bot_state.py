"""``uow.bot_state``: small facts the bot keeps between starts, by key (table ``bot_state``, migration
0006_discord_forum). The Discord client keeps the hash of the slash commands it registered there, so
a restart registers them again only when they changed."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from bot.store.models import bot_state_t
from bot.store.repositories.transaction import Transaction, check_instant

KEY_MAX = 100  # the column's length


class BotState:
    """``uow.bot_state``: read and overwrite one fact at a time."""

    def __init__(self, tx: Transaction) -> None:
        self._tx = tx

    def get(self, key: str) -> str | None:
        """The value kept under ``key``; None when nothing is."""
        statement = select(bot_state_t.c.value).where(bot_state_t.c.key == key)
        value: str | None = self._tx.execute(statement).scalar_one_or_none()
        return value

    def put(self, key: str, value: str, now: datetime) -> None:
        """Keep ``value`` under ``key``, replacing what was there."""
        if not key or len(key) > KEY_MAX:
            raise ValueError(f"a bot state key has 1 to {KEY_MAX} characters, not {len(key)}")
        check_instant("now", now)
        make_insert = postgresql_insert if self._tx.dialect == "postgresql" else sqlite_insert
        statement = make_insert(bot_state_t).values(key=key, value=value, updated_at=now)
        statement = statement.on_conflict_do_update(
            index_elements=[bot_state_t.c.key],
            set_={"value": statement.excluded.value, "updated_at": statement.excluded.updated_at},
        )
        self._tx.execute(statement)
