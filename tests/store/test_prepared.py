"""The store's short cuts on every command's path (repositories/prepared.py, log.py, games.py,
types.py) against SQLAlchemy's own way: the same driver parameters, the same records."""

from __future__ import annotations

import re
import sqlite3
from datetime import UTC, datetime, timedelta, timezone
from typing import Any, NamedTuple
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import JSON, bindparam, insert, null
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Dialect

from bot.store import json_text
from bot.store.records import LogEntry, NewLogEntry, ParticipantRecord
from bot.store.repositories.games import _seat_records
from bot.store.repositories.log import log_row, logged_entry
from bot.store.repositories.prepared import Prepared
from bot.store.repositories.tables import log_t
from bot.store.types import UTCDateTime

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
    assert [serialize for _, serialize in compiled.documents] == [json_text.dumps_utf8]
    assert "CAST(? AS TEXT)" in compiled.sql  # the statement makes text of the bytes


@pytest.mark.parametrize("document", DOCUMENTS, ids=repr)
def test_a_json_document_is_stored_on_sqlite_as_the_text_sqlalchemy_would_write(document: Any) -> None:
    """Bytes cast to text in the statement: the same text, stored as text, as the ``str`` was."""
    made = dialect("sqlite")
    connection = sqlite3.connect(":memory:")
    connection.execute("CREATE TABLE t (document JSON)")
    compiled = Prepared(insert(log_t).values(events=bindparam("b_events"))).for_dialect(made)
    sent = compiled.arguments({"b_events": document})[[slot[0] for slot in compiled.slots].index("b_events")]
    as_str = JSON().dialect_impl(made).bind_processor(made)
    assert as_str is not None
    connection.execute("INSERT INTO t VALUES (CAST(? AS TEXT)), (?)", (sent, as_str(document)))
    stored, expected = connection.execute("SELECT typeof(document), document FROM t").fetchall()
    assert stored == expected


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


def _seat_records_as_before(
    game_id: int, seats: list[tuple[str, str, int, str, int]], stored: tuple[ParticipantRecord, ...]
) -> tuple[tuple[ParticipantRecord, ...], list[tuple[str, str, int, str, int]], bool]:
    """The comprehension form ``games._seat_records`` replaced (and the players' comparison)."""
    before = {(r.player, r.name, r.position, r.role, r.points): r for r in stored}
    records = tuple(before[seat] if seat in before else ParticipantRecord(game_id, *seat) for seat in seats)
    same = {r.player for r in stored} == {seat[0] for seat in seats}
    return records, [seat for seat in seats if seat not in before], same


class _Seat(NamedTuple):
    player: str
    name: str
    role: str
    points: int


STORED = (
    ParticipantRecord(5, "anna", "Anna", 0, "player", 3),
    ParticipantRecord(5, "ben", "Ben", 1, "player", 0),
    ParticipantRecord(5, "cleo", "Cleo", 2, "player", 7),
)


@pytest.mark.parametrize(
    "seats",
    [
        [("anna", "Anna", 0, "player", 3), ("ben", "Ben", 1, "player", 0), ("cleo", "Cleo", 2, "player", 7)],
        [("anna", "Anna", 0, "player", 9), ("ben", "Ben", 1, "player", 0), ("cleo", "Cleo", 2, "player", 7)],
        [("ben", "Ben", 0, "player", 0), ("anna", "Anna", 1, "player", 3), ("cleo", "Cleo", 2, "player", 7)],
        [("anna", "Anna", 0, "player", 3), ("ben", "Ben", 1, "player", 0)],
        [("anna", "Anna", 0, "player", 3), ("ben", "Ben", 1, "player", 0), ("dora", "Dora", 2, "player", 0)],
        [
            *(
                ("anna", "Anna", 0, "player", 3),
                ("ben", "Ben", 1, "player", 0),
                ("cleo", "Cleo", 2, "player", 7),
            ),
            ("dora", "Dora", 3, "player", 0),
        ],
        [],
    ],
)
@pytest.mark.parametrize("stored", [STORED, ()])
def test_the_seat_records_of_a_save_are_those_of_the_comprehensions(
    seats: list[tuple[str, str, int, str, int]], stored: tuple[ParticipantRecord, ...]
) -> None:
    made = _seat_records(
        5, [_Seat(player, name, role, points) for player, name, _, role, points in seats], stored
    )
    expected = _seat_records_as_before(5, seats, stored)
    assert made == expected
    assert all(a is b for a, b in zip(made[0], expected[0], strict=True) if a in stored)


INSTANTS = [
    datetime(2026, 3, 1, 20, 0, tzinfo=UTC),
    datetime(2026, 3, 1, 21, 5, 7, 123456, tzinfo=timezone(timedelta(hours=1))),
    datetime(1999, 12, 31, 23, 59, 59, 999999, tzinfo=timezone(timedelta(hours=-9, minutes=-30))),
    datetime(2026, 10, 25, 2, 30, tzinfo=ZoneInfo("Europe/Berlin")),
    None,
]


@pytest.mark.parametrize("instant", INSTANTS, ids=repr)
def test_an_instant_goes_to_sqlite_as_sqlalchemys_own_processors_write_it(instant: datetime | None) -> None:
    made = dialect("sqlite")
    kind = UTCDateTime()
    fused = kind.bind_processor(made)
    assert fused is not None
    impl = kind.impl_instance.dialect_impl(made).bind_processor(made)
    assert impl is not None
    assert fused(instant) == impl(kind.process_bind_param(instant, made))


@pytest.mark.parametrize("wrong", [datetime(2026, 3, 1, 20, 0), "2026-03-01", 5])
def test_a_naive_or_foreign_instant_is_refused_as_before(wrong: Any) -> None:
    made = dialect("sqlite")
    kind = UTCDateTime()
    fused = kind.bind_processor(made)
    assert fused is not None
    with pytest.raises((TypeError, ValueError)) as by_both:
        kind.process_bind_param(wrong, made)
    with pytest.raises(by_both.type, match=re.escape(str(by_both.value))):
        fused(wrong)
