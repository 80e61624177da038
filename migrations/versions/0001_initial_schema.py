"""Initial schema: tournaments, games, participants, the command log and channel settings.

Written for both stores: JSON becomes JSONB on PostgreSQL, timestamps carry their zone, and the
"one open game per channel" rule is a partial unique index, which SQLite and PostgreSQL both have.
Types are spelled out here rather than imported from the models, so this file never changes.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _json() -> sa.types.TypeEngine:
    return sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def _instant() -> sa.types.TypeEngine:
    return sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "channel_settings",
        sa.Column("guild", sa.String(length=64), nullable=False),
        sa.Column("channel", sa.String(length=64), nullable=False),
        sa.Column("language", sa.String(length=8), nullable=True),
        sa.Column("moderator_role", sa.String(length=100), nullable=True),
        sa.Column("turn_timeout_seconds", sa.Integer(), nullable=True),
        sa.CheckConstraint("turn_timeout_seconds > 0", name=op.f("ck_channel_settings_turn_timeout_seconds")),
        sa.PrimaryKeyConstraint("guild", "channel", name=op.f("pk_channel_settings")),
    )
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild", sa.String(length=64), nullable=False),
        sa.Column("channel", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("scoring", sa.String(length=16), nullable=False),
        sa.Column("created_at", _instant(), nullable=False),
        sa.CheckConstraint("scoring IN ('sum', 'placement')", name=op.f("ck_tournaments_scoring")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
    )
    op.create_index(op.f("ix_tournaments_channel_id"), "tournaments", ["channel", "id"])
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("channel", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("options", _json(), nullable=False),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("seed", sa.LargeBinary(), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("dice_used", sa.Integer(), nullable=False),
        sa.Column("snapshot", _json(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("to_act", sa.String(length=64), nullable=True),
        sa.Column("turn_deadline", _instant(), nullable=True),
        sa.Column("opened_at", _instant(), nullable=False),
        sa.Column("closed_at", _instant(), nullable=True),
        sa.CheckConstraint("kind IN ('verflixte6', 'killer', 'killer-classic')", name=op.f("ck_games_kind")),
        sa.CheckConstraint("status IN ('open', 'closed')", name=op.f("ck_games_status")),
        sa.CheckConstraint("version >= 1", name=op.f("ck_games_version")),
        sa.CheckConstraint("dice_used >= 0", name=op.f("ck_games_dice_used")),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournaments.id"], name=op.f("fk_games_tournament_id_tournaments")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
        sa.UniqueConstraint("tournament_id", "number", name=op.f("uq_games_tournament_id_number")),
    )
    op.create_index(op.f("ix_games_status_turn_deadline"), "games", ["status", "turn_deadline"])
    op.create_index(
        op.f("uq_games_open_channel"),
        "games",
        ["channel"],
        unique=True,
        sqlite_where=sa.text("status = 'open'"),
        postgresql_where=sa.text("status = 'open'"),
    )
    op.create_table(
        "participants",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=32), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_participants_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "player", name=op.f("pk_participants")),
    )
    op.create_table(
        "command_log",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("message_id", sa.String(length=100), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("channel", sa.String(length=64), nullable=False),
        sa.Column("actor", sa.String(length=64), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("command", _json(), nullable=True),
        sa.Column("events", _json(), nullable=False),
        sa.Column("dice", _json(), nullable=False),
        sa.Column("dice_from", sa.Integer(), nullable=False),
        sa.Column("reply", _json(), nullable=True),
        sa.Column("created_at", _instant(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_command_log_game_id_games")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_command_log")),
        sa.UniqueConstraint("message_id", name=op.f("uq_command_log_message_id")),
    )
    op.create_index(op.f("ix_command_log_game_id"), "command_log", ["game_id"])


def downgrade() -> None:
    # Children first; dropping a table drops its indexes with it.
    op.drop_table("command_log")
    op.drop_table("participants")
    op.drop_table("games")
    op.drop_table("tournaments")
    op.drop_table("channel_settings")
