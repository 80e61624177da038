"""Engines for the two stores, and the translation of "cannot reach it" into one clear error.

SQLite is the embedded default; every connection is switched to WAL with ``synchronous=FULL`` (a
commit is on disk when it returns), foreign keys on and a busy timeout. The sqlite3 driver's own
transaction handling is turned off and SQLAlchemy emits ``BEGIN IMMEDIATE`` itself, so a unit of work
holds the write lock from its first statement: its reads and writes are one consistent transaction,
migrations are transactional, and two processes on one file serialise instead of failing half-way.

PostgreSQL runs on asyncpg with a small pool; a connection the server dropped is noticed at its first
statement (no ping before every unit of work) and reported as retryable.
"""

from __future__ import annotations

import re
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event, exc
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry

from bot.store.errors import BadDatabaseURL, StoreError, StoreUnavailable

SQLITE_BUSY_TIMEOUT_MS = 10_000
PG_CONNECT_TIMEOUT_S = 10
# Execution option naming how a SQLite transaction begins: "IMMEDIATE" (default) or "DEFERRED".
SQLITE_BEGIN = "croupier_sqlite_begin"

_POSTGRES_DRIVERS = {
    "postgres",
    "postgresql",
    "postgresql+asyncpg",
    "postgresql+psycopg",
    "postgresql+psycopg2",
    "postgresql+pg8000",
}
_SQLITE_DRIVERS = {"sqlite", "sqlite+pysqlite", "sqlite+aiosqlite"}
_PASSWORD = re.compile(r"(://[^:/@]*:)[^@]*(@)")


def async_url(url: str | URL) -> URL:
    """The async-driver form of a database URL.

    ``postgresql://…`` (or ``postgres://``, or a sync driver) becomes ``postgresql+asyncpg://…``;
    ``sqlite:///path`` becomes ``sqlite+aiosqlite:///path``; a bare file path is a SQLite file.
    """
    if isinstance(url, str):
        text = url.strip()
        if not text:
            raise BadDatabaseURL("the database URL is empty")
        if "://" not in text:
            return URL.create("sqlite+aiosqlite", database=text)
        try:
            parsed = make_url(text)
        except exc.ArgumentError as error:
            raise BadDatabaseURL(f"not a database URL: {mask_url(text)}") from error
    else:
        parsed = url
    driver = parsed.drivername.lower()
    if driver in _POSTGRES_DRIVERS:
        return parsed.set(drivername="postgresql+asyncpg")
    if driver in _SQLITE_DRIVERS:
        return parsed.set(drivername="sqlite+aiosqlite")
    raise BadDatabaseURL(
        f"unsupported database {parsed.drivername!r} in {mask_url(parsed)}: "
        "use postgresql://user:password@host/dbname or sqlite:///path/to/file.sqlite3"
    )


def mask_url(url: str | URL) -> str:
    """The URL as a user would recognise it, with any password replaced by ``***``."""
    if isinstance(url, URL):
        return url.render_as_string(hide_password=True)
    return _PASSWORD.sub(r"\1***\2", url)


def is_sqlite(url: URL) -> bool:
    return url.get_backend_name() == "sqlite"


def sqlite_file(url: URL) -> Path | None:
    """The file behind a SQLite URL; None for an in-memory or URI-style database."""
    database = url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)


def create_engine(url: str | URL, *, foreign_keys: bool = True, echo: bool = False) -> AsyncEngine:
    """An async engine for the URL (see :func:`async_url`); a SQLite file's folder is created.

    ``foreign_keys=False`` is for migrations only: SQLite's batch mode recreates tables, which
    must not cascade into their children.
    """
    target = async_url(url)
    if not is_sqlite(target):
        return create_async_engine(
            target,
            echo=echo,
            pool_size=5,
            max_overflow=10,
            # No ping before every unit of work (a BEGIN/ROLLBACK round trip each): a connection the
            # server dropped fails its first statement as a lost connection, the pool recycles them
            # all, and the service retries the unit of work once (see StoreUnavailable.retryable).
            pool_pre_ping=False,
            pool_recycle=1800,
            connect_args={
                "timeout": PG_CONNECT_TIMEOUT_S,
                "server_settings": {"application_name": "croupier"},
            },
        )
    path = sqlite_file(target)
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreUnavailable(
                mask_url(url),
                f"cannot create the folder {path.parent} ({error.strerror or error})",
                "check the path and its permissions",
            ) from error
    engine = create_async_engine(target, echo=echo)
    _configure_sqlite(engine, foreign_keys=foreign_keys)
    return engine


