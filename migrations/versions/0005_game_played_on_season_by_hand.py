"""games: the day (and, if entered live, the moment) a game was played; seasons moved by hand;
missed rounds no longer stored as zero rounds

Revision ID: 0005_game_played_on
Revises: 0004_user_sessions
Create Date: 2026-11-23 19:00:00

Existing games: a club night's tables are dated by the night (the moment kept only when the
night was entered on its own day), other games by the day they were created. A game whose
season is not the one its date gives (latest start, then latest id) was moved by hand. Stored
zero rounds stop counting a late arrival's missed rounds scored 0 (RULES.md section 10).
"""

import sqlalchemy as sa
from alembic import op

revision = "0005_game_played_on"
down_revision = "0004_user_sessions"
branch_labels = None
depends_on = None

games = sa.table(
    "games",
    sa.column("id", sa.Integer),
    sa.column("club_id", sa.Integer),
    sa.column("created_at", sa.DateTime),
    sa.column("played_on", sa.Date),
    sa.column("played_at", sa.DateTime),
    sa.column("season_id", sa.Integer),
    sa.column("season_by_hand", sa.Boolean),
    sa.column("club_night_id", sa.Integer),
)
nights = sa.table("club_nights", sa.column("id", sa.Integer), sa.column("played_on", sa.Date))
seasons = sa.table(
    "seasons",
    sa.column("id", sa.Integer),
    sa.column("club_id", sa.Integer),
    sa.column("starts_on", sa.Date),
    sa.column("ends_on", sa.Date),
)


def upgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("played_on", sa.Date(), nullable=True))
        batch_op.add_column(sa.Column("played_at", sa.DateTime(), nullable=True))
        batch_op.add_column(
            sa.Column("season_by_hand", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    bind = op.get_bind()
    night_day = {row.id: row.played_on for row in bind.execute(sa.select(nights))}
    by_club: dict = {}
    for row in bind.execute(sa.select(seasons)):
        by_club.setdefault(row.club_id, []).append(row)
    for row in bind.execute(sa.select(games)).all():
        day = night_day.get(row.club_night_id) or row.created_at.date()
        live = row.created_at.date() == day
        covering = [
            (s.starts_on, s.id)
            for s in by_club.get(row.club_id, [])
            if s.starts_on <= day <= s.ends_on
        ]
        by_date = max(covering)[1] if covering else None
        bind.execute(
            sa.update(games)
            .where(games.c.id == row.id)
            .values(
                played_on=day,
                played_at=row.created_at if live else None,
                season_by_hand=row.season_id is not None and row.season_id != by_date,
            )
        )
    # RULES.md section 10: a missed round is never a zero round.
    op.execute(
        """
        UPDATE players SET zero_rounds = zero_rounds - (
            SELECT COUNT(*) FROM hands JOIN rounds ON rounds.id = hands.round_id
            WHERE rounds.game_id = players.game_id AND hands.seat = players.seat
              AND hands.late AND hands.score = 0
        )
        WHERE zero_rounds IS NOT NULL
        """
    )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.alter_column("played_on", existing_type=sa.Date(), nullable=False)
        batch_op.create_index(batch_op.f("ix_games_played_on"), ["played_on"], unique=False)


def downgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_games_played_on"))
        batch_op.drop_column("season_by_hand")
        batch_op.drop_column("played_at")
        batch_op.drop_column("played_on")
