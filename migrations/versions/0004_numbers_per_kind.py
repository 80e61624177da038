"""Each game counts its own: a tournament's Durchgänge are numbered 1, 2, 3 … and its Killer games too.

Until now one count ran over every game of a tournament, so a Killer game between two Durchgänge made
the standings jump from D1 to D3. Stored games keep their numbers; new ones follow the largest number
of their kind in the tournament.

Revision ID: 0004_numbers
Revises: 0003_corrections
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0004_numbers"
down_revision: str | None = "0003_corrections"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_constraint(op.f("uq_games_tournament_id_number"), type_="unique")
        batch.create_unique_constraint(op.f("uq_games_tournament_id_kind_number"), ["tournament_id", "kind", "number"])


def downgrade() -> None:
    # Only possible while no two games of one tournament share a number.
    with op.batch_alter_table("games") as batch:
        batch.drop_constraint(op.f("uq_games_tournament_id_kind_number"), type_="unique")
        batch.create_unique_constraint(op.f("uq_games_tournament_id_number"), ["tournament_id", "number"])
