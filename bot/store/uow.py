"""The store and its unit of work: one transaction per command, rolled back unless committed.

A unit of work is synchronous SQLAlchemy Core on one connection. The service hands a whole unit of
work — read, decide, write, commit — to the store as ONE function, which runs in a worker thread::

    reply = await store.run(lambda uow: move(uow, ...))           # one hand-off, one transaction

    def move(uow: UnitOfWork) -> Reply:
        state = uow.channels.state(guild, channel)
        ...
        uow.games.save_and_log(save, entry)
        uow.commit()                      # leave without it and everything above is undone
        return reply

so a command costs one hand-off between the event loop and a thread instead of one per statement.
On SQLite, which has one writer anyway, writing units of work run one after another on a single
writer thread, in the order they were handed over — those waiting together in one transaction with
one commit, each in a savepoint (:mod:`bot.store.group`); readers run beside it. On PostgreSQL a small pool
of threads runs them, again first come, first served. Tests and tools may also open a unit of work
in their own thread with ``with store.transaction() as uow:``.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager, suppress
from typing import Any, Generic, Self, TypeVar, overload

from sqlalchemy import Connection, Engine
from sqlalchemy.engine import URL

from bot.observability.metrics import COMMITS, READ_UNITS, WRITE_UNITS
from bot.store.db import SQLITE_BEGIN, connect, create_engine, mask_url, reachable, store_url, unobserved
from bot.store.errors import StoreUnavailable
from bot.store.group import GROUP_MAX, Outcome, Savepoint, commit_together
from bot.store.lanes import Batch, Lane
from bot.store.marks import Mark, Marker
from bot.store.migrate import check_schema
from bot.store.records import ChannelDefaults
from bot.store.repositories import (
    BotState,
    Channels,
    ChannelSettingsRepository,
    CommandLog,
    Corrections,
    Deliveries,
    Forum,
    Games,
    Tournaments,
    Transaction,
    WebPages,
)

T = TypeVar("T")
R = TypeVar("R")

# How long a unit of work may wait for its turn before the store counts as unavailable.
ADMISSION_TIMEOUT_S = 30.0
SQLITE_READERS = 4  # reader threads beside SQLite's one writer
POSTGRES_WORKERS = 5  # threads (and pooled connections) for PostgreSQL
RECYCLE_S = 1800.0  # a worker's connection is replaced after this long (idle timeouts, server limits)


class _repository(Generic[R]):
    """``functools.cached_property`` without its lock (Python 3.11's takes one at every first use, and
    a unit of work is used by one thread): the repository is made on first use, then found in the
    unit of work's ``__dict__``."""

    def __init__(self, make: Callable[[UnitOfWork], R]) -> None:
        self._make = make
        self._name = make.__name__
        self.__doc__ = make.__doc__

    @overload
    def __get__(self, uow: None, owner: type[UnitOfWork]) -> Self: ...

    @overload
    def __get__(self, uow: UnitOfWork, owner: type[UnitOfWork]) -> R: ...

    def __get__(self, uow: UnitOfWork | None, owner: type[UnitOfWork]) -> R | Self:
        if uow is None:
            return self
        made = uow.__dict__[self._name] = self._make(uow)
        return made


