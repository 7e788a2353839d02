"""challenges: combats both players agree to, with dice committed in advance (issue 24)

``challenges`` holds a challenge from its creation to its end: who challenged whom, where, the inputs as read
(``inputs_version`` +1 on every change), the seed drawn at creation (secret until resolved), its salt and
commitment, its status (open, resolved, declined, cancelled, expired), which version each player accepted and when,
when it expires, and the record it resolved into. A combat record resolved from a challenge keeps the commitment,
the salt and what was agreed (``agreed_json``); the report JSON is unchanged (its seed is already in it).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("combat_records", schema=None) as batch_op:
        batch_op.add_column(sa.Column("commitment", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("salt", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("agreed_json", sa.Text(), nullable=True))
    op.create_table(
        "challenges",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("guild_id", sa.String(length=100), nullable=True),
        sa.Column("channel_id", sa.String(length=100), nullable=True),
        sa.Column("message_id", sa.String(length=100), nullable=True),
        sa.Column("challenger_id", sa.String(length=100), nullable=False),
        sa.Column("opponent_id", sa.String(length=100), nullable=True),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("inputs_json", sa.Text(), nullable=False),
        sa.Column("inputs_version", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("salt", sa.String(length=64), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("challenger_ok_version", sa.Integer(), nullable=True),
        sa.Column("challenger_ok_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("opponent_ok_version", sa.Integer(), nullable=True),
        sa.Column("opponent_ok_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("record_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["record_id"], ["combat_records.id"], name="fk_challenges_record_id", ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_challenges_status_expires_at", "challenges", ["status", "expires_at"], unique=False)
    op.create_index("ix_challenges_challenger_id", "challenges", ["challenger_id"], unique=False)
    op.create_index("ix_challenges_opponent_id", "challenges", ["opponent_id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_challenges_opponent_id", table_name="challenges")
    op.drop_index("ix_challenges_challenger_id", table_name="challenges")
    op.drop_index("ix_challenges_status_expires_at", table_name="challenges")
    op.drop_table("challenges")
    with op.batch_alter_table("combat_records", schema=None) as batch_op:
        batch_op.drop_column("agreed_json")
        batch_op.drop_column("salt")
        batch_op.drop_column("commitment")
