"""Column types that behave the same on SQLite and PostgreSQL."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, DateTime, Integer, Text, cast
from sqlalchemy.dialects import sqlite
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

from bot.store import json_text

_DOCUMENTS = frozenset({dict, list})  # what SQLAlchemy's JSON type hands its serializer unchanged


class JSONText(TypeDecorator[Any]):
    """A JSON document as SQLite stores it (text), handed to the driver as UTF-8 bytes that the
    statement reads as text (``CAST(? AS TEXT)``, SQLite's UTF-8): orjson writes UTF-8, and a ``str``
    of it costs decoding it, then sqlite3 encodes it back — for a move's snapshot and reply, with
    their umlauts and emoji, more than the serializing. The text stored is the same."""

    impl = JSON
    cache_ok = True
    should_evaluate_none = True  # as JSON: None is the document ``null`` (see JSON.none_as_null)

    def bind_expression(self, bindvalue: Any) -> Any:
        return cast(bindvalue, Text)

    def document_serializer(self, dialect: Dialect) -> Callable[[Any], bytes] | None:
        """What the bind processor makes of a dict or a list, alone (for repositories.prepared); None
        for an engine with a serializer of its own."""
        return json_text.dumps_utf8 if getattr(dialect, "_json_serializer", None) is json_text.dumps else None

    def bind_processor(self, dialect: Dialect) -> Callable[[Any], Any] | None:
        """SQLAlchemy's JSON processor (``str``, or None for SQL's NULL), but bytes for a dict or a
        list (the text CAST makes of them is the same)."""
        process = self.impl_instance.bind_processor(dialect)
        serialize = self.document_serializer(dialect)
        if process is None or serialize is None:
            return process
        documents = _DOCUMENTS

        def as_utf8(value: Any) -> Any:
            return serialize(value) if type(value) in documents else process(value)

        return as_utf8


# JSON documents (snapshots, options, events): JSONB where the server has it.
JSONDocument = JSONText().with_variant(JSONB(), "postgresql")

# A 64-bit key that SQLite still treats as its rowid (only INTEGER PRIMARY KEY autoincrements there).
BigKey = BigInteger().with_variant(Integer(), "sqlite")


def _in_utc(value: Any) -> datetime:
    """An instant to be stored, in UTC; anything but a timezone-aware datetime is refused."""
    if not isinstance(value, datetime):
        raise TypeError(f"expected a datetime, got {type(value).__name__}")
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"naive datetime {value.isoformat()}: pass a timezone-aware instant")
    return value.astimezone(UTC)


_DATETIME_FIELDS = ("year", "month", "day", "hour", "minute", "second", "microsecond")


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
        if tuple(re.findall(r"%\((\w+)\)", format_)) == _DATETIME_FIELDS:
            # SQLite's own format, fields in that order: formatted from a tuple, not a dict of them
            positional = re.sub(r"%\(\w+\)", "%", format_)

            def as_text(value: Any) -> str | None:
                if value is None:
                    return None
                value = _in_utc(value)
                return positional % (
                    value.year,
                    value.month,
                    value.day,
                    value.hour,
                    value.minute,
                    value.second,
                    value.microsecond,
                )

            return as_text

        def as_named_text(value: Any) -> str | None:
            if value is None:
                return None
            value = _in_utc(value)
            return format_ % {name: getattr(value, name) for name in _DATETIME_FIELDS}

        return as_named_text

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
