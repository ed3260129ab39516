"""ids never reused: SQLite tables whose ids are named by links, caches or exports AUTOINCREMENT

Revision ID: 0013_ids_never_reused
Revises: 0012_rate_limit_counts
Create Date: 2026-11-27 23:30:00

Without AUTOINCREMENT, SQLite gives a new row the largest id in use plus one: deleting the
newest game (a club night started with the wrong people) handed its id to the next game, and
what was kept under the old game's id (a page's parts, a browser's ETag, a link) named the new
one. Each table listed is rebuilt (SQLite cannot add AUTOINCREMENT to a table), its rows, ids,
indexes and constraints as they were; from then on an id is handed out once. The rows not named
from outside (seats, rounds, hands, penalties, history lines, memberships, a device's games,
sessions, sign-in attempts, the club's history) keep SQLite's ordinary rowids.

An id freed before this upgrade (a newest row deleted) may still be handed out once: caches
are told games apart by more than their id anyway (models.game_key). PostgreSQL's sequences
never hand out a number twice: nothing to do there.
"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "0013_ids_never_reused"
down_revision = "0012_rate_limit_counts"
branch_labels = None
depends_on = None

# The tables whose models declare sqlite_autoincrement (tests/test_migrations.py checks both).
TABLES = (
    "users",
    "api_tokens",
    "clubs",
    "invites",
    "roster_players",
    "seasons",
    "club_nights",
    "games",
)


def upgrade():
    if op.get_bind().dialect.name != "sqlite":
        return
    for table in TABLES:
        with op.batch_alter_table(
            table, recreate="always", table_kwargs={"sqlite_autoincrement": True}
        ):
            pass


def downgrade():
    if op.get_bind().dialect.name != "sqlite":
        return
    for table in reversed(TABLES):
        # Reflection does not read AUTOINCREMENT back: the copy is an ordinary table.
        with op.batch_alter_table(table, recreate="always"):
            pass
