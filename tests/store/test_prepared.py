"""The prepared statements' short cuts (bot/store/repositories/prepared.py, log.py) against SQLAlchemy's
own way: the same driver parameters, the same records."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import JSON, bindparam, insert, null
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Dialect

from bot.store import json_text
from bot.store.records import LogEntry, NewLogEntry
from bot.store.repositories.log import log_row, logged_entry
from bot.store.repositories.prepared import Prepared
from bot.store.repositories.tables import log_t

NOW = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)


def dialect(name: str) -> Dialect:
    made: Any = sqlite.dialect() if name == "sqlite" else postgresql.psycopg.dialect()
    made._json_serializer = json_text.dumps  # as the store's engines are created (bot.store.db)
    return made


DOCUMENTS = [
    {"a": [1, 2], "b": "ü"},
    [1, {"x": None}],
    [],
    {},
    None,
    JSON.NULL,
    null(),
    "text",
    7,
]


@pytest.mark.parametrize("name", ["sqlite", "postgresql"])
@pytest.mark.parametrize("document", DOCUMENTS, ids=repr)
def test_a_json_document_goes_to_the_driver_as_sqlalchemy_would_send_it(name: str, document: Any) -> None:
    made = dialect(name)
    column = log_t.c.events
    prepared = Prepared(insert(log_t).values(events=bindparam("b_events")))
    compiled = prepared.for_dialect(made)
    arguments = compiled.arguments({"b_events": document})
    process = column.type.dialect_impl(made).bind_processor(made)
    expected = document if process is None else process(document)
    if name == "sqlite":
        sent = arguments[[slot[0] for slot in compiled.slots].index("b_events")]
    else:
        sent = arguments["b_events"]
    assert type(sent) is type(expected)
    assert getattr(sent, "obj", sent) == getattr(expected, "obj", expected)  # psycopg's Jsonb wraps it


def test_sqlite_takes_the_json_serializer_directly() -> None:
    compiled = Prepared(insert(log_t).values(events=bindparam("b_events"))).for_dialect(dialect("sqlite"))
    assert [serialize for _, serialize in compiled.documents] == [json_text.dumps]


def test_a_logged_entry_is_the_record_logentry_makes() -> None:
    new = NewLogEntry(
        "m1", "c", "anna", "wurf", NOW, 3, {"kind": "roll"}, ["e"], [4, 5], 2, {"text": "x"}, "pending"
    )
    row = log_row(new)
    made = logged_entry(17, row)
    expected = LogEntry(17, *row)
    assert made == expected
    assert vars(made) == vars(expected)
    assert type(made) is LogEntry
    assert made.voided is False
