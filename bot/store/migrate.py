"""Alembic, driven from code: the CLI's ``croupier migrate`` and the start-up schema check.

Migrations are the only way a database gets its schema. The bot checks at start-up that the
database is at the newest revision and refuses to run otherwise, naming the command that fixes it;
the one exception is a brand-new SQLite file, which is migrated on the spot so that the embedded
default needs no setup.

The functions are synchronous (Alembic is, and so is the store's engine); those taking a URL may be
called from inside a running event loop: the work then runs on a helper thread.

Alembic is imported only where a database is migrated or refused: importing it costs a start about
0.1 s of CPU, and a start on an up-to-date database needs none of it (see :func:`check_schema`).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from sqlalchemy import Engine, exc, inspect, literal_column, select, table
from sqlalchemy.engine import URL, Connection
from sqlalchemy.sql import Select

from bot.store.db import create_engine, is_sqlite, mask_url, reachable, store_url
from bot.store.errors import MigrationFailed, SchemaNotCurrent

if TYPE_CHECKING:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"
VERSION_TABLE = "alembic_version"

T = TypeVar("T")


def alembic_config(url: str | URL | None = None, connection: Connection | None = None) -> Config:
    """A configuration for ``migrations/``; env.py uses ``connection`` if given, else ``url``."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if url is not None:
        config.attributes["url"] = url
    if connection is not None:
        config.attributes["connection"] = connection
    return config


@cache
def _scripts() -> ScriptDirectory:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config())


def head_revision() -> str:
    """The newest revision in ``migrations/versions``: read from the files' own ``revision`` and
    ``down_revision`` lines when they form one line of revisions, as they do here (Alembic would import
    every file, and itself, to find it); else Alembic's answer, or its error."""
    return _head_of(MIGRATIONS_DIR)


@cache
def _head_of(folder: Path) -> str:
    """Read once per folder: the files do not change while the process runs, and a process may lose
    the right to read them (a worker that drops its privileges, a checkout made unreadable later)."""
    head = _single_head(folder / "versions")
    if head is None:
        head = _scripts().get_current_head()
    if head is None:  # pragma: no cover - the repository always ships a revision
        raise RuntimeError(f"no migration found in {folder}")
    return head


def _single_head(versions: Path) -> str | None:
    """The one revision no other revision names as its ``down_revision``; None when a file does not
    spell them as plain strings, or when there are several heads (a branch) or none."""
    revisions: set[str] = set()
    below: set[str] = set()
    for path in versions.glob("*.py"):
        declared = _declared(path)
        revision, down = declared.get("revision"), declared.get("down_revision")
        if not isinstance(revision, str):
            return None
        revisions.add(revision)
        if isinstance(down, str):
            below.add(down)
        elif isinstance(down, tuple | list) and all(isinstance(name, str) for name in down):
            below.update(down)  # a merge revision
        elif down is not None:
            return None
    heads = revisions - below
    return heads.pop() if len(heads) == 1 else None


