"""continuing combats: a record may continue an earlier one

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("combat_records", schema=None) as batch_op:
        batch_op.add_column(sa.Column("continues_id", sa.Integer(), nullable=True))
        batch_op.create_unique_constraint("uq_combat_records_continues_id", ["continues_id"])
        batch_op.create_foreign_key(
            "fk_combat_records_continues_id", "combat_records", ["continues_id"], ["id"], ondelete="SET NULL"
        )


def downgrade() -> None:
    with op.batch_alter_table("combat_records", schema=None) as batch_op:
        batch_op.drop_constraint("fk_combat_records_continues_id", type_="foreignkey")
        batch_op.drop_constraint("uq_combat_records_continues_id", type_="unique")
        batch_op.drop_column("continues_id")
