"""Alembic environment for both stores (synchronous SQLAlchemy, like the store itself).

Two ways in:
* from code (``bot.store.migrate``): a live connection may be handed over in
  ``config.attributes["connection"]`` (the start-up check migrates a new SQLite file inside its own
  locked transaction), or a URL in ``config.attributes["url"]``;
* from the command line (``alembic upgrade head``): the URL comes from ``-x db=…``, else
  ``sqlalchemy.url`` in alembic.ini, else DATABASE_URL (environment or .env).
"""

from __future__ import annotations

from logging.config import fileConfig

from alembic import context
from sqlalchemy.engine import URL, Connection

from bot.settings import get_settings
from bot.store.db import create_engine, reachable, store_url
from bot.store.models import metadata

config = context.config
if config.config_file_name is not None and "connection" not in config.attributes:
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = metadata


def database_url() -> str | URL:
    """-x db=…, else alembic.ini's sqlalchemy.url, else DATABASE_URL."""
    given = config.attributes.get("url") or context.get_x_argument(as_dictionary=True).get("db")
    if not given:
        given = config.get_main_option("sqlalchemy.url") or None
    return given or get_settings().database_url.get_secret_value()


def configure(connection: Connection | None = None, url: str | URL | None = None) -> None:
    """Online with a connection, or offline (``--sql``) with just a URL."""
    target = store_url(url) if url is not None else None
    if connection is not None:
        sqlite = connection.dialect.name == "sqlite"
    else:
        sqlite = target is not None and target.get_backend_name() == "sqlite"
    context.configure(
        connection=connection,
        url=target,
        target_metadata=target_metadata,
        compare_type=True,
        render_as_batch=sqlite,  # SQLite alters tables by copying them
        transactional_ddl=True,  # our SQLite connections emit BEGIN themselves, so DDL is atomic there too
        literal_binds=connection is None,
        dialect_opts={"paramstyle": "named"} if connection is None else {},
    )


def run_migrations(connection: Connection) -> None:
    configure(connection)
    with context.begin_transaction():
        context.run_migrations()


def run_url_migrations(url: str | URL) -> None:
    # Foreign keys off: a batch migration rebuilds a table and must not cascade into its children.
    engine = create_engine(url, foreign_keys=False)
    try:
        with reachable(url), engine.connect() as connection:
            run_migrations(connection)
            connection.commit()
    finally:
        engine.dispose()


def run_offline() -> None:
    configure(url=database_url())
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        run_migrations(connection)
    else:
        run_url_migrations(database_url())


if context.is_offline_mode():
    run_offline()
else:
    run_online()
