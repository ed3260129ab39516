"""club history: who deleted a season or a club night, and when

Revision ID: 0009_club_events
Revises: 0008_email_verified_at
Create Date: 2026-11-25 11:00:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0009_club_events"
down_revision = "0008_email_verified_at"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "club_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("user_name", sa.String(length=80), nullable=False),
        sa.Column("action", sa.String(length=30), nullable=False),
        sa.Column("detail", sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(
            ["club_id"], ["clubs.id"], name=op.f("fk_club_events_club_id_clubs"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_club_events_user_id_users"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_club_events")),
    )
    with op.batch_alter_table("club_events", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_club_events_club_id"), ["club_id"], unique=False)


def downgrade():
    with op.batch_alter_table("club_events", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_club_events_club_id"))
    op.drop_table("club_events")
