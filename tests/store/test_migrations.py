"""Migrations and the start-up schema check (migrations/, bot/store/migrate.py), on both stores.

The migrations are the only way a test database gets its schema (see tests/conftest.py), so the
schema the repositories are tested against is the one users get.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError

from bot.store import (
    GameAlreadyOpen,
    SchemaNotCurrent,
    Store,
    StoreUnavailable,
    create_engine,
    current_revision,
    downgrade,
    head_revision,
    upgrade,
)
from bot.store import migrate as store_migrate
from bot.store.models import metadata

REPO = Path(__file__).resolve().parents[2]
TABLES = {
    "tournaments",
    "games",
    "participants",
    "command_log",
    "channel_settings",
    "corrections",
    "bot_state",
    "channel_reads",
}
NOW = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)


def table_names(url: str) -> set[str]:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return set(inspect(connection).get_table_names())
    finally:
        engine.dispose()


def execute(url: str, statement: str) -> None:
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            connection.execute(text(statement))
    finally:
        engine.dispose()


async def test_upgrade_to_head_and_downgrade_to_base(blank_db_url: str) -> None:
    """Also proves the sync API works from inside a running event loop."""
    upgrade(blank_db_url)
    assert current_revision(blank_db_url) == head_revision()
    assert table_names(blank_db_url) == TABLES | {"alembic_version"}

    downgrade(blank_db_url, "base")
    assert current_revision(blank_db_url) is None
    assert table_names(blank_db_url) == {"alembic_version"}  # Alembic's bookkeeping, now empty

    upgrade(blank_db_url)  # and back: the downgrade left nothing in the way
    assert current_revision(blank_db_url) == head_revision()


def test_the_head_read_from_the_migration_files_is_alembic_s(tmp_path: Path) -> None:
    """The start-up check reads the head from the files without Alembic; Alembic agrees, and where
    the files are not one plain line of revisions (a branch) the head is left to Alembic."""
    store_migrate._scripts.cache_clear()
    assert head_revision() == store_migrate._scripts().get_current_head()
    versions = tmp_path / "versions"
    shutil.copytree(REPO / "migrations" / "versions", versions, ignore=shutil.ignore_patterns("__pycache__"))
    assert store_migrate._single_head(versions) == head_revision()
    # a second revision after the same parent: two heads, which only Alembic may judge
    branch = NEXT_REVISION.replace("{head}", head_revision()).replace('"9999"', '"9998"')
    (versions / "9998_branch.py").write_text(branch, encoding="utf-8")
    (versions / "9999_next.py").write_text(NEXT_REVISION.replace("{head}", head_revision()), encoding="utf-8")
    assert store_migrate._single_head(versions) is None
    (versions / "9998_branch.py").unlink()
    assert store_migrate._single_head(versions) == "9999"


async def test_schema_after_upgrade_matches_the_models(db_url: str) -> None:
    engine = create_engine(db_url)
    try:
        with engine.connect() as connection:
            differences = compare_metadata(
                MigrationContext.configure(connection, opts={"compare_type": True}), metadata
            )
    finally:
        engine.dispose()
    assert differences == []


async def test_a_blank_database_on_open(blank_db_url: str, db_backend: str) -> None:
    """A new SQLite file is migrated on the spot; an empty PostgreSQL database is refused."""
    if db_backend == "sqlite":
        store = await Store.open(blank_db_url)
        await store.close()
        assert current_revision(blank_db_url) == head_revision()
        return
    with pytest.raises(SchemaNotCurrent) as caught:
        await Store.open(blank_db_url)
    message = str(caught.value)
    assert f"croupier migrate --db {blank_db_url}" in message
    assert "no Croupier schema yet" in message
    assert caught.value.current is None
    assert current_revision(blank_db_url) is None  # refusing changed nothing


async def test_a_new_sqlite_file_and_its_folder_are_created_on_open(tmp_path: Path) -> None:
    path = tmp_path / "data" / "croupier.sqlite3"
    async with await Store.open(f"sqlite:///{path}") as store:
        assert await store.run(lambda uow: uow.tournaments.current("c"), read_only=True) is None
    assert path.is_file()
    assert current_revision(f"sqlite:///{path}") == head_revision()


async def test_two_processes_opening_a_new_sqlite_file_together_migrate_it_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'race.sqlite3'}"
    stores = await asyncio.gather(Store.open(url), Store.open(url))
    for store in stores:
        await store.close()
    assert current_revision(url) == head_revision()


async def test_a_database_downgraded_to_base_is_not_new_and_is_refused(blank_db_url: str) -> None:
    upgrade(blank_db_url)
    downgrade(blank_db_url, "base")
    with pytest.raises(SchemaNotCurrent) as caught:
        await Store.open(blank_db_url)
    assert f"croupier migrate --db {blank_db_url}" in str(caught.value)


async def test_a_foreign_sqlite_file_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'other.sqlite3'}"
    execute(url, "CREATE TABLE notes (body TEXT)")
    with pytest.raises(SchemaNotCurrent) as caught:
        await Store.open(url)
    assert "notes" in str(caught.value)
    assert f"croupier migrate --db {url}" in str(caught.value)
    assert table_names(url) == {"notes"}


async def test_a_database_from_a_newer_croupier_is_refused(blank_db_url: str) -> None:
    upgrade(blank_db_url)
    execute(blank_db_url, "UPDATE alembic_version SET version_num = 'ffffffff'")
    with pytest.raises(SchemaNotCurrent) as caught:
        await Store.open(blank_db_url)
    assert "newer Croupier" in str(caught.value)
    assert caught.value.current == "ffffffff"


# --- an older revision, with a second revision that rebuilds a table -------------------------------

NEXT_REVISION = '''
"""Test only: a change SQLite can only make by rebuilding the games table."""
import sqlalchemy as sa
from alembic import op

revision = "9999"
down_revision = "{head}"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("note", sa.String(20), nullable=True))
        batch.alter_column(
            "commitment", type_=sa.String(80), existing_type=sa.String(64), existing_nullable=False
        )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.alter_column(
            "commitment", type_=sa.String(64), existing_type=sa.String(80), existing_nullable=False
        )
        batch.drop_column("note")
'''


@pytest.fixture
def real_head() -> str:
    return head_revision()


@pytest.fixture
def next_revision(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, real_head: str) -> Iterator[str]:
    """The real migrations plus a revision after their head, which becomes the code's head."""
    scripts = tmp_path / "migrations"
    shutil.copytree(REPO / "migrations", scripts, ignore=shutil.ignore_patterns("__pycache__"))
    script = NEXT_REVISION.replace("{head}", real_head)
    (scripts / "versions" / "9999_test_rebuild_games.py").write_text(script, encoding="utf-8")
    monkeypatch.setattr(store_migrate, "MIGRATIONS_DIR", scripts)
    store_migrate._scripts.cache_clear()
    yield "9999"
    store_migrate._scripts.cache_clear()


