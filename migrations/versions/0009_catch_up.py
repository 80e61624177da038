"""Where a front end has read each game channel up to, so a restart reads only what came after.

* ``channel_reads`` — per guild and channel, the newest message a front end handled there with
  everything before it handled too (a Discord message id), and when it was noted. A catch-up after a
  restart starts after it (or after the last logged chat line, whichever is newer), not after the last
  move: chatter since that move is not read again, and no line is skipped.

Types are spelled out here rather than imported from the models, so this file never changes.

Revision ID: 0009_catch_up
Revises: 0007_thread_closing
Create Date: 2026-12-10
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009_catch_up"
down_revision: str | None = "0007_thread_closing"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "channel_reads",
        sa.Column("guild", sa.String(length=64), nullable=False),
        sa.Column("channel", sa.String(length=64), nullable=False),
        sa.Column("newest", sa.String(length=64), nullable=False),
        sa.Column("noted_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("guild", "channel", name=op.f("pk_channel_reads")),
    )


def downgrade() -> None:
    op.drop_table("channel_reads")
