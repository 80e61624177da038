"""What can go wrong in the store, as exceptions the service and the CLI can answer precisely.

Driver exceptions (psycopg, sqlite3, OSError) never leave the store raw: an unreachable database
becomes :class:`StoreUnavailable`, a schema behind the code :class:`SchemaNotCurrent`, and the
constraint violations the service relies on become :class:`DuplicateMessage`, :class:`StaleVersion`
and :class:`GameAlreadyOpen`, and a transaction the server aborted between two writers
:class:`TransactionAborted`.
"""

from __future__ import annotations


class StoreError(Exception):
    """Base of every store failure."""


class BadDatabaseURL(StoreError, ValueError):
    """The database URL names no store this bot can use."""


class StoreUnavailable(StoreError):
    """The database cannot be reached or opened; the message names the URL (password masked) and a hint."""

    def __init__(self, url: str, reason: str, hint: str, *, retryable: bool = False) -> None:
        self.url = url
        self.reason = reason
        self.hint = hint
        # A pooled connection turned out dead (the server restarted): a fresh one may well work.
        self.retryable = retryable
        super().__init__(f"cannot use the database {url}: {reason}. {hint}")


class SchemaNotCurrent(StoreError):
    """The database's schema is not the one this code expects; the message says how to fix it."""

    def __init__(self, url: str, current: str | None, head: str, message: str) -> None:
        self.url = url
        self.current = current
        self.head = head
        super().__init__(message)


class MigrationFailed(StoreError):
    """Migrating the schema failed part-way (the server refused a table, say); nothing of it was kept:
    every revision of one run is one transaction."""

    def __init__(self, url: str, reason: str, hint: str) -> None:
        self.url = url
        self.reason = reason
        self.hint = hint
        super().__init__(f"cannot migrate the database {url}: {reason}. {hint}")


class DuplicateMessage(StoreError):
    """This chat message (or interaction) was already handled: a redelivery, nothing to do again."""

    def __init__(self, message_id: str) -> None:
        self.message_id = message_id
        super().__init__(f"message {message_id} is already in the command log")


class Conflict(StoreError):
    """Another writer changed the same data first; reload and try again."""


class StaleVersion(Conflict):
    """A game was saved from an outdated snapshot (its version moved on since it was loaded)."""

    def __init__(self, game_id: int, expected: int, actual: int | None) -> None:
        self.game_id = game_id
        self.expected = expected
        self.actual = actual
        super().__init__(f"game {game_id} is at version {actual}, not {expected}")


class TransactionAborted(Conflict):
    """The database ended the transaction to break a deadlock or a serialisation failure between two
    writers (PostgreSQL's SQLSTATE 40P01 / 40001): nothing of it was kept, and running it again is the
    remedy the server asks for."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"the database aborted the transaction: {reason}")


class GameAlreadyOpen(Conflict):
    """A channel has at most one open game."""

    def __init__(self, channel: str) -> None:
        self.channel = channel
        super().__init__(f"channel {channel} already has an open game")


class UnknownGame(StoreError, LookupError):
    """No game has this id."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(f"no game with id {game_id}")


class UnknownTournament(StoreError, LookupError):
    """No tournament has this id."""

    def __init__(self, tournament_id: int) -> None:
        self.tournament_id = tournament_id
        super().__init__(f"no tournament with id {tournament_id}")
