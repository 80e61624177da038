"""A move writes no index entry it does not need: the log's game index holds only rows of a game.

* ``ix_command_log_game_id`` becomes a partial index over the rows that belong to a game
  (``game_id IS NOT NULL``). A game's entries are found by it as before (``game_id = …`` implies the
  condition on both stores); a refusal, a chat line or a moderator's setting, logged without a game,
  no longer adds an entry to it.

Types are spelled out here rather than imported from the models, so this file never changes.

Revision ID: 0010_lean_log
Revises: 0009_catch_up
Create Date: 2026-12-11
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_lean_log"
down_revision: str | None = "0009_catch_up"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_INDEX = "ix_command_log_game_id"
_OF_A_GAME = "game_id IS NOT NULL"


def upgrade() -> None:
    op.drop_index(_INDEX, table_name="command_log")
    op.create_index(
        _INDEX,
        "command_log",
        ["game_id"],
        sqlite_where=sa.text(_OF_A_GAME),
        postgresql_where=sa.text(_OF_A_GAME),
    )


def downgrade() -> None:
    op.drop_index(_INDEX, table_name="command_log")
    op.create_index(_INDEX, "command_log", ["game_id"])
