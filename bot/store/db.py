"""Engines for the two stores, and the translation of "cannot reach it" into one clear error.

Both stores run under SQLAlchemy's synchronous Core, driven from worker threads (see
:mod:`bot.store.uow`): a unit of work is one hand-off from the event loop, not one per statement.

SQLite (the ``sqlite3`` driver) is the embedded default; every connection is switched to WAL with
``synchronous=FULL`` (a commit is on disk when it returns), foreign keys on and a busy timeout. The
driver's own transaction handling is turned off and SQLAlchemy emits ``BEGIN IMMEDIATE`` itself, so a
writing unit of work holds the write lock from its first statement: its reads and writes are one
consistent transaction, migrations are transactional, and two processes on one file serialise
instead of failing half-way.

PostgreSQL runs on psycopg 3 with a small pool; a connection the server dropped is noticed at its
first statement (no ping before every unit of work) and reported as retryable.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, event, exc
from sqlalchemy import create_engine as sqlalchemy_engine
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.pool import ConnectionPoolEntry

from bot import urls
from bot.store import json_text
from bot.store.errors import BadDatabaseURL, StoreError, StoreUnavailable, TransactionAborted

log = logging.getLogger(__name__)

SQLITE_BUSY_TIMEOUT_MS = 10_000
POOL_OVERFLOW = 5  # connections beyond the workers' own, for units of work opened outside them
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


def store_url(url: str | URL) -> URL:
    """The driver form of a database URL the store uses.

    ``postgresql://…`` (or ``postgres://``, or another driver's spelling) becomes
    ``postgresql+psycopg://…``; ``sqlite:///path`` becomes ``sqlite+pysqlite:///path``; a bare file path
    is a SQLite file. URLs written for the async drivers of earlier versions still work.

    Refused with :class:`BadDatabaseURL`, before any driver sees them (a driver misreads such a URL and
    quotes the misread part back, which may be a piece of the password): a raw ``@`` in the password,
    a password of blanks, a port that is no number, a query parameter libpq does not know (``PASSWORD``),
    libpq's ``host=… password=…`` form, and any other database than PostgreSQL and SQLite.
    """
    if isinstance(url, str):
        text = url.strip()
        if not text:
            raise BadDatabaseURL("the database URL is empty")
        if "://" not in text:
            if _CONNINFO.search(text):  # not a file name: never create a file named after a password
                raise BadDatabaseURL(
                    "the database URL is in PostgreSQL's key=value form; write it as a postgresql:// "
                    "URL (see .env.example), the password percent-encoded"
                )
            return URL.create("sqlite+pysqlite", database=text)
        try:
            parsed = make_url(text)
        except exc.ArgumentError as error:
            raise BadDatabaseURL(f"not a database URL: {mask_url(text)}") from error
        except ValueError as error:  # SQLAlchemy reads the port with int()
            raise BadDatabaseURL(
                f"not a database URL: {mask_url(text)}: the port must be a number (one host:port)"
            ) from error
    else:
        parsed = url
    _check_user(parsed)
    driver = parsed.drivername.lower()
    if driver in _POSTGRES_DRIVERS:
        _check_password(parsed)
        _check_parameters(parsed)
        return parsed.set(drivername="postgresql+psycopg")
    if driver in _SQLITE_DRIVERS:
        return parsed.set(drivername="sqlite+pysqlite")
    raise BadDatabaseURL(
        f"unsupported database {parsed.drivername!r} in {mask_url(parsed)}: "
        "use a postgresql:// URL or sqlite:///path/to/file.sqlite3"
    )


# libpq's "host=db password=…" form: keywords a connection string starts with, never a file name
_CONNINFO = re.compile(r"(?:^|\s)(?:host|hostaddr|port|dbname|user|password|passfile|service|sslmode)\s*=")
# psycopg.connect() takes these besides libpq's keywords
_PSYCOPG_PARAMETERS = frozenset({"autocommit", "prepare_threshold"})


def _check_user(parsed: URL) -> None:
    """Refuse what the driver would misread and then quote back, password and all."""
    if "@" in (parsed.host or ""):
        # SQLAlchemy splits at the first "@": the rest of the password would become the host name.
        raise BadDatabaseURL(
            f"the password in {mask_url(parsed)} holds a raw '@': write it as %40 (and a % as %25)"
        )


def _check_password(parsed: URL) -> None:
    """A password of blanks only is a mistake (a quoted "   " in .env passes docker-compose's check)."""
    if parsed.password is not None and parsed.password != "" and not parsed.password.strip():
        raise BadDatabaseURL(f"the password in {mask_url(parsed)} is only blanks: set a real one")
    given = os.environ.get("PGPASSWORD")  # libpq's, used when the URL has none (docker-compose)
    if parsed.password is None and given and not given.strip():
        raise BadDatabaseURL(
            "PGPASSWORD (POSTGRES_PASSWORD in docker-compose's .env) is only blanks: set a real password"
        )


def _check_parameters(parsed: URL) -> None:
    """Every query parameter of a PostgreSQL URL is one libpq knows (it refuses others with a traceback)."""
    unknown = sorted(key for key in parsed.query if key not in _libpq_keywords() | _PSYCOPG_PARAMETERS)
    if unknown:
        raise BadDatabaseURL(
            f"unknown connection parameter {unknown[0]!r} (PostgreSQL's are in lower case: password, "
            f"sslmode, connect_timeout, …) in {mask_url(parsed)}"
        )


@cache
def _libpq_keywords() -> frozenset[str]:
    from psycopg import pq

    return frozenset(option.keyword.decode() for option in pq.Conninfo.get_defaults())


def mask_url(url: str | URL) -> str:
    """The URL as a user would recognise it, with any password replaced by ``***`` (see bot.urls)."""
    return urls.mask_url(url)


def is_sqlite(url: URL) -> bool:
    return url.get_backend_name() == "sqlite"


def sqlite_file(url: URL) -> Path | None:
    """The file behind a SQLite URL; None for an in-memory or URI-style database."""
    database = url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)


