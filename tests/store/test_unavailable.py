"""A database that cannot be reached surfaces as StoreUnavailable, never as a driver traceback."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy.engine import make_url

from bot.store import Store, StoreUnavailable

POSTGRES_ONLY = pytest.mark.parametrize(
    "db_backend", [pytest.param("postgresql", marks=pytest.mark.postgres)], indirect=True
)


async def test_a_unit_of_work_on_an_unreachable_server_is_store_unavailable() -> None:
    store = await Store.open("postgresql://croupier:hunter2@127.0.0.1:1/croupier", check=False)
    try:
        with pytest.raises(StoreUnavailable) as caught, store.transaction():
            pass
    finally:
        await store.close()
    assert "postgresql://croupier:***@127.0.0.1:1/croupier" in str(caught.value)
    assert "hunter2" not in str(caught.value)
    assert store.url == "postgresql://croupier:***@127.0.0.1:1/croupier"


@POSTGRES_ONLY
async def test_a_connection_cut_mid_command_is_store_unavailable_and_the_store_recovers(
    store: Store, db_url: str, postgres_server: Any
) -> None:
    database = make_url(db_url).database
    with store.transaction() as uow:
        assert uow.tournaments.current("chan") is None
        assert postgres_server.disconnect_clients(database) >= 1
        with pytest.raises(StoreUnavailable) as caught:
            uow.tournaments.current("chan")
    assert db_url in str(caught.value)
    # A later command gets a fresh connection (the pool checks them before use).
    with store.transaction() as uow:
        assert uow.tournaments.list("chan") == ()
