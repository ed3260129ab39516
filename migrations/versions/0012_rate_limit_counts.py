"""rate-limit counters in the database: every process and app server counts together

Revision ID: 0012_rate_limit_counts
Revises: 0011_leavers
Create Date: 2026-11-27 00:20:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0012_rate_limit_counts"
down_revision = "0011_leavers"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "rate_limit_counts",
        sa.Column("name", sa.String(length=600), nullable=False),
        sa.Column("hits", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_rate_limit_counts")),
    )
    with op.batch_alter_table("rate_limit_counts", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_rate_limit_counts_expires_at"), ["expires_at"], unique=False
        )


def downgrade():
    with op.batch_alter_table("rate_limit_counts", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_rate_limit_counts_expires_at"))
    op.drop_table("rate_limit_counts")
