"""dice rolls: generic /roll results kept with their dice

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dice_rolls",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("expression", sa.String(length=200), nullable=False),
        sa.Column("result", sa.Text(), nullable=False),
        sa.Column("total", sa.BigInteger(), nullable=False),
        sa.Column("requested_by", sa.String(length=100), nullable=False),
        sa.Column("guild_id", sa.String(length=100), nullable=True),
        sa.Column("channel_id", sa.String(length=100), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("dice_rolls", schema=None) as batch_op:
        batch_op.create_index("ix_dice_rolls_requested_by_id", ["requested_by", "id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("dice_rolls", schema=None) as batch_op:
        batch_op.drop_index("ix_dice_rolls_requested_by_id")

    op.drop_table("dice_rolls")
