"""The unit of work's connection as the repositories see it, and their shared checks."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    Connection,
    Executable,
    exc,
)
from sqlalchemy.engine import URL, CursorResult

from bot.store.db import reachable, translated
from bot.store.repositories.prepared import Driver, Prepared, Ran

if TYPE_CHECKING:
    from bot.store.group import Savepoint


class Transaction:
    """The unit of work's connection as the repositories see it: driver failures come out translated.

    :meth:`execute` goes through SQLAlchemy; :meth:`run` takes the command path's prepared statements
    straight to the driver (see :mod:`bot.store.repositories.prepared`). Every commit — :meth:`commit`,
    or a last write that carries its COMMIT (``run(…, commit=True)``) — first calls ``before_commit``
    (the unit of work's bookkeeping that rides on the transaction) and then ``committed``. A unit of
    work committed together with others (:mod:`bot.store.group`) has a ``savepoint`` for a
    transaction: its commit releases that instead.
    """

    def __init__(
        self,
        connection: Connection,
        url: str | URL,
        *,
        before_commit: Callable[[], None] = lambda: None,
        committed: Callable[[], None] = lambda: None,
        savepoint: Savepoint | None = None,
        begin: str | None = None,
    ) -> None:
        self.connection = connection
        self.url = url
        self.dialect = connection.dialect.name
        # ``begin``: the transaction is the driver's alone, begun here with this BEGIN (see Driver).
        self.alone = begin is not None
        try:  # (here and below: what ``reachable`` does, without its frames on every command's path)
            self._driver = Driver(connection, begin)
        except Exception as error:
            problem = translated(error, url)
            if problem is None:
                raise
            raise problem from error
        self._alone = self.alone and savepoint is None
        self._before_commit = before_commit
        self._committed = committed
        self.savepoint = savepoint

    def execute(self, statement: Executable, parameters: Any = None) -> CursorResult[Any]:
        with reachable(self.url):
            return self.connection.execute(statement, parameters)

    def run(
        self, statement: Prepared, parameters: Mapping[str, Any] | None = None, *, commit: bool = False
    ) -> Ran:
        if self._alone:  # every command's statements: errors translated as ``reachable`` does, no frames
            if commit:
                self._before_commit()
            try:
                ran = self._driver.run(statement, parameters, commit=commit)
            except Exception as error:
                problem = translated(error, self.url)
                if problem is not None:
                    raise problem from error
                raise
            if commit:
                self._committed()
            return ran
        if commit and self.savepoint is not None:
            ran = self.run(statement, parameters)
            self.commit()
            return ran
        if commit:
            self._before_commit()
        with reachable(self.url):
            ran = self._driver.run(statement, parameters, commit=commit)
        if commit:
            self._committed()
        return ran

    def run_many(self, statement: Prepared, parameters: Sequence[Mapping[str, Any]]) -> Ran:
        with reachable(self.url):
            return self._driver.run_many(statement, parameters)

    def commit(self) -> None:
        self._before_commit()
        if self._alone:
            try:
                self._driver.commit()
            except Exception as error:
                problem = translated(error, self.url)
                if problem is None:
                    raise
                raise problem from error
            self._committed()
            return
        with reachable(self.url):
            if self.savepoint is not None:
                self.savepoint.commit()
            elif self.alone:
                self._driver.commit()
            else:
                self.connection.commit()
        self._committed()

    def rollback(self) -> None:
        with reachable(self.url):
            if self.savepoint is not None:
                self.savepoint.rollback()
            elif self.alone:
                self._driver.rollback()
            else:
                self.connection.rollback()

    def end(self, failed: bool) -> None:
        """The unit of work is over: undo what it did not commit (``failed``: quietly, as its own
        error is the one worth seeing)."""
        if not self.alone:
            return
        try:
            self._driver.rollback()
        except Exception as error:
            if not failed:
                problem = translated(error, self.url)
                if problem is None:
                    raise
                raise problem from error
        finally:
            self._driver.end()


def violated(error: exc.IntegrityError, constraint: str, sqlite_columns: str) -> bool:
    """Whether the integrity error is the given constraint (PostgreSQL) / columns (SQLite)."""
    cause = getattr(error.orig, "__cause__", None)
    name = getattr(cause, "constraint_name", None)
    if name is not None:
        return bool(name == constraint)
    message = str(error.orig)
    return constraint in message or f"UNIQUE constraint failed: {sqlite_columns}" in message


def check_instant(name: str, value: datetime | None) -> None:
    if value is not None and (value.tzinfo is None or value.utcoffset() is None):
        raise ValueError(f"{name} must be timezone-aware, got {value.isoformat()}")
