"""Engines and URLs (bot/store/db.py): the driver URLs, masking, and SQLite's durability settings."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import text

from bot.store import BadDatabaseURL, StoreUnavailable, create_engine, mask_url, store_url
from bot.store.db import SQLITE_BEGIN


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("postgresql://u:p@db:5432/croupier", "postgresql+psycopg://u:p@db:5432/croupier"),
        ("postgres://u@db/croupier", "postgresql+psycopg://u@db/croupier"),
        ("postgresql+psycopg2://u@db/croupier", "postgresql+psycopg://u@db/croupier"),
        ("postgresql+asyncpg://u@db/croupier", "postgresql+psycopg://u@db/croupier"),  # older settings
        ("sqlite:///data/croupier.sqlite3", "sqlite+pysqlite:///data/croupier.sqlite3"),
        ("sqlite:////abs/croupier.sqlite3", "sqlite+pysqlite:////abs/croupier.sqlite3"),
        ("sqlite+aiosqlite:///./data/x.sqlite3", "sqlite+pysqlite:///./data/x.sqlite3"),  # older settings
        ("sqlite://", "sqlite+pysqlite://"),
        ("data/croupier.sqlite3", "sqlite+pysqlite:///data/croupier.sqlite3"),
    ],
)
def test_store_url_picks_the_driver(given: str, expected: str) -> None:
    assert store_url(given).render_as_string(hide_password=False) == expected


@pytest.mark.parametrize("given", ["", "mysql://u@db/x", "oracle+cx://u@db/x"])
def test_store_url_refuses_other_databases(given: str) -> None:
    with pytest.raises(BadDatabaseURL):
        store_url(given)


def test_passwords_never_show() -> None:
    assert mask_url("postgresql://bot:s3cret@db/croupier") == "postgresql://bot:***@db/croupier"
    assert (
        mask_url(store_url("postgresql://bot:s3cret@db/croupier"))
        == "postgresql+psycopg://bot:***@db/croupier"
    )
    with pytest.raises(BadDatabaseURL) as caught:
        store_url("mysql://bot:s3cret@db/croupier")
    assert "s3cret" not in str(caught.value)


def test_sqlite_connections_are_durable_wal_with_foreign_keys(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'x.sqlite3'}")
    try:
        with engine.connect() as connection:
            pragmas = {
                name: connection.execute(text(f"PRAGMA {name}")).scalar_one()
                for name in ("journal_mode", "synchronous", "foreign_keys", "busy_timeout")
            }
    finally:
        engine.dispose()
    assert pragmas == {"journal_mode": "wal", "synchronous": 2, "foreign_keys": 1, "busy_timeout": 10_000}


def _can_take_write_lock(path: Path) -> bool:
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("ROLLBACK")
        return True
    except sqlite3.OperationalError as error:
        if "locked" not in str(error):
            raise
        return False
    finally:
        other.close()


@pytest.mark.parametrize(("mode", "locked"), [("IMMEDIATE", True), ("DEFERRED", False)])
def test_a_sqlite_transaction_takes_the_write_lock_when_it_begins(
    tmp_path: Path, mode: str, locked: bool
) -> None:
    """A command's reads and writes form one transaction; a read-only one does not block writers."""
    path = tmp_path / "x.sqlite3"
    engine = create_engine(f"sqlite:///{path}")
    try:
        with engine.connect() as connection:
            connection.execution_options(**{SQLITE_BEGIN: mode})
            connection.begin()
            connection.execute(text("SELECT 1"))
            assert _can_take_write_lock(path) is not locked
            connection.rollback()
            assert _can_take_write_lock(path)
    finally:
        engine.dispose()


def test_the_sqlite_folder_is_created_on_first_use(tmp_path: Path) -> None:
    path = tmp_path / "data" / "nested" / "croupier.sqlite3"
    engine = create_engine(f"sqlite:///{path}")
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    finally:
        engine.dispose()
    assert path.parent.is_dir()
    assert path.exists()


def test_an_impossible_sqlite_folder_is_store_unavailable(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    with pytest.raises(StoreUnavailable) as caught:
        create_engine(f"sqlite:///{blocker / 'croupier.sqlite3'}")
    assert str(blocker) in str(caught.value)
