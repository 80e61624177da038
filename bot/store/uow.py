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

import asyncio
import contextlib
from types import TracebackType
from typing import Self

from sqlalchemy.engine import URL
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.store.db import (
    SQLITE_BEGIN,
    async_url,
    connect,
    create_engine,
    mask_url,
    pool_capacity,
    reachable,
)
from bot.store.errors import StoreUnavailable
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

# As long as the pool would wait for a connection: past it the store counts as unavailable.
ADMISSION_TIMEOUT_S = 30.0


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
        self,
        engine: AsyncEngine,
        url: str | URL,
        defaults: ChannelDefaults,
        read_only: bool,
        admission: Admission,
    ) -> None:
        self._engine = engine
        self._url = url
        self._defaults = defaults
        self._read_only = read_only
        self._admission = admission
        self._admitted: list[asyncio.Semaphore] = []
        self._connection: AsyncConnection | None = None

    async def __aenter__(self) -> Self:
        self._admitted = await self._admission.enter(writing=not self._read_only)
        try:
            options = {SQLITE_BEGIN: "DEFERRED" if self._read_only else "IMMEDIATE"}
            connection = await connect(self._engine, self._url, **options)
            try:
                async with reachable(self._url):
                    await connection.begin()
            except BaseException:
                await connection.close()
                raise
        except BaseException:
            self._admission.leave(self._admitted)
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
            try:
                await connection.close()
            finally:
                self._admission.leave(self._admitted)

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


class Admission:
    """First come, first served: units of work queue here, in order, before they touch the pool.

    Without it, a unit of work that just finished and starts the next one can take the connection a
    long-waiting one was woken for (the pool's queue lets newcomers barge), so under load some
    channels wait seconds while others never wait. On SQLite only one writer can hold the file, so
    writers also queue here, in order, instead of polling the lock in the busy handler.
    """

    def __init__(self, url: str | URL, connections: int, one_writer: bool, timeout: float) -> None:
        self._url = url
        self._connections = connections
        self._one_writer = one_writer
        self._timeout = timeout
        self._loop: asyncio.AbstractEventLoop | None = None
        self._gates: tuple[asyncio.Semaphore, asyncio.Semaphore] | None = None

    @property
    def capacity(self) -> int:
        """How many units of work may hold a connection at once (the pool's size plus overflow)."""
        return self._connections

    async def enter(self, *, writing: bool) -> list[asyncio.Semaphore]:
        """Wait for this unit of work's turn; the gates taken, for :meth:`leave`."""
        writers, connections = self._for_running_loop()
        wanted = [writers, connections] if writing and self._one_writer else [connections]
        taken: list[asyncio.Semaphore] = []
        try:
            async with asyncio.timeout(self._timeout):
                for gate in wanted:  # always in this order, so two units of work cannot wait on each other
                    await gate.acquire()
                    taken.append(gate)
        except TimeoutError:
            self.leave(taken)
            raise StoreUnavailable(
                mask_url(self._url),
                f"no connection came free within {self._timeout:g} s",
                "the database is overloaded or a transaction hangs; retry in a moment",
            ) from None
        except BaseException:
            self.leave(taken)
            raise
        return taken

    def leave(self, taken: list[asyncio.Semaphore]) -> None:
        for gate in reversed(taken):
            gate.release()
        taken.clear()

    def _for_running_loop(self) -> tuple[asyncio.Semaphore, asyncio.Semaphore]:
        # asyncio primitives belong to one event loop; a store reused under a new loop gets new ones.
        loop = asyncio.get_running_loop()
        if self._gates is None or self._loop is not loop:
            self._loop = loop
            self._gates = (asyncio.Semaphore(1), asyncio.Semaphore(self._connections))
        return self._gates


class Store:
    """The database behind the bot, opened from a URL (SQLite file or PostgreSQL)."""

    def __init__(self, engine: AsyncEngine, url: str | URL, defaults: ChannelDefaults | None = None) -> None:
        self.engine = engine
        self._url = url
        self.defaults = defaults if defaults is not None else ChannelDefaults()
        self.admission = Admission(
            url, pool_capacity(engine), one_writer=self.dialect == "sqlite", timeout=ADMISSION_TIMEOUT_S
        )

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
        return UnitOfWork(self.engine, self._url, self.defaults, read_only, self.admission)

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
