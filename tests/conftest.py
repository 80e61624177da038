"""Fixtures shared by the whole suite: databases on both stores, and an opened :class:`Store`.

* ``db_url`` — a database at the newest schema with empty tables, once on SQLite (a file in the
  test's temp folder) and once on PostgreSQL (marked ``postgres``). Tests must not change its schema.
* ``blank_db_url`` — a database with no schema at all (never migrated), on both stores.
* ``store`` — ``await Store.open(db_url)``, closed after the test.

PostgreSQL: one database of each kind is created per test session (named after the process, so
parallel sessions on one server do not meet), migrated once with the real migrations, emptied
before every test and dropped at the end. Without a reachable server those parameters are skipped —
unless the environment variable ``CI`` is set: then an unreachable server fails them.
The server is ``TEST_POSTGRES_URL`` (any database on it, used for maintenance), by default
``postgresql://postgres@$PGHOST:$PGPORT/postgres`` (127.0.0.1:5432).
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy.engine import make_url

from bot.store import Store
from bot.store import migrate as store_migrate
from tests.discord_emulator.conformance import ALLOWLIST, Allowed

TABLES = (
    "corrections",
    "command_log",
    "participants",
    "games",
    "tournaments",
    "channel_settings",
    "bot_state",
)
BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _admin_url() -> str:
    given = os.environ.get("TEST_POSTGRES_URL")
    if given:
        return given
    host = os.environ.get("PGHOST", "127.0.0.1")
    port = os.environ.get("PGPORT", "5432")
    return f"postgresql://postgres@{host}:{port}/postgres"


class PostgresServer:
    """Test databases on one PostgreSQL server, administered over plain psycopg connections (one per
    database, autocommit), usable from sync and async tests alike."""

    def __init__(self, admin_url: str) -> None:
        self.admin_url = make_url(admin_url).set(drivername="postgresql")
        self.prefix = f"croupier_test_{os.getpid()}_{secrets.token_hex(3)}"
        self._connections: dict[str, psycopg.Connection[Any]] = {}
        self._databases: list[str] = []
        self._lock = threading.Lock()

    def url(self, database: str) -> str:
        """The URL a user would type for this database (``postgresql://…``)."""
        return self.admin_url.set(database=database).render_as_string(hide_password=False)

    def _connect(self, database: str) -> psycopg.Connection[Any]:
        connection = self._connections.get(database)
        if connection is None or connection.closed:
            connection = psycopg.connect(self.url(database), autocommit=True, connect_timeout=5)
            connection.execute("SET lock_timeout = '20s'")  # a leaked connection fails loudly
            self._connections[database] = connection
        return connection

    def _admin(self) -> psycopg.Connection[Any]:
        return self._connect(self.admin_url.database or "postgres")

    def probe(self) -> None:
        self._admin()

    def drop_leftovers(self) -> None:
        """Drop test databases of sessions that died on this machine (killed runs leave them behind)."""
        if self.admin_url.host not in {None, "", "127.0.0.1", "localhost", "::1"}:
            return  # another machine's sessions may be alive: not ours to judge
        admin = self._admin()
        query = "SELECT datname FROM pg_database WHERE starts_with(datname, 'croupier_test_')"
        for (name,) in admin.execute(query).fetchall():
            match = re.fullmatch(r"croupier_test_(\d+)_[0-9a-f]+_\w+", name)
            if match is None or _alive(int(match.group(1))):
                continue
            with contextlib.suppress(psycopg.Error):  # in use after all: leave it
                admin.execute(f'DROP DATABASE "{name}"')

    def create(self, suffix: str) -> str:
        name = f"{self.prefix}_{suffix}"
        with self._lock:
            admin = self._admin()
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            admin.execute(f'CREATE DATABASE "{name}"')
        self._databases.append(name)
        return name

    def empty_tables(self, database: str) -> str | None:
        """Empty every table (ids restart at 1); answers the schema revision found."""
        with self._lock:
            connection = self._connect(database)
            connection.execute(f"TRUNCATE {', '.join(TABLES)} RESTART IDENTITY CASCADE")
            row = connection.execute("SELECT max(version_num) FROM alembic_version").fetchone()
        return None if row is None else row[0]

    def drop_schema(self, database: str) -> None:
        with self._lock:
            self._connect(database).execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")

    def disconnect_clients(self, database: str) -> int:
        """Cut the bot's connections to a database, as a server restart would; answers how many.

        ``pg_terminate_backend`` only signals: the backends go a moment later. Waiting until they are
        gone keeps a test from reusing a connection that is still being torn down (which would read as
        a connection that survived the cut)."""
        with self._lock:
            connection = self._connect(database)
            row = connection.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = %s AND application_name = 'croupier'",
                (database,),
            ).fetchone()
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                left = connection.execute(
                    "SELECT count(*) FROM pg_stat_activity "
                    "WHERE datname = %s AND application_name = 'croupier'",
                    (database,),
                ).fetchone()
                if left is None or int(left[0]) == 0:
                    break
                time.sleep(0.01)
        return 0 if row is None else int(row[0])

    def close(self) -> None:
        admin_name = self.admin_url.database or "postgres"
        for name, connection in list(self._connections.items()):
            if name != admin_name:
                connection.close()
        admin = self._admin()
        for name in self._databases:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()

    def stop(self) -> None:
        for connection in self._connections.values():
            connection.close()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """The test PostgreSQL server; skips (or, with CI set, fails) when none answers."""
    server = PostgresServer(_admin_url())
    try:
        server.probe()
    except Exception as error:
        server.stop()
        reason = (
            f"PostgreSQL not reachable at {make_url(_admin_url()).render_as_string(hide_password=True)} "
            f"({type(error).__name__}: {error}); start it with `make postgres` or set TEST_POSTGRES_URL"
        )
        if os.environ.get("CI"):
            pytest.fail(f"{reason} — CI is set, so the PostgreSQL store tests must run", pytrace=False)
        pytest.skip(reason)
    server.drop_leftovers()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture(scope="session")
