"""a player who leaves: the last round they played, and the hands they missed after leaving

Revision ID: 0011_leavers
Revises: 0010_round_write_bodies
Create Date: 2026-11-27 00:10:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0011_leavers"
down_revision = "0010_round_write_bodies"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.add_column(sa.Column("left_after", sa.Integer(), nullable=True))
    with op.batch_alter_table("hands", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("away", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade():
    with op.batch_alter_table("hands", schema=None) as batch_op:
        batch_op.drop_column("away")
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_column("left_after")
