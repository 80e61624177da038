"""Fixtures of the web tests: a console room over ``db_url`` and an aiohttp test client of the site."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.web import make_app
from tests.web.rooms import Room


@pytest.fixture
async def room(db_url: str) -> AsyncIterator[Room]:
    """The console channel on ``db_url`` (no site of its own: see ``client``)."""
    opened = await Room.open(db_url, serve=False)
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
async def client(room: Room) -> AsyncIterator[TestClient]:
    """The site the room's croupier answers, through aiohttp's test client."""
    test_client = TestClient(TestServer(make_app(room.console.croupier)))
    await test_client.start_server()
    try:
        yield test_client
    finally:
        await test_client.close()
