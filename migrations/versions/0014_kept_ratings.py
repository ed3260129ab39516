"""kept ratings: each club's ratings as last replayed, named by the ratings mark they were made at

Revision ID: 0014_kept_ratings
Revises: 0013_ids_never_reused
Create Date: 2026-11-27 23:30:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0014_kept_ratings"
down_revision = "0013_ids_never_reused"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "kept_ratings",
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("mark", sa.String(length=200), nullable=False),
        sa.Column("lines", sa.Text(), nullable=False),
        sa.Column("replay", sa.Text(), nullable=False),
        sa.Column("computed_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["club_id"],
            ["clubs.id"],
            name=op.f("fk_kept_ratings_club_id_clubs"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("club_id", name=op.f("pk_kept_ratings")),
    )


def downgrade():
    op.drop_table("kept_ratings")
