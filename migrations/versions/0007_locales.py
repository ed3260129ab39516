"""locales: an account's language and a club's default language for its public and print pages

Revision ID: 0007_locales
Revises: 0006_round_writes
Create Date: 2026-11-25 10:00:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0007_locales"
down_revision = "0006_round_writes"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("locale", sa.String(length=8), nullable=True))
    with op.batch_alter_table("clubs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("locale", sa.String(length=8), nullable=True))


def downgrade():
    with op.batch_alter_table("clubs", schema=None) as batch_op:
        batch_op.drop_column("locale")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("locale")
