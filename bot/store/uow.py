"""The store and its unit of work: one transaction per command, rolled back unless committed.

store = await Store.open(url)          # refuses a database whose schema is not current
async with store.unit_of_work() as uow:
    game = await uow.games.open_in(channel)
    ...
    await uow.games.save(game.id, game.version, ...)
    await uow.log.append(message_id, ...)
    await uow.commit()                 # leave without it and everything above is undone
"""

from __future__ import annotations

import contextlib
from types import TracebackType
from typing import Self

from sqlalchemy.engine import URL
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.store.db import SQLITE_BEGIN, async_url, connect, create_engine, mask_url, reachable
from bot.store.migrate import check_schema
from bot.store.records import ChannelDefaults
from bot.store.repositories import (
    Channels,
    ChannelSettingsRepository,
    CommandLog,
    Games,
    Tournaments,
    Transaction,
)


class UnitOfWork:
    """One transaction and the repositories working in it.

    ``log``, ``tournaments``, ``games``, ``settings`` and ``channels`` all share the transaction; nothing they
    write is kept unless :meth:`commit` is awaited before the block ends. On SQLite the write lock is
    taken when the block starts (``read_only=True`` defers it until a first write).
    """

    log: CommandLog
    tournaments: Tournaments
    games: Games
    settings: ChannelSettingsRepository
    channels: Channels

    def __init__(
        self, engine: AsyncEngine, url: str | URL, defaults: ChannelDefaults, read_only: bool
    ) -> None:
        self._engine = engine
        self._url = url
        self._defaults = defaults
        self._read_only = read_only
        self._connection: AsyncConnection | None = None

    async def __aenter__(self) -> Self:
        options = {SQLITE_BEGIN: "DEFERRED" if self._read_only else "IMMEDIATE"}
        connection = await connect(self._engine, self._url, **options)
        try:
            async with reachable(self._url):
                await connection.begin()
        except BaseException:
            await connection.close()
            raise
        self._connection = connection
        tx = Transaction(connection, self._url)
        self.log = CommandLog(tx)
        self.tournaments = Tournaments(tx)
        self.games = Games(tx)
        self.settings = ChannelSettingsRepository(tx, self._defaults)
        self.channels = Channels(tx, self.games, self._defaults)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        connection = self._connection
        self._connection = None
        if connection is None:
            return
        try:
            if connection.in_transaction():
                if exc_type is None:
                    async with reachable(self._url):
                        await connection.rollback()
                else:
                    # The block's own error is the one worth seeing; a failed rollback adds nothing.
                    with contextlib.suppress(Exception):
                        await connection.rollback()
        finally:
            await connection.close()

    async def commit(self) -> None:
        """Make everything written so far durable; the unit of work may go on in a new transaction."""
        async with reachable(self._url):
            await self._live().commit()

    async def rollback(self) -> None:
        async with reachable(self._url):
            await self._live().rollback()

    def _live(self) -> AsyncConnection:
        if self._connection is None:
            raise RuntimeError("the unit of work is not open: use `async with store.unit_of_work() as uow`")
        return self._connection


class Store:
    """The database behind the bot, opened from a URL (SQLite file or PostgreSQL)."""

    def __init__(self, engine: AsyncEngine, url: str | URL, defaults: ChannelDefaults | None = None) -> None:
        self.engine = engine
        self._url = url
        self.defaults = defaults if defaults is not None else ChannelDefaults()

    @classmethod
    async def open(
        cls, url: str | URL, *, defaults: ChannelDefaults | None = None, check: bool = True
    ) -> Store:
        """Connect and check the schema (a new SQLite file is migrated on the spot).

        Raises :class:`StoreUnavailable` when the database cannot be reached and
        :class:`SchemaNotCurrent` when it needs ``croupier migrate`` first.
        """
        engine = create_engine(url)
        try:
            if check:
                await check_schema(engine, url)
        except BaseException:
            await engine.dispose()
            raise
        return cls(engine, url, defaults)

    @property
    def url(self) -> str:
        """The database URL with any password masked (for logs and messages)."""
        return mask_url(self._url)

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return async_url(self._url).get_backend_name()

    def unit_of_work(self, *, read_only: bool = False) -> UnitOfWork:
        return UnitOfWork(self.engine, self._url, self.defaults, read_only)

    async def close(self) -> None:
        await self.engine.dispose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()
