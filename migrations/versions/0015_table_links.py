"""table links: a token per game, a club's switch, and the hands players send (issue 33)

Revision ID: 0015_table_links
Revises: 0014_kept_ratings
Create Date: 2026-11-28 00:00:00

Columns are added (no table rebuilt, so games and clubs keep their AUTOINCREMENT); every game
already stored gets its own random table token.
"""

import secrets

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0015_table_links"
down_revision = "0014_kept_ratings"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("games", sa.Column("table_token", sa.String(length=64), nullable=True))
    connection = op.get_bind()
    games = sa.table("games", sa.column("id", sa.Integer), sa.column("table_token", sa.String))
    for (game_id,) in connection.execute(sa.select(games.c.id)).all():
        connection.execute(
            games.update()
            .where(games.c.id == game_id)
            .values(table_token=secrets.token_urlsafe(16))
        )
    op.create_index("ix_games_table_token", "games", ["table_token"], unique=True)
    op.add_column(
        "clubs",
        sa.Column("table_links", sa.Boolean(), nullable=False, server_default="1"),
    )
    op.create_table(
        "sent_hands",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("round_number", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("pips", sa.Integer(), nullable=False),
        sa.Column("tiles", sa.Text(), nullable=True),
        sa.Column("sent_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "round_number", "seat"),
    )
    op.create_index("ix_sent_hands_game_id", "sent_hands", ["game_id"], unique=False)


def downgrade():
    op.drop_index("ix_sent_hands_game_id", table_name="sent_hands")
    op.drop_table("sent_hands")
    op.drop_column("clubs", "table_links")
    op.drop_index("ix_games_table_token", table_name="games")
    op.drop_column("games", "table_token")