class UnitOfWork:
    """One transaction and the repositories working in it.

    ``log``, ``tournaments``, ``games``, ``settings``, ``channels``, ``corrections``, ``web``,
    ``bot_state``, ``delivery`` and ``forum`` all share the transaction; nothing they write is kept
    unless :meth:`commit` is called before the unit of work ends.
    """

    def __init__(
        self,
        connection: Connection,
        url: str | URL,
        defaults: ChannelDefaults,
        *,
        writing_sqlite: bool = False,
        savepoint: Savepoint | None = None,
        begin: str | None = None,
    ) -> None:
        self._connection = connection
        self._url = url
        self._defaults = defaults
        self._open = True
        self._tx = Transaction(
            connection,
            url,
            before_commit=self._committing,
            committed=self._count_commit,
            savepoint=savepoint,
            begin=begin,
        )
        self.commits = 0  # how many times this unit of work committed
        self._before_commit: list[Callable[[], None]] = []
        pooled = connection.connection
        self._marker = Marker(pooled.info, pooled.dbapi_connection, writing_sqlite)

    def unchanged_since(self, mark: Mark | None, scope: Hashable = None) -> bool:
        """Whether the database is exactly as a unit of work on this connection left it when it took
        ``mark`` (:meth:`mark`): nobody else committed since (in ``scope``, which this unit of work
        promises to write nothing outside of). Only SQLite's writers can tell; elsewhere always False
        (see :mod:`bot.store.marks`)."""
        return self._marker.unchanged_since(mark, scope)

    def mark(self) -> Mark | None:
        """After a commit: a mark of the database as it left it, for :meth:`unchanged_since` in a later
        unit of work; None unless this transaction asked :meth:`unchanged_since` before committing."""
        return self._marker.mark()

    # Repositories are made when first used: a command touches three or four of the ten.

    @_repository
    def log(self) -> CommandLog:
        return CommandLog(self._tx)

    @_repository
    def tournaments(self) -> Tournaments:
        return Tournaments(self._tx)

    @_repository
    def games(self) -> Games:
        return Games(self._tx)

    @_repository
    def settings(self) -> ChannelSettingsRepository:
        return ChannelSettingsRepository(self._tx, self._defaults)

    @_repository
    def channels(self) -> Channels:
        return Channels(self._tx, self.games, self._defaults)

    @_repository
    def corrections(self) -> Corrections:
        return Corrections(self._tx)

    @_repository
    def web(self) -> WebPages:
        """Web visibility and the pages' reads (bot/service/pages.py)."""
        return WebPages(self._tx, self.games)

    @_repository
    def bot_state(self) -> BotState:
        """Facts the bot keeps between starts (the slash commands' hash)."""
        return BotState(self._tx)

    @_repository
    def delivery(self) -> Deliveries:
        return Deliveries(self._tx)

    @_repository
    def forum(self) -> Forum:
        return Forum(self._tx)

    def before_commit(self, hook: Callable[[], None]) -> None:
        """Run ``hook`` (more writes) just before the next commit, in the same transaction: how small
        bookkeeping rides on a command's own transaction instead of costing one of its own."""
        self._before_commit.append(hook)

    def commit(self, *, durable: bool = True) -> None:
        """Make everything written so far durable; the unit of work may go on in a new transaction.
        (A repository's last write may carry the COMMIT itself: the same hooks run, the same count.)
        ``durable=False``: on PostgreSQL the commit does not wait for the server's flush to disk
        (``synchronous_commit`` off for this transaction alone) — for writes whose loss in a crash of
        the server costs only a check, as acknowledged deliveries (docs/reliability.md); SQLite
        commits as always."""
        if not durable and self._connection.dialect.name == "postgresql":
            with reachable(self._url):
                self._live().exec_driver_sql("SET LOCAL synchronous_commit TO OFF")
        self._live()
        self._tx.commit()

    def _committing(self) -> None:
        """Just before a commit: the hooks' writes, and the connection's commit counted — before it
        happens, so a commit that fails or whose outcome is unknown can only make marks miss."""
        if self._before_commit:
            hooks, self._before_commit = self._before_commit, []
            for hook in hooks:
                hook()
        self._marker.committing()

    def _count_commit(self) -> None:
        self.commits += 1
        COMMITS.inc()

    def schema_revision(self) -> str | None:
        """The schema revision the database is at (None: never migrated), for the readiness check."""
        from bot.store.migrate import revision_of

        with reachable(self._url):
            return revision_of(self._live())

    def rollback(self) -> None:
        self._live()
        self._tx.rollback()

    def end(self, failed: bool = False) -> None:
        """The unit of work is over: its transaction is ended unless it already was (quietly when
        ``failed``: the error that ended it is the one worth seeing)."""
        self._open = False
        self._tx.end(failed)

    def _live(self) -> Connection:
        if not self._open:
            raise RuntimeError("the unit of work is not open: use `with store.transaction() as uow`")
        return self._connection