async def test_an_older_revision_is_refused_then_migrated_without_losing_data(
    blank_db_url: str, next_revision: str, real_head: str
) -> None:
    upgrade(blank_db_url, real_head)
    store = await Store.open(blank_db_url, check=False)
    try:
        with store.transaction() as uow:
            tournament = uow.tournaments.create("g", "chan", "Cup", "sum", NOW)
            first = uow.games.create(tournament.id, "chan", "verflixte6", {}, b"s1", "c1", {}, None, NOW)
            uow.games.save(first.id, 1, {}, 0, None, None, [_Seat("anna")], "closed", NOW)
            uow.games.create(tournament.id, "chan", "verflixte6", {}, b"s2", "c2", {}, None, NOW)
            uow.commit()
    finally:
        await store.close()

    with pytest.raises(SchemaNotCurrent) as caught:
        await Store.open(blank_db_url)
    message = str(caught.value)
    assert real_head in message
    assert next_revision in message
    assert f"croupier migrate --db {blank_db_url}" in message

    upgrade(blank_db_url)  # what `croupier migrate` runs
    assert current_revision(blank_db_url) == next_revision
    async with await Store.open(blank_db_url) as store:
        with store.transaction() as uow:
            closed = uow.games.closed_in(tournament.id)
            # The rebuilt games table did not cascade into participants (foreign keys off while migrating).
            assert [p.player for p in closed[0].participants] == ["anna"]
            # The partial index survived the rebuild: still one open game per channel, closed ones free.
            with pytest.raises(GameAlreadyOpen):
                uow.games.create(tournament.id, "chan", "killer", {}, b"s3", "c3", {}, None, NOW)
        with store.transaction() as uow:
            second = uow.games.open_in("chan")
            assert second is not None
            uow.games.save(second.id, 1, {}, 0, None, None, [], "closed", NOW)
            third = uow.games.create(tournament.id, "chan", "killer", {}, b"s3", "c3", {}, None, NOW)
            assert third.number == 1  # the tournament's first Killer game: each kind counts its own

    downgrade(blank_db_url, real_head)
    assert current_revision(blank_db_url) == real_head


