"""Moderator corrections with an audit trail: the ``corrections`` table and voided log entries.

A correction is an undone move, a points adjustment, a disqualification or a reinstatement; rows are
only ever added. An undo does not delete the move it takes back: the move's command-log entry gets
``voided_by`` (the correction's id) and its dice stay consumed, so the log still re-derives every die.
Types are spelled out here rather than imported from the models, so this file never changes.

Revision ID: 0003_corrections
Revises: 0002
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_corrections"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _instant() -> sa.types.TypeEngine:
    return sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "corrections",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("player", sa.String(length=64), nullable=True),
        sa.Column("player_name", sa.String(length=200), nullable=True),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("moderator", sa.String(length=64), nullable=False),
        sa.Column("moderator_name", sa.String(length=200), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("voided_entry", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True),
        sa.Column("created_at", _instant(), nullable=False),
        sa.Column("message_id", sa.String(length=100), nullable=False),
        sa.CheckConstraint(
            "kind IN ('undo', 'adjust', 'disqualify', 'reinstate')", name=op.f("ck_corrections_kind")
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournaments.id"], name=op.f("fk_corrections_tournament_id_tournaments")
        ),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_corrections_game_id_games")),
        sa.ForeignKeyConstraint(
            ["voided_entry"], ["command_log.id"], name=op.f("fk_corrections_voided_entry_command_log")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_corrections")),
        sa.UniqueConstraint("message_id", name=op.f("uq_corrections_message_id")),
    )
    op.create_index(op.f("ix_corrections_tournament_id_id"), "corrections", ["tournament_id", "id"])
    op.create_index(op.f("ix_corrections_game_id"), "corrections", ["game_id"])
    # A plain column on both stores (SQLite adds it without rebuilding the table).
    op.add_column("command_log", sa.Column("voided_by", sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_table("corrections")  # its indexes go with it; first, as it refers to command_log
    with op.batch_alter_table("command_log") as batch:
        batch.drop_column("voided_by")