def _declared(path: Path) -> dict[str, object]:
    """A migration file's top-level ``revision`` and ``down_revision``; nothing when either is not a
    literal (Alembic, which runs the file, is asked then)."""
    found: dict[str, object] = {}
    for node in ast.parse(path.read_bytes(), str(path)).body:
        if isinstance(node, ast.AnnAssign | ast.Assign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [target.id for target in targets if isinstance(target, ast.Name)]
            if names in (["revision"], ["down_revision"]):
                try:
                    found[names[0]] = ast.literal_eval(node.value)
                except ValueError:
                    return {}
    return found


def migrate_command(url: str | URL) -> str:
    """The command line that brings the database at ``url`` to the newest schema."""
    return f"croupier migrate --db {mask_url(url)}"


def upgrade(url: str | URL, revision: str = "head") -> None:
    """Migrate the database up to ``revision``; raises :class:`StoreUnavailable` if unreachable,
    :class:`SchemaNotCurrent` if a newer Croupier migrated it (an image rolled back), and
    :class:`MigrationFailed` if the database refused a step — each one line for ``croupier migrate``,
    never the driver's traceback with the statement it refused."""

    from alembic import command
    from alembic.util import CommandError

    def work() -> None:
        _refuse_unknown_revision(url)
        try:
            command.upgrade(alembic_config(url), revision)
        except CommandError as error:
            raise MigrationFailed(mask_url(url), _first_line(error), _RETRY) from error
        except exc.DBAPIError as error:
            raise MigrationFailed(mask_url(url), _first_line(error), _hint_for(error)) from error

    _off_loop(work)


_RETRY = "nothing was changed; fix what it says and run croupier migrate again"
# SQLSTATE 42501 (insufficient_privilege): the user may not create or alter tables there.
_PRIVILEGE_HINT = (
    "nothing was changed: the database user may not create tables there; run croupier migrate as the "
    "database's owner, or grant the user CREATE on the schema"
)


def _hint_for(error: exc.DBAPIError) -> str:
    state = str(getattr(error.orig, "sqlstate", None) or "")
    return _PRIVILEGE_HINT if state == "42501" else _RETRY


def _first_line(error: BaseException) -> str:
    """The driver's own first line, without SQLAlchemy's quote of the statement."""
    shown = error.orig if isinstance(error, exc.DBAPIError) and error.orig is not None else error
    text = str(shown).strip()
    return text.splitlines()[0] if text else type(shown).__name__


def _refuse_unknown_revision(url: str | URL) -> None:
    """A database at a revision this Croupier does not know was migrated by a newer one: say so (and
    that the fix is the newer Croupier) rather than let Alembic fail looking for the revision."""
    engine = create_engine(url)
    try:
        with reachable(url), engine.connect() as connection:
            tables = inspect(connection).get_table_names()
            # Read directly: Alembic's own reader would log its set-up lines once more.
            found: Select[str] = select(literal_column("version_num")).select_from(table(VERSION_TABLE))
            current: str | None = connection.execute(found).scalar() if VERSION_TABLE in tables else None
    finally:
        engine.dispose()
    if current is None or _known(current):
        return
    head = head_revision()
    raise SchemaNotCurrent(
        url=mask_url(url), current=current, head=head, message=_refusal(url, current, head, tables)
    )


def _known(revision: str) -> bool:
    from alembic.util import CommandError

    try:
        return _scripts().get_revision(revision) is not None
    except CommandError:
        return False


def downgrade(url: str | URL, revision: str) -> None:
    """Migrate the database down to ``revision`` (``"base"`` drops every table)."""
    from alembic import command

    _off_loop(lambda: command.downgrade(alembic_config(url), revision))


def current_revision(url: str | URL) -> str | None:
    """The database's revision; None when it was never migrated."""

    def read() -> str | None:
        engine = create_engine(url)
        try:
            with reachable(url), engine.connect() as connection:
                return _revision_of(connection)
        finally:
            engine.dispose()

    return _off_loop(read)


def check_schema(engine: Engine, url: str | URL) -> None:
    """Make sure the database behind ``engine`` is at the newest revision.

    A new SQLite file (no tables at all) is migrated here, inside one locked transaction so that two
    processes starting together cannot both try. Anything else that is not at head raises
    :class:`SchemaNotCurrent`; an unreachable database raises :class:`StoreUnavailable`.

    A database at head, every start but the first, is told by one plain query; only the others ask
    Alembic (and import it).
    """
    head = head_revision()
    sqlite = is_sqlite(store_url(url))
    with reachable(url), engine.connect() as connection, connection.begin():
        if _at(connection, head):
            return
        current, tables = _state_of(connection)
        if current == head:
            return
        if sqlite and current is None and not tables:
            from alembic import command

            command.upgrade(alembic_config(url, connection), "head")
            return
    raise SchemaNotCurrent(
        url=mask_url(url), current=current, head=head, message=_refusal(url, current, head, tables)
    )


def _refusal(url: str | URL, current: str | None, head: str, tables: list[str]) -> str:
    shown = mask_url(url)
    fix = migrate_command(url)
    tables = [name for name in tables if name != VERSION_TABLE]  # left behind by `downgrade base`
    if current is None and not tables:
        return f"The database {shown} has no Croupier schema yet. Create it with: {fix}"
    if current is None:
        return (
            f"The database {shown} has tables but no Croupier schema revision "
            f"({', '.join(sorted(tables)[:5])}{' …' if len(tables) > 5 else ''}). "
            f"If it is meant for Croupier, run: {fix}; otherwise point DATABASE_URL elsewhere."
        )
    if not _known(current):
        return (
            f"The database {shown} is at schema revision {current}, which this version of Croupier "
            f"does not know (it expects {head}): a newer Croupier migrated it. Upgrade Croupier."
        )
    return (
        f"The database {shown} is at schema revision {current} but this Croupier needs {head}. "
        f"Migrate it with: {fix}"
    )


def _at(connection: Connection, head: str) -> bool:
    """Whether the version table holds ``head`` and nothing else, read with a plain query."""
    if not inspect(connection).has_table(VERSION_TABLE):
        return False
    found: Select[str] = select(literal_column("version_num")).select_from(table(VERSION_TABLE))
    return list(connection.execute(found).scalars()) == [head]


def _revision_of(connection: Connection) -> str | None:
    from alembic.runtime.migration import MigrationContext

    return MigrationContext.configure(connection).get_current_revision()


revision_of = _revision_of


def _state_of(connection: Connection) -> tuple[str | None, list[str]]:
    return _revision_of(connection), inspect(connection).get_table_names()


def _off_loop(work: Callable[[], T]) -> T:
    """Run blocking Alembic work on a helper thread, whose event loop cannot clash with the caller's
    (there may be one running here, or one a test framework set up for later)."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="croupier-migrate") as pool:
        return pool.submit(work).result()
