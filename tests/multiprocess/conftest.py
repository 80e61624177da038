"""Fixtures of the multi-process tests: a fresh PostgreSQL database migrated by ``croupier migrate``, the
Discord emulator in the test process, and a launcher for bot processes that are always stopped.

Without a reachable PostgreSQL the tests skip (fail when CI is set): see ``postgres_server`` in
tests/conftest.py.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Store
from tests.conftest import PostgresServer
from tests.discord_emulator import DiscordEmulator
from tests.multiprocess.fleet import Fleet
from tests.multiprocess.processes import migrate

_numbers = itertools.count(1)


@pytest.fixture
async def database(postgres_server: PostgresServer, tmp_path: Path) -> str:
    """A new PostgreSQL database brought to the newest schema by the real ``croupier migrate``."""
    url = postgres_server.url(postgres_server.create(f"mp{next(_numbers)}"))
    await migrate(url, tmp_path)
    return url


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    """The test's own look into the database (reads, and a room's settings before its round)."""
    opened = await Store.open(database)
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
async def emu() -> AsyncIterator[DiscordEmulator]:
    async with DiscordEmulator() as emulator:
        yield emulator


@pytest.fixture
async def fleet(emu: DiscordEmulator, database: str, tmp_path: Path) -> AsyncIterator[Fleet]:
    async with contextlib.AsyncExitStack() as stack:
        started = Fleet(emu, database, tmp_path, stack)
        try:
            yield started
        finally:
            for bot in started.bots:
                bot.kill()
            for bot in started.bots:
                await bot.process.wait()
                # Shown by pytest only when the test failed ("Captured stdout teardown").
                print(f"----- {bot.name} (pid {bot.pid}, exit {bot.process.returncode}) -----")
                print(bot.tail(80))
