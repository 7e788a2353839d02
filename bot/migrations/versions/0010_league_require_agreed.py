"""leagues that require agreed combats (issue 24): ``leagues.require_agreed``

An organiser's league setting: when true, a match reported (or entered) in the league may list only combats both
players agreed to (records resolved from a challenge, ``combat_records.agreed_json`` not null) and fought between
the match's two players. Every league that exists keeps its old behaviour: false.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("leagues", schema=None) as batch_op:
        batch_op.add_column(sa.Column("require_agreed", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("leagues", schema=None) as batch_op:
        batch_op.drop_column("require_agreed")