def create_engine(
    url: str | URL, *, foreign_keys: bool = True, echo: bool = False, pool_size: int = 5
) -> Engine:
    """A synchronous engine for the URL (see :func:`store_url`); a SQLite file's folder is created.

    ``pool_size``: connections kept (the store's worker threads each use one at a time).
    ``foreign_keys=False`` is for migrations only: SQLite's batch mode recreates tables, which must not
    cascade into their children.
    """
    target = store_url(url)
    if not is_sqlite(target):
        engine = sqlalchemy_engine(
            target,
            echo=echo,
            pool_size=pool_size,
            max_overflow=POOL_OVERFLOW,
            # No ping before every unit of work (a round trip each): a connection the server dropped
            # fails its first statement as a lost connection, the pool recycles them all, and the
            # service retries the unit of work once (see StoreUnavailable.retryable).
            pool_pre_ping=False,
            pool_recycle=1800,
            connect_args={"connect_timeout": PG_CONNECT_TIMEOUT_S, "application_name": "croupier"},
            json_serializer=json_text.dumps,
            json_deserializer=json_text.loads,
        )
        _configure_postgresql(engine)
        return engine
    path = sqlite_file(target)
    if path is not None:
        _private_sqlite_file(path, url)
    engine = sqlalchemy_engine(
        target,
        echo=echo,
        pool_size=pool_size,
        max_overflow=POOL_OVERFLOW,
        json_serializer=json_text.dumps,
        json_deserializer=json_text.loads,
    )
    _configure_sqlite(engine, foreign_keys=foreign_keys)
    return engine


# The database holds every open game's secret seed: whoever reads it predicts the dice. Its folder is
# the bot's alone when the croupier makes it, its files are the bot's alone always.
SQLITE_FOLDER_MODE = 0o700
SQLITE_FILE_MODE = 0o600
SQLITE_COMPANIONS = ("-wal", "-shm", "-journal")  # SQLite gives them the database file's own mode


