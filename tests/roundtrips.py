"""Counting what a store sends its database: transactions (with their statements) and connection pings.

Tests use it to pin the cost of a request end to end — a typed move is ONE transaction, chit-chat
none — on SQLite and PostgreSQL alike, from SQLAlchemy's own events on the store's engine.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, event

_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")


@dataclasses.dataclass
class Transaction:
    statements: list[str] = dataclasses.field(default_factory=list)
    ended: str = ""  # "commit" | "rollback" | "" (still open)


@dataclasses.dataclass
class RoundTrips:
    transactions: list[Transaction] = dataclasses.field(default_factory=list)
    pings: int = 0

    def since(self, mark: int) -> list[Transaction]:
        return self.transactions[mark:]

    @property
    def mark(self) -> int:
        return len(self.transactions)


@contextmanager
def counted(engine: Engine) -> Iterator[RoundTrips]:
    """Record every transaction the engine begins (and what it runs) while the block lasts."""
    trips = RoundTrips()
    sync = engine

    def begin(connection: Any) -> None:
        trips.transactions.append(Transaction())

    def statement(connection: Any, cursor: Any, sql: str, *args: Any) -> None:
        if trips.transactions and not sql.lstrip().upper().startswith(_CONTROL):
            trips.transactions[-1].statements.append(" ".join(sql.split())[:80])

    def ended(how: str) -> Any:
        def mark(connection: Any) -> None:
            if trips.transactions:
                trips.transactions[-1].ended = how

        return mark

    dialect = sync.dialect
    ping = dialect.do_ping

    def counted_ping(dbapi_connection: Any) -> bool:
        trips.pings += 1
        return bool(ping(dbapi_connection))

    listeners = [
        ("begin", begin),
        ("before_cursor_execute", statement),
        ("commit", ended("commit")),
        ("rollback", ended("rollback")),
    ]
    for name, listener in listeners:
        event.listen(sync, name, listener, insert=True)
    dialect.do_ping = counted_ping  # type: ignore[method-assign]
    try:
        yield trips
    finally:
        dialect.do_ping = ping  # type: ignore[method-assign]
        for name, listener in listeners:
            event.remove(sync, name, listener)
