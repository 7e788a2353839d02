"""server settings: house rules, visibility, result and league channels, personal preferences, and their audit

Settings are rows (scope, the id it belongs to, its server, key, JSON value), unique per scope, id and key; every
change is appended to settings_changes (who, when, before, after), whose highest id tells a bot process that
something changed. A combat record says which of its options came from house rules (a JSON list of names).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("combat_records", schema=None) as batch_op:
        batch_op.add_column(sa.Column("house_rules", sa.Text(), nullable=True))
    op.create_table(
        "settings",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("scope", sa.String(length=16), nullable=False),
        sa.Column("scope_id", sa.String(length=100), nullable=False),
        sa.Column("guild_id", sa.String(length=100), nullable=True),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("value_json", sa.Text(), nullable=False),
        sa.Column("updated_by", sa.String(length=100), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("scope", "scope_id", "key", name="uq_settings_scope_scope_id_key"),
    )
    op.create_index("ix_settings_guild_id", "settings", ["guild_id"], unique=False)
    op.create_table(
        "settings_changes",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("scope", sa.String(length=16), nullable=False),
        sa.Column("scope_id", sa.String(length=100), nullable=False),
        sa.Column("guild_id", sa.String(length=100), nullable=True),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("before_json", sa.Text(), nullable=True),
        sa.Column("after_json", sa.Text(), nullable=True),
        sa.Column("actor", sa.String(length=100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sqlite_autoincrement=True,  # ids never reused after a deletion: the caches' version stays below new ones
    )
    op.create_index("ix_settings_changes_guild_id_id", "settings_changes", ["guild_id", "id"], unique=False)
    op.create_index("ix_settings_changes_scope_id", "settings_changes", ["scope_id"], unique=False)
    op.create_index("ix_settings_changes_actor", "settings_changes", ["actor"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_settings_changes_actor", table_name="settings_changes")
    op.drop_index("ix_settings_changes_scope_id", table_name="settings_changes")
    op.drop_index("ix_settings_changes_guild_id_id", table_name="settings_changes")
    op.drop_table("settings_changes")
    op.drop_index("ix_settings_guild_id", table_name="settings")
    op.drop_table("settings")
    with op.batch_alter_table("combat_records", schema=None) as batch_op:
        batch_op.drop_column("house_rules")
