"""roster unit names: a roster imported from an army list keeps its units' own names (issue 35)

``@my-list/tactical-squad`` finds a unit by the list's name for it (slugged, a second of the same name
``tactical-squad-2``), beside its position and its first group's name. The names are stored space-separated, one
per unit in the spec's order; rosters saved before (and rosters typed by hand) have none ('').

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rosters", schema=None) as batch_op:
        batch_op.add_column(sa.Column("unit_names", sa.Text(), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("rosters", schema=None) as batch_op:
        batch_op.drop_column("unit_names")
