"""league messages and names: where a match was reported, when its opponent was reminded, and players' names

A pending match remembers the channel and message of its report, so that the automatic confirmation edits that
message (its status, its buttons removed), and when its opponent was reminded that it will confirm itself (set
before the reminder is sent: at most one reminder, across restarts too). Matches reported before this revision
have neither: they are confirmed as before, and their reminder goes by direct message.

Players' display names per server are cached, to label the rating chart and the CSV export (ids kept beside).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("league_matches", schema=None) as batch_op:
        batch_op.add_column(sa.Column("channel_id", sa.String(length=100), nullable=True))
        batch_op.add_column(sa.Column("message_id", sa.String(length=100), nullable=True))
        batch_op.add_column(sa.Column("reminded_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "display_names",
        sa.Column("guild_id", sa.String(length=100), nullable=False),
        sa.Column("user_id", sa.String(length=100), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("fetched_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "user_id"),
    )
    op.create_index("ix_display_names_user_id", "display_names", ["user_id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_display_names_user_id", table_name="display_names")
    op.drop_table("display_names")
    with op.batch_alter_table("league_matches", schema=None) as batch_op:
        batch_op.drop_column("reminded_at")
        batch_op.drop_column("message_id")
        batch_op.drop_column("channel_id")