class _Seat:
    def __init__(self, player: str) -> None:
        self.player = player
        self.name = player.title()
        self.role = "stopped"
        self.points = 7


# --- unreachable databases ------------------------------------------------------------------------


async def test_an_unreachable_postgres_is_store_unavailable_with_the_url_masked() -> None:
    url = "postgresql://croupier:hunter2@127.0.0.1:1/croupier"
    with pytest.raises(StoreUnavailable) as caught:
        await Store.open(url)
    message = str(caught.value)
    assert "postgresql://croupier:***@127.0.0.1:1/croupier" in message
    assert "hunter2" not in message
    assert "refused" in message
    assert "server running" in message
    assert "asyncpg" not in message


def test_migrating_an_unreachable_postgres_is_store_unavailable() -> None:
    url = "postgresql://croupier@127.0.0.1:1/croupier"
    with pytest.raises(StoreUnavailable, match=re.escape("127.0.0.1:1")):
        upgrade(url)
    with pytest.raises(StoreUnavailable, match=re.escape("127.0.0.1:1")):
        current_revision(url)


@pytest.mark.postgres
async def test_a_missing_postgres_database_is_store_unavailable(postgres_server: Any) -> None:
    url = postgres_server.url("croupier_no_such_database")
    with pytest.raises(StoreUnavailable) as caught:
        await Store.open(url)
    assert "does not exist" in str(caught.value)
    assert "createdb" in str(caught.value)


def test_the_alembic_command_line_migrates_the_given_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    subprocess.run(
        [sys.executable, "-m", "alembic", "-x", f"db={url}", "upgrade", "head"],
        cwd=REPO,
        check=True,
        capture_output=True,
        timeout=120,
    )
    assert current_revision(url) == head_revision()


# --- 0002: games of any registered kind ------------------------------------------------------------


async def test_0002_lets_a_game_of_a_kind_no_migration_knows_be_stored(blank_db_url: str) -> None:
    """Before 0002 a CHECK listed the three kinds; a new game must not need a migration. The rows are
    written in SQL of revision 0001's own columns: today's repositories know columns it lacks."""
    upgrade(blank_db_url, "0001")
    execute(
        blank_db_url,
        "INSERT INTO tournaments (guild, channel, name, scoring, created_at) "
        "VALUES ('g', 'chan', 'Cup', 'sum', '2026-03-01 20:00:00+00:00')",
    )
    game = (
        "INSERT INTO games (tournament_id, channel, kind, number, options, status, seed, commitment, "
        "dice_used, snapshot, version, opened_at) VALUES (1, 'chan', '{kind}', {number}, '{{}}', 'open', "
        "{seed}, 'c', 0, '{{}}', 1, '2026-03-01 20:00:00+00:00')"
    )
    seed = "X'73'" if blank_db_url.startswith("sqlite") else "'\\x73'::bytea"
    with pytest.raises(IntegrityError):
        execute(blank_db_url, game.format(kind="pig", number=1, seed=seed))
    execute(blank_db_url, game.format(kind="killer", number=1, seed=seed))
    upgrade(blank_db_url)
    async with await Store.open(blank_db_url) as store:
        with store.transaction() as uow:
            kept = uow.games.open_in("chan")
            assert kept is not None
            assert kept.kind == "killer"
            other = uow.tournaments.create("g", "other", "Cup", "sum", NOW)
            pig = uow.games.create(other.id, "other", "pig", {}, b"s", "c", {}, None, NOW)
            assert pig.kind == "pig"


# --- 0004: each kind of game counts its own ---------------------------------------------------------


