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
    # A later command gets a fresh connection (the cut one was thrown away when it failed).
    with store.transaction() as uow:
        assert uow.tournaments.list("chan") == ()


@POSTGRES_ONLY
async def test_a_worker_whose_connection_the_server_dropped_reconnects(
    store: Store, db_url: str, postgres_server: Any
) -> None:
    database = make_url(db_url).database
    await store.run(lambda uow: uow.tournaments.current("chan"))  # every worker thread may hold one
    assert postgres_server.disconnect_clients(database) >= 1
    failures: list[StoreUnavailable] = []
    for _ in range(store.workers.connections + 1):
        try:
            assert await store.run(lambda uow: uow.tournaments.list("chan")) == ()
        except StoreUnavailable as error:
            failures.append(error)
    assert len(failures) <= 1  # the pool is invalidated at the first failure; the rest reconnect
    assert all(error.retryable for error in failures)  # a dropped connection: a fresh one may work
    assert await store.run(lambda uow: uow.tournaments.list("chan")) == ()


@POSTGRES_ONLY
async def test_the_service_retries_a_command_that_met_a_dropped_connection(
    store: Store, db_url: str, postgres_server: Any
) -> None:
    from bot.service.croupier import Croupier
    from tests.service.helpers import Table

    table = Table(Croupier(store=store))
    assert (await table.open()).ok
    assert postgres_server.disconnect_clients(make_url(db_url).database) >= 1
    joined = await table.say("anna", "weiter")  # refused (not signed up), but answered, not "try again"
    assert joined.error_code == "join_first"


async def test_workers_keep_their_connections_until_recycled(store: Store) -> None:
    def connection_of(uow: Any) -> Any:
        return uow._connection  # the test holds on to them, so no later object can take their ids

    before = [await store.run(connection_of) for _ in range(3 * store.workers.connections)]
    assert len({id(c) for c in before}) <= store.workers.connections  # kept between units of work
    store.recycle()
    after = [await store.run(connection_of) for _ in range(3 * store.workers.connections)]
    assert not {id(c) for c in after} & {id(c) for c in before}
