"""Marks: whether a SQLite database is still exactly as this connection left it.

SQLite's ``PRAGMA data_version`` changes, for one connection, whenever *another* connection (another
thread, another process) commits to the database; it stays put for the connection's own commits, and
reading it touches no page. A :class:`Mark` pairs it with the connection and the number of commits
this connection made, so "unchanged since the mark" means: nobody else committed since, and this
connection committed nothing the mark does not count. A writer that holds the write lock from its
``BEGIN IMMEDIATE`` can then trust what it read and wrote under the mark, without reading it again —
which is how the croupier skips re-reading a channel it just wrote (``bot.service.croupier``).

A mark is only ever taken from a value read *inside* a writing transaction: under the write lock
nobody else can commit between that read and the commit, so the mark describes the database exactly
as the commit left it. PostgreSQL has no such counter; there every unit of work reads.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

_SERIALS = itertools.count(1)
_SERIAL = "croupier_mark_serial"  # keys in the DB-API connection's info (kept with it in the pool)
_COMMITS = "croupier_mark_commits"


@dataclass(frozen=True)
class Mark:
    connection: int  # a serial number of the DB-API connection (ids of objects are reused)
    data_version: int
    commits: int  # the connection's own commits, this one's included


class Marker:
    """The marks of one unit of work's connection (see the module docstring)."""

    def __init__(self, info: dict[Any, Any], dbapi_connection: Any, writing_sqlite: bool) -> None:
        self._info = info
        self._dbapi = dbapi_connection
        self._enabled = writing_sqlite
        self._observed: int | None = None  # data_version read in the current transaction
        self._left: int | None = None  # the data_version its last commit left behind

    def unchanged_since(self, mark: Mark | None) -> bool:
        """Whether the database is exactly as it was when ``mark`` was taken (no mark: False). Asked in
        a writing transaction on SQLite, this also lets the transaction's commit leave a mark."""
        if not self._enabled:
            return False
        if self._observed is None:
            self._observed = int(self._dbapi.execute("PRAGMA data_version").fetchone()[0])
        return mark is not None and mark == Mark(self._serial(), self._observed, self._info.get(_COMMITS, 0))

    def committing(self) -> None:
        """Count a commit of the connection (every commit, mark or no mark), just before it is made."""
        self._info[_COMMITS] = self._info.get(_COMMITS, 0) + 1
        self._left, self._observed = self._observed, None

    def mark(self) -> Mark | None:
        """The database as the last commit left it — if the transaction it committed read
        :meth:`unchanged_since` first (None otherwise, and always on PostgreSQL)."""
        if self._left is None:
            return None
        return Mark(self._serial(), self._left, self._info.get(_COMMITS, 0))

    def _serial(self) -> int:
        serial = self._info.get(_SERIAL)
        if serial is None:
            serial = self._info[_SERIAL] = next(_SERIALS)
        return int(serial)