async def test_0004_numbers_each_kind_of_game_on_its_own(store: Store) -> None:
    """A Killer game between two Durchgänge no longer makes the standings jump from D1 to D3."""
    numbers = []
    with store.transaction() as uow:
        tournament = uow.tournaments.create("g", "chan", "Cup", "sum", NOW)
        for kind in ("verflixte6", "killer", "verflixte6", "killer", "verflixte6"):
            game = uow.games.create(tournament.id, "chan", kind, {}, b"s", "c", {}, None, NOW)
            numbers.append((kind, game.number))
            uow.games.save(game.id, 1, {}, 0, None, None, [], "closed", NOW)
        uow.commit()
    assert numbers == [("verflixte6", 1), ("killer", 1), ("verflixte6", 2), ("killer", 2), ("verflixte6", 3)]


# --- 0007: a finished game's thread closing, step by step ---------------------------------------------


async def test_0007_counts_threads_closed_before_it_as_done(blank_db_url: str) -> None:
    """A thread finished before 0007 was closed in the bot's one try back then: the first start after
    the upgrade must neither close it again nor post its result line twice. A game still open in its
    thread gets its closing recorded from then on."""
    upgrade(blank_db_url, "0006_discord_forum")
    execute(
        blank_db_url,
        "INSERT INTO tournaments (guild, channel, name, scoring, created_at) "
        "VALUES ('g', 'home', 'Cup', 'sum', '2026-03-01 20:00:00+00:00')",
    )
    seed = "X'73'" if blank_db_url.startswith("sqlite") else "'\\x73'::bytea"
    game = (
        "INSERT INTO games (tournament_id, channel, kind, number, options, status, seed, commitment, "
        "dice_used, snapshot, version, opened_at, closed_at, live_message) VALUES (1, '{channel}', "
        "'verflixte6', {number}, '{{}}', '{status}', {seed}, 'c', 0, '{{}}', 1, '2026-03-01 20:00:00+00:00', "
        "{closed_at}, {live})"
    )
    ended = "'2026-03-01 21:00:00+00:00'"
    for number, channel, status, closed_at, live in (
        (1, "thread-1", "closed", ended, "'home:thread-1'"),
        (2, "home", "closed", ended, "NULL"),  # played in place: no thread
        (3, "thread-3", "open", "NULL", "'home:thread-3'"),
    ):
        execute(
            blank_db_url,
            game.format(
                channel=channel, number=number, status=status, seed=seed, closed_at=closed_at, live=live
            ),
        )
    upgrade(blank_db_url)
    async with await Store.open(blank_db_url) as store:
        with store.transaction() as uow:
            assert uow.forum.unclosed(NOW.replace(year=2030)) == ()  # 1 was closed, 2 had no thread
            uow.games.save(3, 1, {}, 0, None, None, [], "closed", NOW.replace(year=2027))
            uow.commit()
        with store.transaction(read_only=True) as uow:
            assert [u.game_id for u in uow.forum.unclosed(NOW.replace(year=2030))] == [3]


# --- 0008: a channel's tournament pages unlisted unless its moderators list them ---------------------


async def test_0008_leaves_every_channel_on_the_web_unlisted(blank_db_url: str) -> None:
    """Before 0008 the start page listed every channel on the web. After it a channel keeps its
    address, and is listed only once a moderator says so."""
    upgrade(blank_db_url, "0007_thread_closing")
    execute(
        blank_db_url,
        "INSERT INTO channel_settings (guild, channel, web_token) VALUES ('g', 'c', 'token-before-0008')",
    )
    upgrade(blank_db_url)
    async with await Store.open(blank_db_url) as store:
        with store.transaction(read_only=True) as uow:
            assert uow.web.channel_of("token-before-0008") is not None  # the address still works
            assert uow.web.listed() == ()
            assert uow.web.is_listed("g", "c") is False
        with store.transaction() as uow:
            uow.web.set_listed("g", "c", True)
            uow.commit()
        with store.transaction(read_only=True) as uow:
            assert [channel.token for channel in uow.web.listed()] == ["token-before-0008"]
    downgrade(blank_db_url, "0007_thread_closing")
    assert current_revision(blank_db_url) == "0007_thread_closing"


# --- 0009: how far each game channel was read, for the catch-up ---------------------------------------


