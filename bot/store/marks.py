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
from typing import Any, NamedTuple

_SERIALS = itertools.count(1)
_LEDGER = "croupier_mark_ledger"  # the key of a DB-API connection's ledger in its info (kept in the pool)
SCOPES_KEPT = 4096  # scopes whose last commit a connection remembers (older ones count as "just now")


class Mark(NamedTuple):  # (a named tuple: a writer takes one with every commit)
    connection: int  # a serial number of the DB-API connection (ids of objects are reused)
    data_version: int
    commits: int  # the connection's own commits, this one's included
    scope: Hashable = None  # what the unit of work that took it wrote in (None: anything)


class _Ledger:
    """A DB-API connection's own commits, as its marks are checked against them (one object in the
    connection's info instead of a key per count: every writing unit of work reads and updates it)."""

    __slots__ = ("commits", "floor", "scoped", "serial", "unscoped")

    def __init__(self) -> None:
        self.serial = next(_SERIALS)  # the connection's number (ids of objects are reused)
        self.commits = 0  # its commits so far
        self.unscoped = 0  # the number of its last commit without a scope (or loss)
        self.scoped: OrderedDict[Hashable, int] = OrderedDict()  # scope → the number of its last commit
        self.floor = 0  # the newest commit of a scope no longer remembered


def _ledger(info: dict[Any, Any]) -> _Ledger:
    ledger: _Ledger | None = info.get(_LEDGER)
    if ledger is None:
        ledger = info[_LEDGER] = _Ledger()
    return ledger


class Marker:
    """The marks of one unit of work's connection (see the module docstring)."""

    def __init__(self, info: dict[Any, Any], dbapi_connection: Any, writing_sqlite: bool) -> None:
        self._ledger = _ledger(info)
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
        ledger = self._ledger
        if mark.connection != ledger.serial or mark.data_version != self._observed:
            return False
        since = mark.commits
        if ledger.unscoped > since:
            return False
        if scope is None:
            return ledger.commits <= since
        last = ledger.scoped.get(scope)
        return (ledger.floor if last is None else last) <= since

    def committing(self) -> None:
        """Count a commit of the connection (every commit, mark or no mark), just before it is made."""
        ledger = self._ledger
        number = ledger.commits = ledger.commits + 1
        scope = self._scope
        if scope is None:
            ledger.unscoped = number
        else:
            scoped = ledger.scoped
            scoped[scope] = number
            scoped.move_to_end(scope)
            if len(scoped) > SCOPES_KEPT:
                ledger.floor = scoped.popitem(last=False)[1]
        self._left, self._observed = self._observed, None

    def mark(self) -> Mark | None:
        """The database as the last commit left it — if the transaction it committed read
        :meth:`unchanged_since` first (None otherwise, and always on PostgreSQL)."""
        if self._left is None:
            return None
        ledger = self._ledger
        return Mark(ledger.serial, self._left, ledger.commits, self._scope)


def forget(info: dict[Any, Any]) -> None:
    """Every mark of the connection whose ``info`` this is stops matching: commits it counted did not
    reach the disk (a group's COMMIT failed, or SQLite rolled its transaction back)."""
    ledger = _ledger(info)
    ledger.commits += 1
    ledger.unscoped = ledger.commits
