"""The pages through real outages, no monkeypatching: a SQLite file damaged on disk, a PostgreSQL
server that crashes (and comes back), and a fault that is not an outage at all. Each is an error
page — 503 with Retry-After for the database, 500 for the rest — ``no-store``, without details; the
log names the route, never the address with its secret token.

(A removed SQLite file is no outage to the connections that hold it open — the file lives on until
they close — so the damaged file is the SQLite case every connection sees.)"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import update

from bot.store import create_engine
from bot.store.migrate import upgrade
from bot.store.repositories import log_t
from bot.store.uow import POSTGRES_WORKERS
from bot.texts import render
from bot.web import make_app
from tests.faults.pgcluster import private_cluster
from tests.web.rooms import Room, durchgang

LANGUAGE = {"Accept-Language": "en-GB,en;q=0.8"}


def path_of(address: str) -> str:
    return "/t/" + address.split("/t/", 1)[1]


async def served(room: Room) -> tuple[TestClient, list[str]]:
    """The site over the room's store, and the addresses of its pages (index, tournament, game, live)."""
    await room.say(*durchgang(["anna", "ben"]))
    address = path_of(await room.web_on())
    client = TestClient(TestServer(make_app(room.console.croupier)))
    await client.start_server()
    pages = ["/", address, address + "/game/1", address + "/game/1/live.json"]
    for page in pages:
        assert (await client.get(page)).status == 200, page
    return client, pages


async def assert_error_pages(
    client: TestClient, pages: list[str], status: int, key: str, caplog: pytest.LogCaptureFixture
) -> None:
    token = pages[1].removeprefix("/t/")
    for page in pages:
        caplog.clear()
        response = await client.get(page, headers=LANGUAGE)
        assert response.status == status, page
        assert response.headers["Cache-Control"] == "no-store"
        body = await response.text()
        if page.endswith(".json"):
            expected = {503: "store_unavailable", 500: "internal"}[status]
            assert await response.json() == {"error": expected}
        else:
            assert render(f"web.{key}", {}, "en") in body
        if status == 503:
            assert response.headers["Retry-After"] == "30"
        for secret in ("Traceback", "sqlite", "malformed", "postgresql", "SELECT"):
            assert secret not in body
        logged = "\n".join(record.getMessage() for record in caplog.records)
        assert logged, page  # the operator hears of it …
        assert token not in logged  # … without the address
        if page != "/":
            assert "{token}" in logged


@pytest.fixture
async def sqlite_room(tmp_path: Path) -> AsyncIterator[Room]:
    room = await Room.open(f"sqlite:///{tmp_path / 'db' / 'croupier.sqlite3'}", serve=False)
    try:
        yield room
    finally:
        await room.close()


async def test_a_damaged_sqlite_file_is_a_503_page(
    sqlite_room: Room, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    client, pages = await served(sqlite_room)
    try:
        file = tmp_path / "db" / "croupier.sqlite3"
        with sqlite3.connect(file) as checkpoint:  # every page into the file, as after a quiet night
            checkpoint.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = file.stat().st_size
        assert size > 4096
        with file.open("r+b") as damaged:  # a disk fault: everything after the first page is garbage
            damaged.seek(4096)
            damaged.write(b"\xde\xad\xbe\xef" * ((size - 4096) // 4))
        caplog.set_level(logging.WARNING, logger="bot.web")
        await assert_error_pages(client, pages, 503, "error_unavailable", caplog)
        assert "database disk image is malformed" in caplog.text
    finally:
        await client.close()


async def test_a_crashed_postgresql_server_is_a_503_page_until_it_is_back(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with private_cluster() as cluster:
        url = cluster.create_database("croupier_web_outage")
        upgrade(url)
        room = await Room.open(url, serve=False)
        try:
            client, pages = await served(room)
            try:
                cluster.crash()
                caplog.set_level(logging.WARNING, logger="bot.web")
                await assert_error_pages(client, pages, 503, "error_unavailable", caplog)
                cluster.start()
                # Back: each worker's connection from before the crash is found dead once and replaced
                # (a read meeting one is read again), so every page answers within a few requests …
                for page in pages:
                    statuses = []
                    while 200 not in statuses and len(statuses) < 2 * POSTGRES_WORKERS:
                        statuses.append((await client.get(page)).status)
                    assert statuses[-1] == 200, (page, statuses)
                    assert set(statuses) <= {200, 503}, statuses
                for page in pages:  # … and then every time
                    assert (await client.get(page)).status == 200, page
            finally:
                await client.close()
        finally:
            await room.close()


async def test_a_fault_that_is_no_outage_is_a_500_page(
    room: Room, db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A logged die that is no number (written behind the croupier's back): the game's pages fail,
    the others still work."""
    client, pages = await served(room)
    try:
        engine = create_engine(db_url)
        try:
            with engine.begin() as connection:
                connection.execute(update(log_t).where(log_t.c.dice != []).values(dice=["x"]))
        finally:
            engine.dispose()
        caplog.set_level(logging.WARNING, logger="bot.web")
        await assert_error_pages(client, pages[2:], 500, "error_internal", caplog)
        assert "ValueError" in caplog.text
        assert (await client.get(pages[0])).status == 200
    finally:
        await client.close()