def _private_sqlite_file(path: Path, url: str | URL) -> None:
    """Create a missing folder 0700 and a missing database file 0600 — with the mode given to the call
    that creates it, not through the umask, which is the whole process's and would race with other
    threads — and tighten an existing database file (or its WAL, shared-memory or journal file) that
    other users may read, saying so in the log. An existing folder is left alone: it may be a home or
    the working directory; the files inside are private either way. What cannot be created or changed
    here is left to SQLite, which names the problem when it opens the file."""
    try:
        path.parent.mkdir(mode=SQLITE_FOLDER_MODE, parents=True, exist_ok=True)
    except OSError as error:
        raise StoreUnavailable(
            mask_url(url),
            f"cannot create the folder {path.parent} ({error.strerror or error})",
            "check the path and its permissions",
        ) from error
    # An empty file is an empty SQLite database (SQLite's own would be 0644). Already there, or the
    # folder is not writable: SQLite opens it, or says why it cannot.
    with contextlib.suppress(OSError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, SQLITE_FILE_MODE))
    for file in (path, *(path.with_name(path.name + suffix) for suffix in SQLITE_COMPANIONS)):
        _tighten(file)


def _tighten(file: Path) -> None:
    try:
        mode = file.stat().st_mode & 0o777
    except OSError:
        return  # not there (a WAL file before the first write)
    if not mode & 0o077:
        return
    private = mode & SQLITE_FOLDER_MODE & ~0o100  # keep the owner's read and write, drop everyone else's
    try:
        os.chmod(file, private)
    except OSError as error:
        log.warning(
            "the database file %s can be read by other users (mode %o) and cannot be made private (%s): "
            "restrict it, as it holds the secret seeds of open games",
            file,
            mode,
            error.strerror or error,
        )
        return
    log.warning(
        "the database file %s could be read by other users (mode %o); it is now %o, as it holds the "
        "secret seeds of open games",
        file,
        mode,
        private,
    )


def _execute_waiting(cursor: Any, pragma: str) -> None:
    """A connection pragma, retried while the file is locked. SQLite answers "locked" at once, without
    waiting out the busy timeout, where waiting could deadlock — as when a new file's first process
    migrates it while a second switches the same file to WAL — so the wait is ours."""
    deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            cursor.execute(pragma)
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def _configure_sqlite(engine: Engine, *, foreign_keys: bool) -> None:
    # busy_timeout first: switching a new file to WAL needs a lock another process may briefly hold.
    pragmas = (
        f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}",
        "PRAGMA journal_mode=WAL",
        "PRAGMA synchronous=FULL",
        f"PRAGMA foreign_keys={'ON' if foreign_keys else 'OFF'}",
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
        # SQLAlchemy, not the driver, decides when a transaction begins (see the module docstring).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            for pragma in pragmas:
                _execute_waiting(cursor, pragma)
        finally:
            cursor.close()

    event.listen(engine, "begin", _sqlite_begin)


# connection.info: a store's unit of work began the connection's SQLite transaction on the driver
# (see ``repositories.transaction``); a statement SQLAlchemy runs in it joins that transaction.
DRIVER_BEGUN = "croupier_driver_begun"


def _sqlite_begin(connection: Connection) -> None:
    if connection.info.get(DRIVER_BEGUN) and connection.connection.dbapi_connection.in_transaction:  # type: ignore[union-attr]
        return  # SQLAlchemy joins the transaction the unit of work began (and commits or ends it)
    driver_execute(connection, sqlite_begin_sql(connection))


def sqlite_begin_sql(connection: Connection) -> str:
    """The BEGIN a SQLite transaction on ``connection`` opens with (see :data:`SQLITE_BEGIN`)."""
    mode = connection.get_execution_options().get(SQLITE_BEGIN, "IMMEDIATE")
    return "BEGIN DEFERRED" if mode == "DEFERRED" else "BEGIN IMMEDIATE"