def _postgres_head(postgres_server: PostgresServer) -> str:
    """A session database migrated to head once; tests get it with emptied tables."""
    name = postgres_server.create("head")
    store_migrate.upgrade(postgres_server.url(name))
    return name


@pytest.fixture(scope="session")
def _postgres_blank(postgres_server: PostgresServer) -> str:
    return postgres_server.create("blank")


@pytest.fixture(scope="session")
def _sqlite_head(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated to head once; each test gets a copy."""
    path = tmp_path_factory.mktemp("sqlite-head") / "head.sqlite3"
    store_migrate.upgrade(f"sqlite:///{path}")
    return path


@pytest.fixture(params=BACKENDS)
def db_backend(request: pytest.FixtureRequest) -> str:
    """``"sqlite"`` or ``"postgresql"``."""
    return str(request.param)


@pytest.fixture
def db_url(db_backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """A database at the newest schema with empty tables (``sqlite:///…`` or ``postgresql://…``)."""
    if db_backend == "sqlite":
        path = tmp_path / "croupier.sqlite3"
        shutil.copy(request.getfixturevalue("_sqlite_head"), path)
        return f"sqlite:///{path}"
    server: PostgresServer = request.getfixturevalue("postgres_server")
    name: str = request.getfixturevalue("_postgres_head")
    url = server.url(name)
    try:
        intact = server.empty_tables(name) == store_migrate.head_revision()
    except psycopg.errors.UndefinedTable:
        intact = False
    if not intact:  # a test broke the rule and changed the schema: rebuild it
        server.drop_schema(name)
        store_migrate.upgrade(url)
    return url


@pytest.fixture
def blank_db_url(db_backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """A database without any schema: a SQLite path not created yet, or an empty PostgreSQL database."""
    if db_backend == "sqlite":
        return f"sqlite:///{tmp_path / 'blank.sqlite3'}"
    server: PostgresServer = request.getfixturevalue("postgres_server")
    name: str = request.getfixturevalue("_postgres_blank")
    server.drop_schema(name)
    return server.url(name)


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[Store]:
    """An opened store on ``db_url``."""
    opened = await Store.open(db_url)
    try:
        yield opened
    finally:
        await opened.close()


# Discord's OpenAPI description ------------------------------------------------------------------------------
# Every REST request the bot makes to the Discord emulator is checked against Discord's published spec
# (tests/discord_emulator/spec/). A request the spec refuses fails the test that made it — unless it is named
# here as (operationId, reason), exactly as the failure prints it, with a comment saying what the bot sends
# and where. A named violation is still recorded (emulator.spec_violations) but the request goes through.
# Each entry is a bug to fix; never an excuse to loosen the check. The list is empty: every request the bot
# makes conforms (it creates forum posts through the route as the spec describes it, bot/discord/threads.py).
# The emulator's own tests that call discord.py helpers which do not conform name those on their emulator
# alone (DISCORD_PY_HELPERS in tests/test_discord_emulator_threads.py).
SPEC_ALLOWLIST: list[Allowed] = []
ALLOWLIST.extend(SPEC_ALLOWLIST)
