"""accounts: when each account's email address was confirmed (None: not yet)

Revision ID: 0008_email_verified_at
Revises: 0007_locales
Create Date: 2026-11-25 10:30:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0008_email_verified_at"
down_revision = "0007_locales"
branch_labels = None
depends_on = None


def upgrade():
    # Existing accounts start unconfirmed: nobody ever proved they read that address.
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("email_verified_at", sa.DateTime(), nullable=True))


def downgrade():
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("email_verified_at")
