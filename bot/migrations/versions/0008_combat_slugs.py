"""combat slugs: every combat record gets a random, unguessable slug for its web page

A combat's web page is reached by ``/c/{slug}`` only, never by its sequential id, so pages cannot be enumerated.
New records get their slug in Python before the insert (bot/storage/records.py ``new_slug``: 128 random bits);
the records already stored get one each here, just as random.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("combat_records", schema=None) as batch_op:
        batch_op.add_column(sa.Column("slug", sa.String(length=32), nullable=True))
    connection = op.get_bind()
    records = sa.table("combat_records", sa.column("id", sa.Integer()), sa.column("slug", sa.String(32)))
    ids = [row[0] for row in connection.execute(sa.select(records.c.id).where(records.c.slug.is_(None)))]
    for start in range(0, len(ids), 1000):
        connection.execute(
            records.update().where(records.c.id == sa.bindparam("record_id")).values(slug=sa.bindparam("new_slug")),
            [{"record_id": i, "new_slug": secrets.token_urlsafe(16)} for i in ids[start : start + 1000]],
        )
    with op.batch_alter_table("combat_records", schema=None) as batch_op:
        batch_op.alter_column("slug", existing_type=sa.String(length=32), nullable=False)
        batch_op.create_unique_constraint("uq_combat_records_slug", ["slug"])


def downgrade() -> None:
    with op.batch_alter_table("combat_records", schema=None) as batch_op:
        batch_op.drop_constraint("uq_combat_records_slug", type_="unique")
        batch_op.drop_column("slug")
