"""The command path's statements, compiled once and run straight on the driver's cursor.

SQLAlchemy Core stays the source of every statement (and Alembic of the schema); what the hot path
skips is the per-execution machinery around the driver — execution context, parameter
construction, result object — which cost five to ten times the statement itself on SQLite. A
:class:`Prepared` statement is compiled once per dialect into the driver's SQL, the order of its
parameters, its constant parameters and the type processors of its parameters and result columns
(SQLAlchemy's own, so values go in and come out exactly as through SQLAlchemy).

:class:`Driver` runs them on a unit of work's connection and keeps what the store relies on from
SQLAlchemy: the statement joins the connection's transaction (begun as SQLAlchemy would), the
engine's ``before_cursor_execute``/``after_cursor_execute`` listeners still see it, and a driver
error goes through SQLAlchemy's own error handling (wrapped; a lost connection invalidated, and the
pool's other connections with it).
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from functools import partial
from operator import itemgetter
from typing import Any, NamedTuple

from sqlalchemy import Connection, exc
from sqlalchemy.engine import Dialect
from sqlalchemy.sql import ClauseElement, sqltypes

from bot.store.db import DRIVER_BEGUN, commit_in_pipeline, take_pending_begin
from bot.store.types import JSONText

Processor = Callable[[Any], Any]
_GIVEN = object()  # a parameter the caller gives (see Compiled.slots)
_row_type: Any = namedtuple  # rows' field names are the statement's columns, known at run time


@dataclass(frozen=True)
class Compiled:
    """One statement as one dialect's driver takes it."""

    sql: str
    positional: bool
    # Each parameter in the order the SQL takes it: its name, the value the statement fixes itself
    # (a LIMIT, a literal number; else _GIVEN) and the type's conversion on the way in (or None).
    slots: tuple[tuple[str, Any, Processor | None], ...]
    row: type[NamedTuple] | None  # the result rows' type; None for a statement returning none
    results: tuple[tuple[int, Processor], ...]  # result columns whose type converts them on the way out
    # Slots of JSON documents whose conversion is the serializer alone for a dict or a list (see
    # _plain_json): the serializer, called without the type's wrapper around it.
    documents: tuple[tuple[int, Processor], ...] = ()

    # Derived from ``slots``, for arguments(): the caller's values fetched at once in the driver's order
    # (None when the statement fixes some itself), and the slots whose value a type converts.
    _take: Callable[[Mapping[str, Any]], Sequence[Any]] | None = field(init=False, repr=False, compare=False)
    _converts: tuple[tuple[int, Processor], ...] = field(init=False, repr=False, compare=False)
    _documents: tuple[tuple[int, Processor, Processor], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        given = all(fixed is _GIVEN for _, fixed, _ in self.slots)
        object.__setattr__(self, "_take", _getter([name for name, _, _ in self.slots]) if given else None)
        serializers = dict(self.documents)
        converts = tuple(
            (i, process)
            for i, (_, _, process) in enumerate(self.slots)
            if process is not None and i not in serializers
        )
        object.__setattr__(self, "_converts", converts)
        documents = tuple((i, self.slots[i][2], serialize) for i, serialize in self.documents)
        object.__setattr__(self, "_documents", documents)

    def arguments(self, parameters: Mapping[str, Any]) -> Any:
        """The driver's parameters: a list for a positional driver (sqlite3), else a dict (psycopg)."""
        if self._take is not None:
            values = list(self._take(parameters))
        else:
            values = [parameters[name] if fixed is _GIVEN else fixed for name, fixed, _ in self.slots]
        for index, process in self._converts:
            values[index] = process(values[index])
        for index, process, serialize in self._documents:
            value = values[index]
            values[index] = serialize(value) if type(value) in _DOCUMENTS else process(value)
        if self.positional:
            return values
        return dict(zip((slot[0] for slot in self.slots), values, strict=True))

    def rows(self, fetched: Iterable[Sequence[Any]]) -> list[Any]:
        row, results = self.row, self.results
        assert row is not None
        if not results:  # the driver's tuples as rows, made in C (``_make`` less its length check)
            return list(map(partial(tuple.__new__, row), fetched))
        out = []
        for values in fetched:
            converted = list(values)
            for index, process in results:
                converted[index] = process(converted[index])
            out.append(row._make(converted))
        return out


class Prepared:
    """A Core statement and its compiled forms, one per dialect (compiled on first use)."""

    def __init__(self, statement: ClauseElement, *, name: str = "Row") -> None:
        self.statement = statement
        self._name = name
        self._compiled: dict[str, Compiled] = {}

    def for_dialect(self, dialect: Dialect) -> Compiled:
        compiled = self._compiled.get(dialect.name)
        if compiled is None:
            compiled = self._compiled[dialect.name] = self._compile(dialect)
        return compiled

    def _compile(self, dialect: Dialect) -> Compiled:
        compiled: Any = self.statement.compile(dialect=dialect)
        if any(bind.expanding for bind in compiled.binds.values()):
            raise ValueError("a prepared statement cannot expand a parameter (IN with a list)")
        required = {name for name, bind in compiled.binds.items() if bind.required}
        every = compiled.construct_params(dict.fromkeys(required), _check=False)
        positional = bool(dialect.positional)
        names = tuple(compiled.positiontup) if positional else tuple(every)
        slots: list[tuple[str, Any, Processor | None]] = []
        documents: list[tuple[int, Processor]] = []
        for name in names:
            impl = compiled.binds[name].type.dialect_impl(dialect)
            process = impl.bind_processor(dialect)
            if name in required:
                serialize = _plain_json(impl, dialect) if process is not None else None
                if serialize is not None:
                    documents.append((len(slots), serialize))
                slots.append((name, _GIVEN, process))
            else:  # the statement's own constant, converted once
                fixed = every[name]
                slots.append((name, fixed if process is None else process(fixed), None))
        row: Any = None
        results: list[tuple[int, Processor]] = []
        columns = list(getattr(self.statement, "exported_columns", ()))
        if columns:
            row = _row_type(self._name, [column.key for column in columns])
            for index, column in enumerate(columns):
                process = column.type.dialect_impl(dialect).result_processor(dialect, None)
                if process is not None:
                    results.append((index, process))
        return Compiled(compiled.string, positional, tuple(slots), row, tuple(results), tuple(documents))


_DOCUMENTS = frozenset({dict, list})  # what SQLAlchemy's JSON type hands its serializer unchanged


def _plain_json(impl: Any, dialect: Dialect) -> Processor | None:
    """The serializer SQLAlchemy's JSON bind processor (or the store's :class:`JSONText`) calls for a
    dict or a list and returns as it is (no string conversion after it), when that is all the
    processor does for them; else None."""
    if isinstance(impl, JSONText):
        return impl.document_serializer(dialect)
    if not isinstance(impl, sqltypes.JSON):
        return None
    kind = type(impl)
    if (
        kind.bind_processor is not sqltypes.JSON.bind_processor
        or kind._make_bind_processor is not sqltypes.JSON._make_bind_processor
    ):
        return None
    serializer: Processor | None = getattr(dialect, "_json_serializer", None)
    if serializer is None or impl._str_impl.bind_processor(dialect) is not None:
        return None
    return serializer


class Ran(NamedTuple):
    """What a prepared statement gave back: its rows (when it returns any), the rows it touched and,
    on SQLite, the rowid of the row it inserted (an ``INSERT … RETURNING`` costs SQLite more than the
    insert itself). (A named tuple: one is made for every statement of the command path.)"""

    rows: list[Any]
    rowcount: int
    lastrowid: int | None = None

    def first(self) -> Any:
        return self.rows[0] if self.rows else None

    def one(self) -> Any:
        if len(self.rows) != 1:
            raise exc.NoResultFound("no row") if not self.rows else exc.MultipleResultsFound("rows")
        return self.rows[0]

    def scalar(self) -> Any:
        return self.rows[0][0] if self.rows else None


# ``Ran(rows, rowcount, lastrowid)`` without the named tuple's ``__new__``, a Python function.
_ran: Callable[[tuple[list[Any], int, int | None]], Ran] = partial(tuple.__new__, Ran)
_NO_PARAMETERS: Mapping[str, Any] = {}


class Driver:
    """Prepared statements on a unit of work's connection, through its DB-API cursor.

    On PostgreSQL round trips are what a command waits for, so a statement travels with what must go
    before or after it anyway: the transaction's BEGIN (see ``db.take_pending_begin``) and, for the
    last write of a unit of work, its COMMIT — one pipelined round trip instead of two or three.
    """

    def __init__(self, connection: Connection, begin: str | None = None) -> None:
        self.connection = connection
        self.dialect = connection.dialect
        self._dialect_name = self.dialect.name
        self._postgresql = self._dialect_name == "postgresql"
        # ``begin``: SQLite's BEGIN, for a unit of work that nobody listens to (``db.unobserved``): it
        # runs its transaction on the driver alone, SQLAlchemy joining only if one of its own
        # statements (or an error) comes along — see :meth:`begin`.
        self._begin = begin
        if begin is not None:
            pooled = connection.connection
            self._dbapi: Any = pooled.dbapi_connection
            self.begin()
            pooled.info[DRIVER_BEGUN] = True

    @property
    def _error(self) -> type[Exception]:
        """The driver's errors (looked up only when something was raised: ``except self._error``)."""
        error: type[Exception] = self.dialect.loaded_dbapi.Error
        return error

    # --- a transaction on the driver alone (``begin`` given) ---

    def begin(self) -> None:
        """Begin the transaction unless it is open (a unit of work goes on after a commit)."""
        if not self._dbapi.in_transaction:
            self._dbapi.execute(self._begin)  # a driver error, as SQLAlchemy's begin event lets out

    def commit(self) -> None:
        connection = self.connection
        if connection._transaction is not None:  # SQLAlchemy joined: its commit is the transaction's
            connection.commit()
            return
        try:
            self._dbapi.commit()
        except self._error as error:
            self._failed(error, None, None, None)

    def rollback(self) -> None:
        connection = self.connection
        if connection._transaction is not None:
            connection.rollback()
        if connection.invalidated or connection.closed:
            return  # its driver connection is gone, and its transaction with it
        if self._dbapi.in_transaction:
            try:
                self._dbapi.rollback()
            except self._error as error:
                self._failed(error, None, None, None)

    def end(self) -> None:
        """The unit of work is over (its transaction ended)."""
        if not self.connection.invalidated:
            self.connection.info.pop(DRIVER_BEGUN, None)

    def _failed(self, error: Exception, sql: str | None, arguments: Any, cursor: Any) -> None:
        """A driver error handled as SQLAlchemy handles it in its own transaction — which it joins
        first, or it would roll back the driver's ("autorollback" of a connection not in one)."""
        connection = self.connection
        with suppress(Exception):
            if connection._transaction is None and self._dbapi.in_transaction:
                connection.begin()  # the begin event sees DRIVER_BEGUN: no second BEGIN
        connection._handle_dbapi_exception(error, sql, arguments, cursor, None)

    def _execute_alone(self, compiled: Compiled, arguments: Any, many: bool, commit: bool) -> Ran:
        dbapi = self._dbapi
        if not dbapi.in_transaction:
            dbapi.execute(self._begin)
        sql = compiled.sql
        try:  # (the connection's execute: a cursor of its own, made and closed in C)
            cursor = dbapi.executemany(sql, arguments) if many else dbapi.execute(sql, arguments)
            rows = compiled.rows(cursor.fetchall()) if compiled.row is not None else []
            ran = _ran((rows, cursor.rowcount, cursor.lastrowid))
        except self._error as error:
            self._failed(error, sql, arguments, None)
            raise  # not reached: the line above raises
        if commit:
            self.commit()
        return ran

    def run(
        self, prepared: Prepared, parameters: Mapping[str, Any] | None = None, *, commit: bool = False
    ) -> Ran:
        """Execute the statement once; its rows, if it returns any. ``commit``: then commit the
        transaction (the statement must be its last; on failure nothing of it is kept)."""
        compiled = prepared._compiled.get(self._dialect_name) or prepared.for_dialect(self.dialect)
        arguments = compiled.arguments(parameters if parameters is not None else _NO_PARAMETERS)
        if self._begin is not None:
            return self._execute_alone(compiled, arguments, False, commit)
        return self._execute(compiled, arguments, many=False, commit=commit)

    def run_many(self, prepared: Prepared, parameters: Sequence[Mapping[str, Any]]) -> Ran:
        """Execute the statement once per set of parameters (the driver's ``executemany``)."""
        compiled = prepared.for_dialect(self.dialect)
        arguments = [compiled.arguments(one) for one in parameters]
        return self._execute(compiled, arguments, many=True, commit=False)

    def _execute(self, compiled: Compiled, arguments: Any, *, many: bool, commit: bool) -> Ran:
        if self._begin is not None:
            return self._execute_alone(compiled, arguments, many, commit)
        connection = self.connection
        if not connection.in_transaction():
            connection.begin()  # as SQLAlchemy's autobegin: the statement is part of a transaction
        dbapi_connection: Any = connection.connection.dbapi_connection
        cursor = dbapi_connection.cursor()
        sql = compiled.sql
        pipelined = False
        try:
            begin = self._postgresql and take_pending_begin(connection)
            watched = connection.dispatch
            if watched.before_cursor_execute:
                for listener in watched.before_cursor_execute:
                    listener(connection, cursor, sql, arguments, None, many)
            pipelined = begin or (commit and self._postgresql)
            if pipelined:
                try:
                    with dbapi_connection.pipeline():  # all of it sent at once, then waited for once
                        if begin:
                            dbapi_connection.execute("BEGIN")
                        _send(cursor, sql, arguments, many)
                        if commit:
                            with commit_in_pipeline():
                                connection.commit()
                except BaseException:
                    if commit:
                        # The statement failed and the pipeline skipped the COMMIT after it: the server
                        # holds a failed transaction that SQLAlchemy, having queued the commit, thinks
                        # is over.
                        with suppress(Exception):
                            dbapi_connection.rollback()
                    raise
            else:
                _send(cursor, sql, arguments, many)
            if watched.after_cursor_execute:
                for listener in watched.after_cursor_execute:
                    listener(connection, cursor, sql, arguments, None, many)
            rows = compiled.rows(cursor.fetchall()) if compiled.row is not None else []
            ran = _ran((rows, cursor.rowcount, None if self._postgresql else cursor.lastrowid))
            if commit and not pipelined:
                connection.commit()
            return ran
        except self._error as error:
            # SQLAlchemy's own handling of a driver error, as if it had run the statement: the error
            # wrapped (IntegrityError, OperationalError …), and a lost connection invalidated along
            # with the pool's others, so none of them is handed out again.
            connection._handle_dbapi_exception(error, sql, arguments, cursor, None)
            raise  # not reached: the line above raises
        finally:
            cursor.close()


def _getter(names: Sequence[str]) -> Callable[[Mapping[str, Any]], Sequence[Any]]:
    """The values of ``names`` in a mapping, as a sequence (``itemgetter`` gives a lone one bare)."""
    if len(names) == 1:
        name = names[0]
        return lambda parameters: (parameters[name],)
    return itemgetter(*names) if names else lambda _: ()


def _send(cursor: Any, sql: str, arguments: Any, many: bool) -> None:
    if many:
        cursor.executemany(sql, arguments)
    else:
        cursor.execute(sql, arguments)
