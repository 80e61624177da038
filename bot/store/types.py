"""Column types that behave the same on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, DateTime, Integer
from sqlalchemy.dialects import sqlite
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

# JSON documents (snapshots, options, events): JSONB where the server has it.
JSONDocument = JSON().with_variant(JSONB(), "postgresql")

# A 64-bit key that SQLite still treats as its rowid (only INTEGER PRIMARY KEY autoincrements there).
BigKey = BigInteger().with_variant(Integer(), "sqlite")


def _in_utc(value: Any) -> datetime:
    """An instant to be stored, in UTC; anything but a timezone-aware datetime is refused."""
    if not isinstance(value, datetime):
        raise TypeError(f"expected a datetime, got {type(value).__name__}")
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"naive datetime {value.isoformat()}: pass a timezone-aware instant")
    return value.astimezone(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware instant: stored in UTC, always read back with ``tzinfo=UTC``.

    PostgreSQL keeps it as ``timestamptz``; SQLite has no such type, so the value is stored as UTC
    text and the zone is put back on the way out. Naive datetimes are refused: the caller decides
    "now", and an instant without a zone is a bug waiting to happen.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        value = _in_utc(value)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def bind_processor(self, dialect: Dialect) -> Callable[[Any], Any] | None:
        """SQLAlchemy's processor (:meth:`process_bind_param`, then the SQLite DATETIME's text), in
        one function on SQLite: every command writes two or three instants, each through three
        functions otherwise."""
        process = super().bind_processor(dialect)
        impl: Any = self.impl_instance.dialect_impl(dialect)
        if process is None or dialect.name != "sqlite" or not _plain_sqlite_datetime(impl):
            return process
        format_: str = impl._storage_format

        def as_text(value: Any) -> str | None:
            if value is None:
                return None
            value = _in_utc(value)
            return format_ % {
                "year": value.year,
                "month": value.month,
                "day": value.day,
                "hour": value.hour,
                "minute": value.minute,
                "second": value.second,
                "microsecond": value.microsecond,
            }

        return as_text

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        instant = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
        if instant.tzinfo is None:
            return instant.replace(tzinfo=UTC)
        return instant.astimezone(UTC)


def _plain_sqlite_datetime(impl: Any) -> bool:
    """Whether ``impl`` is SQLite's DATETIME writing a datetime with its storage format alone."""
    return isinstance(impl, sqlite.DATETIME) and type(impl).bind_processor is sqlite.DATETIME.bind_processor
