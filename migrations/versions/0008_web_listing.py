"""A channel's tournament pages are unlisted unless its moderators list them.

``channel_settings.web_listed``: whether the site's start page (``/``) lists the channel's tournaments.
NULL — every row this revision finds included — means unlisted: the pages stay reachable by their
unguessable address, and only whoever has it finds them. ``/settings listed=on`` sets it.

Channels already on the web were listed on the start page before this revision; they are unlisted
from now on, as the start page would otherwise hand every address to anyone who opens the site.

Revision ID: 0008_web_listing
Revises: 0007_thread_closing
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008_web_listing"
down_revision: str | None = "0007_thread_closing"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("channel_settings", sa.Column("web_listed", sa.Boolean(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("channel_settings") as batch:
        batch.drop_column("web_listed")
