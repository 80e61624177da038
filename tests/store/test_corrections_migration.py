"""Migration 0003_corrections on both stores: data written before it survives, and it goes back down."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import inspect, text

from bot.store import create_engine, downgrade, upgrade

REVISION = "0003_corrections"
NOW = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)


def _columns(url: str, table: str) -> set[str]:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            inspector = inspect(connection)
            if table not in inspector.get_table_names():
                return set()
            return {column["name"] for column in inspector.get_columns(table)}
    finally:
        engine.dispose()


def test_0003_adds_corrections_and_voided_by_keeping_the_log(blank_db_url: str) -> None:
    upgrade(blank_db_url, "0002")
    engine = create_engine(blank_db_url)
    try:
        with engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO command_log (message_id, channel, actor, text, events, dice, dice_from,"
                    " created_at) VALUES ('m1', 'chan', 'anna', 'weiter', '[]', '[4]', 0, :now)"
                ),
                {"now": NOW},
            )
    finally:
        engine.dispose()

    upgrade(blank_db_url, REVISION)
    assert "voided_by" in _columns(blank_db_url, "command_log")
    assert {"tournament_id", "kind", "player", "points", "reason", "moderator", "game_id"} <= _columns(
        blank_db_url, "corrections"
    )
    assert {"voided_entry", "created_at", "message_id"} <= _columns(blank_db_url, "corrections")
    engine = create_engine(blank_db_url)
    try:
        with engine.connect() as connection:
            kept = connection.execute(text("SELECT message_id, voided_by FROM command_log")).all()
    finally:
        engine.dispose()
    assert [tuple(row) for row in kept] == [("m1", None)]

    downgrade(blank_db_url, "0002")
    assert _columns(blank_db_url, "corrections") == set()
    assert "voided_by" not in _columns(blank_db_url, "command_log")
    assert "message_id" in _columns(blank_db_url, "command_log")
