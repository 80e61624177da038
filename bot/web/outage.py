"""Which failures of a page mean "the database cannot be used now" (a 503 page), and how to log one
without the page's secret.

The store turns failures to connect into :class:`~bot.store.StoreUnavailable`; an error that a
statement inside a unit of work raises reaches the pages as the driver said it. Some of those mean
the same for a reader — the database cannot serve pages right now, try again later — and get the
same 503 page: a damaged SQLite file ("database disk image is malformed"), an empty file where the
database was (its tables gone), a server that went away or lost its data mid-statement. Anything else
is a 500 page; both are logged with the error's first line only: SQLAlchemy's messages quote the
statement's parameters, and a page's parameters include the channel's secret token.
"""

from __future__ import annotations

import sqlite3
import traceback

from sqlalchemy import exc

from bot.store import SchemaNotCurrent, StoreUnavailable
from bot.store.db import unavailable

# Words of SQLite errors that mean the file cannot serve pages, with a hint for the operator.
SQLITE_OUTAGES = (
    ("database disk image is malformed", "the database file is damaged; restore it from a backup"),
    ("no such table", "the database file has no tables: was it removed or replaced? run `croupier migrate`"),
    ("no such column", "the database's schema is not this croupier's: run `croupier migrate`"),
    ("database or disk is full", "the disk holding the database is full"),
)
# PostgreSQL's SQLSTATEs for the same: a missing table, data or index corrupted, an I/O error, a
# server out of disk or memory.
POSTGRES_OUTAGES = {
    "42P01": "the database has no tables: run `croupier migrate`",
    "42703": "the database's schema is not this croupier's: run `croupier migrate`",
    "XX001": "the server reports damaged data; restore from a backup",
    "XX002": "the server reports a damaged index; reindex it",
    "58030": "the server cannot read or write its files",
    "53100": "the server's disk is full",
    "53200": "the server is out of memory",
}


def outage(error: BaseException, url: str) -> StoreUnavailable | SchemaNotCurrent | None:
    """The outage ``error`` means, or None when it is not one (a fault of the page: a 500)."""
    if isinstance(error, StoreUnavailable | SchemaNotCurrent):
        return error
    translated = unavailable(error, url)
    if translated is not None:
        return translated
    orig: BaseException | None = error.orig if isinstance(error, exc.DBAPIError) else error
    if orig is None:
        return None
    if isinstance(orig, sqlite3.Error):
        lowered = str(orig).lower()
        for words, hint in SQLITE_OUTAGES:
            if words in lowered:
                return StoreUnavailable(url, first_line(orig), hint)
        return None
    state = str(getattr(orig, "sqlstate", "") or "")
    if isinstance(error, exc.DBAPIError) and state in POSTGRES_OUTAGES:
        return StoreUnavailable(url, first_line(orig), POSTGRES_OUTAGES[state])
    return None


def first_line(error: BaseException) -> str:
    """The driver's own words, without SQLAlchemy's quote of the statement and its parameters."""
    shown = error.orig if isinstance(error, exc.DBAPIError) and error.orig is not None else error
    text = str(shown).strip()
    return text.splitlines()[0] if text else type(shown).__name__


def described(error: BaseException) -> str:
    """An unexpected error for the log: its kind, a database driver's first line, and where it
    happened — the frames only, never the values they held nor the error's own message (either may
    carry the page's token)."""
    frames = "".join(traceback.format_tb(error.__traceback__))
    said = f": {first_line(error)}" if isinstance(error, exc.DBAPIError | sqlite3.Error) else ""
    return f"{type(error).__name__}{said}\n{frames}".rstrip()