def unobserved(connection: Connection) -> bool:
    """Whether nobody but the store listens to the SQLite connection's transactions and statements:
    then a unit of work may begin, run and end its transaction on the driver alone, as nothing could
    tell it from SQLAlchemy's (tests and tools that listen get SQLAlchemy's own, events and all)."""
    if connection._has_events:  # listeners on this connection itself
        return False
    dispatch = connection.engine.dispatch
    for listener in dispatch.begin:
        if listener is not _sqlite_begin:
            return False
    return not (
        dispatch.commit
        or dispatch.rollback
        or dispatch.before_cursor_execute
        or dispatch.after_cursor_execute
    )


def driver_execute(connection: Connection, sql: str) -> None:
    """A statement straight on the driver (SQLAlchemy's execution machinery costs more than a BEGIN),
    still seen by the engine's cursor listeners, as crash tests and statement counts rely on."""
    cursor = connection.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    try:
        watched = connection.dispatch
        if watched.before_cursor_execute:
            for listener in watched.before_cursor_execute:
                listener(connection, cursor, sql, (), None, False)
        cursor.execute(sql)
        if watched.after_cursor_execute:
            for listener in watched.after_cursor_execute:
                listener(connection, cursor, sql, (), None, False)
    finally:
        cursor.close()


def _configure_postgresql(engine: Engine) -> None:
    """psycopg would open each transaction with a BEGIN round trip of its own. The driver connection is
    switched to autocommit instead, and the store sends BEGIN itself, together with the transaction's
    first statement: a prepared statement pipelines the two (see ``repositories.prepared``); any other
    statement has it sent just before it. A transaction that runs no statement sends nothing at all."""

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
        dbapi_connection.autocommit = True

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        connection.info[_BEGIN_PENDING] = True

    @event.listens_for(engine, "before_cursor_execute")
    def _before(connection: Connection, cursor: Any, *_: Any) -> None:
        if take_pending_begin(connection):
            cursor.execute("BEGIN")

    def _ended(connection: Connection) -> None:
        if not connection.invalidated:  # an invalidated connection's info is gone with it
            connection.info[_BEGIN_PENDING] = False

    event.listen(engine, "commit", _ended)
    event.listen(engine, "rollback", _ended)

    commit_now = engine.dialect.do_commit

    def do_commit(dbapi_connection: Any) -> None:
        if getattr(_pipelined, "commit", False):
            dbapi_connection.execute("COMMIT")  # sent with the pipeline's Sync
        else:
            commit_now(dbapi_connection)

    engine.dialect.do_commit = do_commit  # type: ignore[method-assign]


_BEGIN_PENDING = "croupier_begin_pending"
_pipelined = threading.local()


@contextmanager
def commit_in_pipeline() -> Iterator[None]:
    """Within the block, SQLAlchemy's commit of a PostgreSQL transaction (its ``commit`` event
    included) only queues the COMMIT in the caller's psycopg pipeline, to go out with what is queued
    before it and one Sync: psycopg's own commit would wait for a Sync of its own."""
    _pipelined.commit = True
    try:
        yield
    finally:
        _pipelined.commit = False


def take_pending_begin(connection: Connection) -> bool:
    """Whether the PostgreSQL transaction SQLAlchemy began still owes the server its BEGIN (the caller
    sends it now, before or with its statement)."""
    info = connection.info
    if info.get(_BEGIN_PENDING):
        info[_BEGIN_PENDING] = False
        return True
    return False


# --- "cannot reach the database" -------------------------------------------------------------------

