"""an index on ``challenges.record_id`` (issue 24)

Loading a stored combat (replay, verify, a result's buttons) and a league's agreed mark look the record's challenge
up by the record it resolved into (bot/storage/seals.py): without the index every such load scans the challenges.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-26
"""

from __future__ import annotations

from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_challenges_record_id", "challenges", ["record_id"])


def downgrade() -> None:
    op.drop_index("ix_challenges_record_id", table_name="challenges")
