"""round writes: the client-made key of each round write, so a repeat saves nothing twice

Revision ID: 0006_round_writes
Revises: 0005_game_played_on
Create Date: 2026-11-23 19:00:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0006_round_writes"
down_revision = "0005_game_played_on"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "round_writes",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("round_number", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_round_writes_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "key", name=op.f("pk_round_writes")),
    )
    with op.batch_alter_table("round_writes", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_round_writes_created_at"), ["created_at"], unique=False
        )


def downgrade():
    with op.batch_alter_table("round_writes", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_round_writes_created_at"))
    op.drop_table("round_writes")
