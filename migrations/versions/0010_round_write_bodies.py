"""round writes: the digest of the round each key was first sent with

Revision ID: 0010_round_write_bodies
Revises: 0009_club_events
Create Date: 2026-11-27 00:20:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0010_round_write_bodies"
down_revision = "0009_club_events"
branch_labels = None
depends_on = None


def upgrade():
    # Null for keys stored before: they answer as repeats, as they did.
    with op.batch_alter_table("round_writes", schema=None) as batch_op:
        batch_op.add_column(sa.Column("body_digest", sa.String(length=64), nullable=True))


def downgrade():
    with op.batch_alter_table("round_writes", schema=None) as batch_op:
        batch_op.drop_column("body_digest")