def one_open_game(url: str) -> None:
    """A tournament in channel ``home`` with one open Durchgang (game id 1), as an older schema stores
    it: plain SQL, since the code's own tables are those of the newest revision."""
    execute(
        url,
        "INSERT INTO tournaments (guild, channel, name, scoring, created_at) "
        "VALUES ('g', 'home', 'Cup', 'sum', '2026-03-01 20:00:00+00:00')",
    )
    seed = "X'73'" if url.startswith("sqlite") else "'\\x73'::bytea"
    execute(
        url,
        "INSERT INTO games (tournament_id, channel, kind, number, options, status, seed, commitment, "
        "dice_used, snapshot, version, opened_at) VALUES (1, 'home', 'verflixte6', 1, '{}', 'open', "
        f"{seed}, 'c', 0, '{{}}', 1, '2026-03-01 20:00:00+00:00')",
    )


async def test_0009_keeps_how_far_a_game_channel_was_read_and_goes_back_cleanly(blank_db_url: str) -> None:
    """Games stored before 0009 catch up from their last logged line as before (nothing was noted as
    read yet); from then on a noted read is where a catch-up starts. Going back drops only the table."""
    upgrade(blank_db_url, "0007_thread_closing")
    one_open_game(blank_db_url)
    upgrade(blank_db_url)
    async with await Store.open(blank_db_url) as store:
        with store.transaction() as uow:
            [point] = uow.forum.catch_up_points()
            assert (point.channel, point.after, point.read) == ("home", None, None)
            assert uow.forum.note_reads({("g", "home"): "1200"}, NOW) == 1
            uow.commit()
        with store.transaction(read_only=True) as uow:
            [point] = uow.forum.catch_up_points()
            assert point.read == "1200"
    downgrade(blank_db_url, "0008_web_listing")
    assert "channel_reads" not in table_names(blank_db_url)
    assert "games" in table_names(blank_db_url)


# --- 0010: the log's game index holds only rows of a game -------------------------------------------


def index_definition(url: str, name: str) -> str:
    """The CREATE INDEX statement the database keeps for ``name``, as the database spells it."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            if url.startswith("sqlite"):
                query = text("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = :name")
            else:
                query = text("SELECT indexdef FROM pg_indexes WHERE indexname = :name")
            return str(connection.execute(query, {"name": name}).scalar_one())
    finally:
        engine.dispose()


def game_lookup_uses(url: str, name: str) -> bool:
    """Whether the database looks a game's log entries up through the index ``name``."""
    engine = create_engine(url)
    query = "SELECT id FROM command_log WHERE game_id = 1 ORDER BY id"
    try:
        with engine.connect() as connection:
            if url.startswith("sqlite"):
                plan = connection.execute(text(f"EXPLAIN QUERY PLAN {query}")).all()
                return any(name in str(row[-1]) for row in plan)
            connection.execute(text("SET enable_seqscan = off"))  # a tiny table: else never an index
            plan = connection.execute(text(f"EXPLAIN {query}")).all()
            return any(name in str(row[0]) for row in plan)
    finally:
        engine.dispose()


async def test_0010_indexes_only_log_rows_of_a_game_and_goes_back_cleanly(blank_db_url: str) -> None:
    """Entries logged before 0010, with a game and without, are all still there; a game's entries are
    found through the game index, which leaves out rows of no game; going back restores the full one."""
    upgrade(blank_db_url, "0009_catch_up")
    one_open_game(blank_db_url)
    for message, game in (("m1", "1"), ("m2", "NULL")):
        execute(
            blank_db_url,
            "INSERT INTO command_log (message_id, game_id, channel, actor, text, events, dice, dice_from, "
            f"created_at) VALUES ('{message}', {game}, 'home', 'anna', 'wurf', '[]', '[]', 0, "
            "'2026-03-01 20:00:00+00:00')",
        )
    assert "IS NOT NULL" not in index_definition(blank_db_url, "ix_command_log_game_id")
    upgrade(blank_db_url)
    assert "game_id IS NOT NULL" in index_definition(blank_db_url, "ix_command_log_game_id")
    assert game_lookup_uses(blank_db_url, "ix_command_log_game_id")
    async with await Store.open(blank_db_url) as store:
        with store.transaction(read_only=True) as uow:
            assert [entry.message_id for entry in uow.log.of_game(1)] == ["m1"]
            found = uow.log.find("m2")
            assert found is not None
            assert found.game_id is None
    downgrade(blank_db_url, "0009_catch_up")
    assert "IS NOT NULL" not in index_definition(blank_db_url, "ix_command_log_game_id")
    assert game_lookup_uses(blank_db_url, "ix_command_log_game_id")
