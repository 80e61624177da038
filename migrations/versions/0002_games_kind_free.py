"""Games of any registered kind: drop the CHECK that listed the kinds.

Which games exist is now what the ``croupier.games`` entry points register, so a new game must not
need a migration; the service checks a kind against the registry instead.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_constraint(op.f("ck_games_kind"), type_="check")


def downgrade() -> None:
    # Only possible while every stored game is one of the three kinds the first schema knew.
    with op.batch_alter_table("games") as batch:
        batch.create_check_constraint(
            op.f("ck_games_kind"), "kind IN ('verflixte6', 'killer', 'killer-classic')"
        )
