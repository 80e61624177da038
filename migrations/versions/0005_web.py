"""The tournament on the web: a channel's pages are visible while it has a web token.

``channel_settings.web_token`` is the unguessable part of the address (``/t/<token>``) that
``/settings web=on`` hands out; NULL (the default) keeps the channel off the web, and ``web=off``
sets it back to NULL, so the old address stops working. A unique index finds the channel of a token.

Revision ID: 0005_web
Revises: 0004_numbers
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_web"
down_revision: str | None = "0004_numbers"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("channel_settings", sa.Column("web_token", sa.String(length=64), nullable=True))
    op.create_index(
        op.f("ix_channel_settings_web_token"), "channel_settings", ["web_token"], unique=True
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_channel_settings_web_token"), table_name="channel_settings")
    with op.batch_alter_table("channel_settings") as batch:
        batch.drop_column("web_token")
