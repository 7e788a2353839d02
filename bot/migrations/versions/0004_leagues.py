"""leagues: leagues, seasons, players, organisers, matches, audit events, standings snapshots

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leagues",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("guild_id", sa.String(length=100), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("name_key", sa.String(length=100), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("points_win", sa.Integer(), nullable=False),
        sa.Column("points_draw", sa.Integer(), nullable=False),
        sa.Column("points_loss", sa.Integer(), nullable=False),
        sa.Column("confirm_hours", sa.Integer(), nullable=False),
        sa.Column("season", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_by", sa.String(length=100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("guild_id", "name_key", name="uq_leagues_guild_id_name_key"),
    )
    op.create_table(
        "league_events",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("actor", sa.String(length=100), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("before_json", sa.Text(), nullable=True),
        sa.Column("after_json", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["league_id"], ["leagues.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("league_events", schema=None) as batch_op:
        batch_op.create_index("ix_league_events_league_id_id", ["league_id", "id"], unique=False)
        batch_op.create_index("ix_league_events_match_id", ["match_id"], unique=False)

    op.create_table(
        "league_matches",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("season", sa.Integer(), nullable=False),
        sa.Column("reporter_id", sa.String(length=100), nullable=False),
        sa.Column("opponent_id", sa.String(length=100), nullable=False),
        sa.Column("result", sa.String(length=8), nullable=False),
        sa.Column("score", sa.String(length=100), nullable=True),
        sa.Column("combats", sa.String(length=200), nullable=False),
        sa.Column("notes", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("source", sa.String(length=16), nullable=False),
        sa.Column("pair_key", sa.String(length=201), nullable=False),
        sa.Column("created_by", sa.String(length=100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("confirm_by", sa.DateTime(timezone=True), nullable=True),
        sa.Column("decided_by", sa.String(length=100), nullable=True),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["league_id"], ["leagues.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("league_matches", schema=None) as batch_op:
        batch_op.create_index(
            "ix_league_matches_league_id_season_status", ["league_id", "season", "status"], unique=False
        )
        batch_op.create_index("ix_league_matches_status_confirm_by", ["status", "confirm_by"], unique=False)
        batch_op.create_index(
            "uq_league_matches_one_pending_per_pair",
            ["league_id", "pair_key"],
            unique=True,
            sqlite_where=sa.text("status = 'pending'"),
            postgresql_where=sa.text("status = 'pending'"),
        )

    op.create_table(
        "league_organisers",
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.String(length=100), nullable=False),
        sa.Column("added_by", sa.String(length=100), nullable=False),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["league_id"], ["leagues.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("league_id", "user_id"),
    )
    op.create_table(
        "league_players",
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.String(length=100), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("left_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["league_id"], ["leagues.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("league_id", "user_id"),
    )
    op.create_table(
        "league_seasons",
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("started_by", sa.String(length=100), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_by", sa.String(length=100), nullable=True),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["league_id"], ["leagues.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("league_id", "number"),
    )
    op.create_table(
        "league_snapshots",
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("season", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("data_json", sa.Text(), nullable=False),
        sa.Column("computed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["league_id"], ["leagues.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("league_id", "season"),
    )


def downgrade() -> None:
    op.drop_table("league_snapshots")
    op.drop_table("league_seasons")
    op.drop_table("league_players")
    op.drop_table("league_organisers")
    with op.batch_alter_table("league_matches", schema=None) as batch_op:
        batch_op.drop_index(
            "uq_league_matches_one_pending_per_pair",
            sqlite_where=sa.text("status = 'pending'"),
            postgresql_where=sa.text("status = 'pending'"),
        )
        batch_op.drop_index("ix_league_matches_status_confirm_by")
        batch_op.drop_index("ix_league_matches_league_id_season_status")

    op.drop_table("league_matches")
    with op.batch_alter_table("league_events", schema=None) as batch_op:
        batch_op.drop_index("ix_league_events_match_id")
        batch_op.drop_index("ix_league_events_league_id_id")

    op.drop_table("league_events")
    op.drop_table("leagues")
