"""private combats: whether a combat was resolved privately, so only its two players ever see it again

Records from before this revision were never marked, and some of them were private: their visibility is unknown,
so they all become private (their requester and named opponent still see them; docs/privacy.md says so). The
column's default stays private, so a row written without saying is never shown to a whole server by mistake.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("combat_records", schema=None) as batch_op:
        batch_op.add_column(sa.Column("private", sa.Boolean(), server_default=sa.true(), nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("combat_records", schema=None) as batch_op:
        batch_op.drop_column("private")
