"""A finished game's thread closing, kept until it is done (so a 5xx or a stop does not leave it half done).

* ``games.thread_closed_at`` — when the finished game's thread was archived and locked (or archived
  with a note where the bot may not lock it, or found gone); NULL while that is still to do.
* ``games.result_posted_at`` — when the thread's home got the game's result line (or needed none: a
  forum has no message box); NULL while that is still to do.

Both matter only for a closed game with a live table (one played in a thread of its own). Games closed
before this revision count as done: the bot closed their threads in its one try back then, and a start
must not post their result lines again. A partial index finds the closings still to do at start.

Types are spelled out here rather than imported from the models, so this file never changes.

Revision ID: 0007_thread_closing
Revises: 0006_discord_forum
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_thread_closing"
down_revision: str | None = "0006_discord_forum"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UNCLOSED = (
    "status = 'closed' AND live_message IS NOT NULL"
    " AND (thread_closed_at IS NULL OR result_posted_at IS NULL)"
)


def _instant() -> sa.DateTime:
    return sa.DateTime(timezone=True)


def upgrade() -> None:
    op.add_column("games", sa.Column("thread_closed_at", _instant(), nullable=True))
    op.add_column("games", sa.Column("result_posted_at", _instant(), nullable=True))
    op.execute(
        "UPDATE games SET thread_closed_at = closed_at, result_posted_at = closed_at"
        " WHERE status = 'closed' AND live_message IS NOT NULL"
    )
    op.create_index(
        op.f("ix_games_unclosed"),
        "games",
        ["closed_at"],
        unique=False,
        sqlite_where=sa.text(UNCLOSED),
        postgresql_where=sa.text(UNCLOSED),
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_games_unclosed"), table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("result_posted_at")
        batch.drop_column("thread_closed_at")
