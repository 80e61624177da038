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

A unit of work may name a *scope* (the croupier names the channel it plays in) and so promise that
its writes change nothing another scope's mark vouches for. Its mark then survives the connection's
later commits in other scopes: many channels played in turn on one writer — or committed together in
one group (:mod:`bot.store.group`) — each keep their own mark. A commit without a scope (a
moderator's action, a timeout, a tool) ends every mark, as any other connection's commit does.
"""

from __future__ import annotations

import itertools
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

_SERIALS = itertools.count(1)
_SERIAL = "croupier_mark_serial"  # keys in the DB-API connection's info (kept with it in the pool)
_COMMITS = "croupier_mark_commits"
_SCOPED = "croupier_mark_scoped"  # scope → the number of the connection's last commit in it
_UNSCOPED = "croupier_mark_unscoped"  # the number of its last commit without a scope (or loss)
_FLOOR = "croupier_mark_floor"  # the newest commit of a scope no longer remembered
SCOPES_KEPT = 4096  # scopes whose last commit a connection remembers (older ones count as "just now")


@dataclass(frozen=True)
class Mark:
    connection: int  # a serial number of the DB-API connection (ids of objects are reused)
    data_version: int
    commits: int  # the connection's own commits, this one's included
    scope: Hashable = None  # what the unit of work that took it wrote in (None: anything)


class Marker:
    """The marks of one unit of work's connection (see the module docstring)."""

    def __init__(self, info: dict[Any, Any], dbapi_connection: Any, writing_sqlite: bool) -> None:
        self._info = info
        self._dbapi = dbapi_connection
        self._enabled = writing_sqlite
        self._observed: int | None = None  # data_version read in the current transaction
        self._left: int | None = None  # the data_version its last commit left behind
        self._scope: Hashable = None  # the scope the unit of work named (None: none)

    def unchanged_since(self, mark: Mark | None, scope: Hashable = None) -> bool:
        """Whether the database is, for ``scope``, exactly as it was when ``mark`` was taken (no mark:
        False): nobody else committed since, and this connection committed nothing since in that
        scope or without one. Asked in a writing transaction on SQLite, this also lets the
        transaction's commit leave a mark — a mark of ``scope``, whose commits then spare the marks
        of other scopes."""
        if not self._enabled:
            return False
        self._scope = scope
        if self._observed is None:
            self._observed = int(self._dbapi.execute("PRAGMA data_version").fetchone()[0])
        if mark is None or mark.scope != scope:
            return False
        info = self._info
        if mark.connection != self._serial() or mark.data_version != self._observed:
            return False
        since = mark.commits
        if info.get(_UNSCOPED, 0) > since:
            return False
        scoped: OrderedDict[Hashable, int] | None = info.get(_SCOPED)
        last = scoped.get(scope) if scoped is not None and scope is not None else None
        if last is None:
            last = info.get(_FLOOR, 0) if scope is not None else info.get(_COMMITS, 0)
        return bool(last <= since)

    def committing(self) -> None:
        """Count a commit of the connection (every commit, mark or no mark), just before it is made."""
        info = self._info
        number = info[_COMMITS] = info.get(_COMMITS, 0) + 1
        if self._scope is None:
            info[_UNSCOPED] = number
        else:
            scoped = info.get(_SCOPED)
            if scoped is None:
                scoped = info[_SCOPED] = OrderedDict()
            scoped[self._scope] = number
            scoped.move_to_end(self._scope)
            if len(scoped) > SCOPES_KEPT:
                info[_FLOOR] = scoped.popitem(last=False)[1]
        self._left, self._observed = self._observed, None

    def mark(self) -> Mark | None:
        """The database as the last commit left it — if the transaction it committed read
        :meth:`unchanged_since` first (None otherwise, and always on PostgreSQL)."""
        if self._left is None:
            return None
        return Mark(self._serial(), self._left, self._info.get(_COMMITS, 0), self._scope)

    def _serial(self) -> int:
        serial = self._info.get(_SERIAL)
        if serial is None:
            serial = self._info[_SERIAL] = next(_SERIALS)
        return int(serial)


def forget(info: dict[Any, Any]) -> None:
    """Every mark of the connection whose ``info`` this is stops matching: commits it counted did not
    reach the disk (a group's COMMIT failed, or SQLite rolled its transaction back)."""
    number = info[_COMMITS] = info.get(_COMMITS, 0) + 1
    info[_UNSCOPED] = number