_SQLITE_UNAVAILABLE = (
    ("unable to open database file", "check that the path exists and is writable"),
    ("database is locked", "another process holds the database; retry, or stop the other process"),
    ("disk i/o error", "check the disk holding the database file"),
    ("readonly database", "the database file is read-only; check its permissions"),
    ("file is not a database", "the file is not a SQLite database; check the path"),
)
# psycopg reports a failed connection attempt without a SQLSTATE; its message says why.
_POSTGRES_CONNECT = (
    ("connection refused", "is the database server running and listening there?"),
    ("could not translate host name", "check the host name in the URL"),
    ("name or service not known", "check the host name in the URL"),
    ("timeout expired", "check the host, port and any firewall in between"),
    ("password authentication failed", "check the user name and password in the URL"),
    ('role "', "check the user name in the URL"),  # 'role "x" does not exist'
    ("does not exist", "create the database first (createdb), or fix its name"),
    ("no such file or directory", "check the host (or socket folder) in the URL"),
    ("server closed the connection", "the server went away; check that it is up, then retry"),
    ("the database system is starting up", "the server is starting; retry in a moment"),
    ("the database system is shutting down", "the server is stopping; retry once it is back"),
    ("connection failed", "check that the server is up and accepts connections"),
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
    if isinstance(error, sqlite3.Error):  # raised by the driver itself (SQLite's BEGIN goes there directly)
        orig: BaseException | None = error
        invalidated = False
    elif isinstance(error, exc.DBAPIError):
        orig = error.orig
        invalidated = bool(error.connection_invalidated)
    else:
        return None
    message = str(orig).strip().splitlines()[0] if str(orig).strip() else type(orig).__name__
    lowered = str(orig).lower()
    for needle, hint in _SQLITE_UNAVAILABLE:
        if needle in lowered:
            return StoreUnavailable(shown, message, hint)
    state = str(getattr(orig, "sqlstate", None) or "")
    retryable = invalidated
    if state == "3D000":
        return StoreUnavailable(shown, message, "create the database first (createdb), or fix its name")
    if state.startswith("28"):
        return StoreUnavailable(shown, message, "check the user name and password in the URL")
    if state.startswith("08") or state in {"53300", "57P01", "57P02", "57P03"}:
        hint = "check that the server is up and accepts connections"
        return StoreUnavailable(shown, message, hint, retryable=retryable)
    if retryable:
        return StoreUnavailable(
            shown, message, "the connection was lost; check the server and retry", retryable=True
        )
    if isinstance(error, exc.OperationalError) and not state:
        for needle, hint in _POSTGRES_CONNECT:
            if needle in lowered:
                return StoreUnavailable(shown, message, hint)
    return None


# PostgreSQL ends one of two transactions that wait for each other (deadlock_detected), or one that
# cannot be serialised with another (serialization_failure); the server's advice is to run it again.
_ABORTED_STATES = frozenset({"40P01", "40001"})


def aborted(error: BaseException) -> TransactionAborted | None:
    """A :class:`TransactionAborted` when the server ended the transaction to let another writer on."""
    if not isinstance(error, exc.DBAPIError):
        return None
    if str(getattr(error.orig, "sqlstate", None) or "") not in _ABORTED_STATES:
        return None
    reason = str(error.orig).strip().splitlines()[0] if str(error.orig).strip() else "aborted"
    return TransactionAborted(reason)


class reachable:  # lower case: used like the function it was, ``with reachable(url):``
    """Turn connection failures inside the block into :class:`StoreUnavailable`, and a transaction the
    server aborted between two writers into :class:`TransactionAborted`.

    A class, not a generator-based context manager: it wraps every statement of the hot path, where
    a generator, its helper and its frames cost more than the check itself."""

    __slots__ = ("_url",)

    def __init__(self, url: str | URL) -> None:
        self._url = url

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, _tb: object) -> None:
        if error is None or not isinstance(error, Exception):
            return  # never swallows what it does not translate
        problem = translated(error, self._url)
        if problem is not None:
            raise problem from error


def translated(error: Exception, url: str | URL) -> StoreError | None:
    """What :class:`reachable` raises instead of ``error`` (None: ``error`` itself)."""
    return aborted(error) or unavailable(error, url)


def connect(engine: Engine, url: str | URL | None = None, **options: Any) -> Connection:
    """A connection from the engine, or :class:`StoreUnavailable` naming the URL."""
    shown: str | URL = url if url is not None else engine.url
    with reachable(shown):
        connection = engine.connect()
        if options:
            connection = connection.execution_options(**options)
        return connection
