"""``uow.bot_state``: a fact kept between starts is read back, overwritten, and only kept when committed
(SQLite and PostgreSQL)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.store import Store

NOW = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


async def test_a_fact_is_kept_and_overwritten(store: Store) -> None:
    with store.transaction() as uow:
        assert uow.bot_state.get("slash:1:global") is None
        uow.bot_state.put("slash:1:global", "aaa", NOW)
        uow.commit()
    with store.transaction() as uow:
        uow.bot_state.put("slash:1:global", "bbb", NOW)
        uow.bot_state.put("slash:1:guild:7", "ccc", NOW)
        uow.commit()
    with store.transaction(read_only=True) as uow:
        assert uow.bot_state.get("slash:1:global") == "bbb"
        assert uow.bot_state.get("slash:1:guild:7") == "ccc"


async def test_an_uncommitted_fact_is_not_kept(store: Store) -> None:
    with store.transaction() as uow:
        uow.bot_state.put("k", "v", NOW)
    with store.transaction(read_only=True) as uow:
        assert uow.bot_state.get("k") is None


async def test_bad_keys_and_naive_instants_are_refused(store: Store) -> None:
    with store.transaction() as uow:
        with pytest.raises(ValueError, match="1 to 100"):
            uow.bot_state.put("", "v", NOW)
        with pytest.raises(ValueError, match="1 to 100"):
            uow.bot_state.put("k" * 101, "v", NOW)
        with pytest.raises(ValueError, match="timezone-aware"):
            uow.bot_state.put("k", "v", datetime(2026, 12, 1))
