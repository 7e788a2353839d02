"""combat records, their events, and rosters

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "combat_records",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("attacker_spec", sa.Text(), nullable=False),
        sa.Column("defender_spec", sa.Text(), nullable=False),
        sa.Column("options_json", sa.Text(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("engine_version", sa.String(length=32), nullable=False),
        sa.Column("report_json", sa.Text(), nullable=False),
        sa.Column("outcome", sa.String(length=32), nullable=False),
        sa.Column("winner", sa.String(length=16), nullable=False),
        sa.Column("requested_by", sa.String(length=100), nullable=False),
        sa.Column("opponent", sa.String(length=100), nullable=True),
        sa.Column("guild_id", sa.String(length=100), nullable=True),
        sa.Column("channel_id", sa.String(length=100), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("combat_records", schema=None) as batch_op:
        batch_op.create_index("ix_combat_records_game_id", ["game", "id"], unique=False)
        batch_op.create_index("ix_combat_records_guild_id_id", ["guild_id", "id"], unique=False)
        batch_op.create_index("ix_combat_records_requested_by_id", ["requested_by", "id"], unique=False)

    op.create_table(
        "rosters",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("owner", sa.String(length=100), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("spec", sa.Text(), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("guild_id", sa.String(length=100), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("owner", "game", "name", name="uq_rosters_owner_game_name"),
    )
    with op.batch_alter_table("rosters", schema=None) as batch_op:
        batch_op.create_index("ix_rosters_guild_id_game", ["guild_id", "game"], unique=False)

    op.create_table(
        "record_events",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("record_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("actor", sa.String(length=100), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["record_id"], ["combat_records.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("record_events", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_record_events_record_id"), ["record_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("record_events", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_record_events_record_id"))

    op.drop_table("record_events")
    with op.batch_alter_table("rosters", schema=None) as batch_op:
        batch_op.drop_index("ix_rosters_guild_id_game")

    op.drop_table("rosters")
    with op.batch_alter_table("combat_records", schema=None) as batch_op:
        batch_op.drop_index("ix_combat_records_requested_by_id")
        batch_op.drop_index("ix_combat_records_guild_id_id")
        batch_op.drop_index("ix_combat_records_game_id")

    op.drop_table("combat_records")
