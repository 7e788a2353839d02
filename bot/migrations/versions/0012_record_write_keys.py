"""record write keys: each combat result carries a unique key made before its first write (issue 34)

A PostgreSQL restart can drop a connection after an insert committed but before its acknowledgement came back. The
bot keeps such a result and tries again; the key (unique, made in Python before the first attempt) lets the retry
find the row already written instead of storing the result twice. Records stored before have none (NULL, which a
unique constraint allows any number of on both backends).

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("combat_records", schema=None) as batch_op:
        batch_op.add_column(sa.Column("write_key", sa.String(length=32), nullable=True))
        batch_op.create_unique_constraint("uq_combat_records_write_key", ["write_key"])


def downgrade() -> None:
    with op.batch_alter_table("combat_records", schema=None) as batch_op:
        batch_op.drop_constraint("uq_combat_records_write_key", type_="unique")
        batch_op.drop_column("write_key")