class _Transaction:
    """``with store._on(connection) as uow:`` — a class rather than a ``contextmanager``: every unit of
    work enters one, and a generator's machinery cost more than what it does."""

    __slots__ = ("_connection", "_defaults", "_sqlite", "_uow", "_url")

    def __init__(
        self, connection: Connection, url: str | URL, defaults: ChannelDefaults, sqlite: bool
    ) -> None:
        self._connection = connection
        self._url = url
        self._defaults = defaults
        self._sqlite = sqlite

    def __enter__(self) -> UnitOfWork:
        connection = self._connection
        writing_sqlite = self._sqlite and connection.get_execution_options().get(SQLITE_BEGIN) != "DEFERRED"
        if self._sqlite and unobserved(connection):
            # Nobody listens: the transaction runs on the driver alone (see repositories.prepared.Driver)
            # — SQLAlchemy's begin and commit, with their events, cost more than SQLite's own.
            begin = "BEGIN IMMEDIATE" if writing_sqlite else "BEGIN DEFERRED"
            self._uow = UnitOfWork(
                connection, self._url, self._defaults, writing_sqlite=writing_sqlite, begin=begin
            )
            return self._uow
        with reachable(self._url):
            connection.begin()
        self._uow = UnitOfWork(connection, self._url, self._defaults, writing_sqlite=writing_sqlite)
        return self._uow

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, _tb: object) -> None:
        self._uow.end(error is not None)
        connection = self._connection
        if error is not None:
            # The block's own error is the one worth seeing; a failed rollback adds nothing.
            with suppress(Exception):
                connection.rollback()
        elif connection.in_transaction():
            with reachable(self._url):
                connection.rollback()


class Workers:
    """The threads units of work run on: SQLite's one writer and its readers, or PostgreSQL's pool.

    Each lane takes jobs first come, first served, so a unit of work that just finished and asks
    again queues behind those already waiting instead of barging in front of them.
    """

    def __init__(self, sqlite: bool, batch: Batch | None = None) -> None:
        if sqlite:  # its writer commits the units of work waiting together (see bot.store.group)
            self.writer = Lane(1, "croupier-writer", batch=batch, batch_max=GROUP_MAX)
            self.reader = Lane(SQLITE_READERS, "croupier-reader")
            self.connections = 1 + SQLITE_READERS
        else:
            self.writer = self.reader = Lane(POSTGRES_WORKERS, "croupier-db")
            self.connections = POSTGRES_WORKERS

    def for_(self, read_only: bool) -> Lane:
        return self.reader if read_only else self.writer

    def shutdown(self) -> None:
        for lane in {self.writer, self.reader}:
            lane.shutdown()


