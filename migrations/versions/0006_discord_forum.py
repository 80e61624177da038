"""Discord as the forum: delivery of replies, a live table per game thread, thread settings, bot state.

* ``command_log.delivery`` — whether the answer to a logged message still has to reach its channel:
  ``pending`` (written with the move by a front end that tracks delivery), ``delivered`` or
  ``undeliverable`` (the channel is gone); NULL for front ends that answer in place (console,
  replay) and for rows written before this revision. ``delivered_at`` says when it arrived. A
  partial index finds the pending ones at start and after a failed post.
* ``games.live_message`` — where the game's live table is (``"<channel>:<message>"``, the first
  message of its thread), edited after every move; NULL where a game has none (threads off).
* ``games.reminded_at`` — when the player to act was reminded of the turn deadline (once per
  deadline; a move that sets a new deadline clears it).
* ``channel_settings.threads`` — whether a game opened in a text channel gets a thread of its own
  (NULL: inherit, on by default); a forum channel always does.
* ``bot_state`` — small facts the bot keeps between starts (the hash of the slash commands it
  registered, so it syncs only when they changed).

Types are spelled out here rather than imported from the models, so this file never changes.

Revision ID: 0006_discord_forum
Revises: 0005_web
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_discord_forum"
down_revision: str | None = "0005_web"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _instant() -> sa.DateTime:
    return sa.DateTime(timezone=True)


def upgrade() -> None:
    op.add_column("command_log", sa.Column("delivery", sa.String(length=16), nullable=True))
    op.add_column("command_log", sa.Column("delivered_at", _instant(), nullable=True))
    op.create_index(
        op.f("ix_command_log_pending"),
        "command_log",
        ["delivery"],
        unique=False,
        sqlite_where=sa.text("delivery = 'pending'"),
        postgresql_where=sa.text("delivery = 'pending'"),
    )
    op.add_column("games", sa.Column("live_message", sa.String(length=64), nullable=True))
    op.add_column("games", sa.Column("reminded_at", _instant(), nullable=True))
    op.add_column("channel_settings", sa.Column("threads", sa.Boolean(), nullable=True))
    op.create_table(
        "bot_state",
        sa.Column("key", sa.String(length=100), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("updated_at", _instant(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_bot_state")),
    )


def downgrade() -> None:
    op.drop_table("bot_state")
    with op.batch_alter_table("channel_settings") as batch:
        batch.drop_column("threads")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("reminded_at")
        batch.drop_column("live_message")
    op.drop_index(op.f("ix_command_log_pending"), table_name="command_log")
    with op.batch_alter_table("command_log") as batch:
        batch.drop_column("delivered_at")
        batch.drop_column("delivery")