def pool_capacity(engine: AsyncEngine) -> int:
    """How many connections the engine's pool hands out at most (its size plus its overflow)."""
    pool = engine.pool
    size = getattr(pool, "size", None)
    overflow = getattr(pool, "_max_overflow", 0)
    if not callable(size):
        return 1  # a pool without a size (a static or single-connection pool) serves one at a time
    return max(1, int(size()) + max(0, int(overflow)))


def _configure_sqlite(engine: AsyncEngine, *, foreign_keys: bool) -> None:
    # busy_timeout first: switching a new file to WAL needs a lock another process may briefly hold.
    pragmas = (
        f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}",
        "PRAGMA journal_mode=WAL",
        "PRAGMA synchronous=FULL",
        f"PRAGMA foreign_keys={'ON' if foreign_keys else 'OFF'}",
    )

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
        # SQLAlchemy, not the driver, decides when a transaction begins (see the module docstring).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            for pragma in pragmas:
                cursor.execute(pragma)
        finally:
            cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(connection: Connection) -> None:
        mode = connection.get_execution_options().get(SQLITE_BEGIN, "IMMEDIATE")
        connection.exec_driver_sql("BEGIN DEFERRED" if mode == "DEFERRED" else "BEGIN IMMEDIATE")


# --- "cannot reach the database" -------------------------------------------------------------------

_SQLITE_UNAVAILABLE = (
    ("unable to open database file", "check that the path exists and is writable"),
    ("database is locked", "another process holds the database; retry, or stop the other process"),
    ("disk i/o error", "check the disk holding the database file"),
    ("readonly database", "the database file is read-only; check its permissions"),
    ("file is not a database", "the file is not a SQLite database; check the path"),
)


def unavailable(error: BaseException, url: str | URL) -> StoreUnavailable | None:
    """A :class:`StoreUnavailable` when ``error`` means the database cannot be reached or opened."""
    shown = mask_url(url)
    if isinstance(error, StoreError) or not isinstance(error, Exception):
        return None
    if isinstance(error, socket.gaierror):
        return StoreUnavailable(shown, f"unknown host ({error})", "check the host name in the URL")
    if isinstance(error, TimeoutError):
        return StoreUnavailable(
            shown, "the server did not answer in time", "check the host, port and any firewall in between"
        )
    if isinstance(error, ConnectionRefusedError):
        return StoreUnavailable(
            shown, f"connection refused ({error})", "is the database server running and listening there?"
        )
    if isinstance(error, OSError):
        return StoreUnavailable(shown, str(error) or type(error).__name__, "check the host, port and network")
    if not isinstance(error, exc.DBAPIError):
        return None
    orig = error.orig
    message = str(orig).strip().splitlines()[0] if str(orig).strip() else type(orig).__name__
    lowered = message.lower()
    for needle, hint in _SQLITE_UNAVAILABLE:
        if needle in lowered:
            return StoreUnavailable(shown, message, hint)
    state = str(getattr(orig, "sqlstate", None) or "")
    if state == "3D000":
        return StoreUnavailable(shown, message, "create the database first (createdb), or fix its name")
    if state.startswith("28"):
        return StoreUnavailable(shown, message, "check the user name and password in the URL")
    if state.startswith("08") or state in {"53300", "57P01", "57P02", "57P03"}:
        return StoreUnavailable(shown, message, "check that the server is up and accepts connections")
    if error.connection_invalidated:
        return StoreUnavailable(
            shown, message, "the connection was lost; check the server and retry", retryable=True
        )
    cause = getattr(orig, "__cause__", None)
    if isinstance(cause, OSError | TimeoutError):
        return unavailable(cause, url)
    return None


@asynccontextmanager
async def reachable(url: str | URL) -> AsyncIterator[None]:
    """Turn connection failures inside the block into :class:`StoreUnavailable`."""
    try:
        yield
    except Exception as error:
        problem = unavailable(error, url)
        if problem is None:
            raise
        raise problem from error


async def connect(engine: AsyncEngine, url: str | URL | None = None, **options: Any) -> AsyncConnection:
    """A connection from the engine, or :class:`StoreUnavailable` naming the URL."""
    shown: str | URL = url if url is not None else engine.url
    async with reachable(shown):
        connection = await engine.connect()
        if options:
            await connection.execution_options(**options)
        return connection