class Store:
    """The database behind the bot, opened from a URL (SQLite file or PostgreSQL)."""

    def __init__(self, engine: Engine, url: str | URL, defaults: ChannelDefaults | None = None) -> None:
        self.engine = engine
        self._url = url
        self.defaults = defaults if defaults is not None else ChannelDefaults()
        self._sqlite = self.dialect == "sqlite"
        self.workers = Workers(self._sqlite, self._run_group)
        self.admission_timeout = ADMISSION_TIMEOUT_S
        self._local = threading.local()  # each worker thread's own connection
        self._generation = 0
        self._held: list[Connection] = []
        self._held_lock = threading.Lock()

    @classmethod
    async def open(
        cls, url: str | URL, *, defaults: ChannelDefaults | None = None, check: bool = True
    ) -> Store:
        """Connect and check the schema (a new SQLite file is migrated on the spot).

        Raises :class:`StoreUnavailable` when the database cannot be reached and
        :class:`SchemaNotCurrent` when it needs ``croupier migrate`` first.
        """
        return await asyncio.to_thread(cls.open_now, url, defaults=defaults, check=check)

    @classmethod
    def open_now(
        cls, url: str | URL, *, defaults: ChannelDefaults | None = None, check: bool = True
    ) -> Store:
        """:meth:`open`, in the calling thread (for tools without an event loop)."""
        sqlite = store_url(url).get_backend_name() == "sqlite"
        engine = create_engine(url, pool_size=1 + SQLITE_READERS if sqlite else POSTGRES_WORKERS)
        try:
            if check:
                check_schema(engine, url)
        except BaseException:
            engine.dispose()
            raise
        return cls(engine, url, defaults)

    @property
    def url(self) -> str:
        """The database URL with any password masked (for logs and messages)."""
        return mask_url(self._url)

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return store_url(self._url).get_backend_name()

    # --- units of work ------------------------------------------------------------------------------

    @contextmanager
    def transaction(self, *, read_only: bool = False) -> Iterator[UnitOfWork]:
        """A unit of work in the calling thread; rolled back unless it commits.

        On SQLite a writing one holds the write lock from its start (``BEGIN IMMEDIATE``); a read-only
        one takes none.
        """
        connection = connect(self.engine, self._url, **self._begin_options(read_only))
        try:
            with self._on(connection) as uow:
                yield uow
        finally:
            connection.close()

    def _begin_options(self, read_only: bool) -> dict[str, str]:
        return {SQLITE_BEGIN: "DEFERRED" if read_only else "IMMEDIATE"} if self._sqlite else {}

    def _on(self, connection: Connection) -> _Transaction:
        """One transaction on ``connection``: begun here, rolled back here unless it committed."""
        return _Transaction(connection, self._url, self.defaults, self._sqlite)

    def _worker_connection(self, read_only: bool) -> Connection:
        """The connection the calling worker thread keeps from one unit of work to the next (checking
        one out of the pool for every command costs about as much as a statement). It is replaced
        when the server dropped it, after :data:`RECYCLE_S`, and after :meth:`recycle`."""
        held: Connection | None = getattr(self._local, "connection", None)
        if held is not None and (
            held.closed
            or held.invalidated
            or self._local.generation != self._generation
            or time.monotonic() - self._local.since > RECYCLE_S
        ):
            self._drop_worker_connection(held)
            held = None
        if held is None:
            held = connect(self.engine, self._url, **self._begin_options(read_only))
            self._local.connection = held
            self._local.generation = self._generation
            self._local.since = time.monotonic()
            with self._held_lock:
                self._held.append(held)
        return held

    def recycle(self) -> None:
        """Open fresh connections from now on (each worker replaces its own at its next unit of work),
        as the pool's recycling would: after a database file was moved or its permissions changed."""
        self._generation += 1
        self.engine.dispose()

    def _drop_worker_connection(self, connection: Connection) -> None:
        self._local.connection = None
        with self._held_lock:
            if connection in self._held:
                self._held.remove(connection)
        with suppress(Exception):
            connection.close()

    async def run(self, work: Callable[[UnitOfWork], T], *, read_only: bool = False) -> T:
        """Run ``work`` in one unit of work on a worker thread: one hand-off from the event loop.

        Units of work run in the order they were handed over (SQLite's writers one at a time). One
        that has not started within ``admission_timeout`` seconds is withdrawn and the store counts
        as unavailable; one already running is waited for to its end (it cannot be interrupted).
        (See :mod:`bot.store.lanes` for what a hand-off costs.)
        """

        def job() -> T:
            connection = self._worker_connection(read_only)
            try:
                with self._on(connection) as uow:
                    return work(uow)
            except BaseException:
                if connection.invalidated or connection.closed:
                    # The server dropped it, and with it (a restart) most likely every other worker's:
                    # each replaces its own at its next unit of work instead of failing on it first.
                    self._drop_worker_connection(connection)
                    self._generation += 1
                raise

        lane = self.workers.for_(read_only)
        handed = lane.submit(
            job, None if read_only else work, within=self.admission_timeout, overdue=self._overdue
        )
        (READ_UNITS if read_only else WRITE_UNITS).inc()
        try:
            return await handed.future
        except asyncio.CancelledError:
            lane.withdraw(handed)  # a cancelled wait gives its place back (a running one runs to its end)
            raise

    def _overdue(self) -> StoreUnavailable:
        """Why a unit of work not started within the admission timeout was withdrawn (it never runs)."""
        return StoreUnavailable(
            self.url,
            f"no connection came free within {self.admission_timeout:g} s",
            "the database is overloaded or a transaction hangs; retry in a moment",
        )

    def _run_group(self, works: list[Callable[[UnitOfWork], Any]]) -> list[Outcome]:
        """SQLite's writer: the units of work waiting, committed together (see :mod:`bot.store.group`)."""
        try:
            connection = self._worker_connection(False)
        except Exception as error:
            return [(None, error)] * len(works)

        def open_unit(savepoint: Savepoint) -> UnitOfWork:
            return UnitOfWork(connection, self._url, self.defaults, writing_sqlite=True, savepoint=savepoint)

        outcomes = commit_together(connection, self._url, works, open_unit)
        if connection.invalidated or connection.closed:
            self._drop_worker_connection(connection)
            self._generation += 1
        return outcomes

    async def close(self) -> None:
        await asyncio.to_thread(self.close_now)

    def close_now(self) -> None:
        self.workers.shutdown()
        with self._held_lock:
            held, self._held = self._held, []
        for connection in held:
            with suppress(Exception):
                connection.close()
        self.engine.dispose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()
