"""Migrations: every schema change is one; upgrading keeps the games already played."""

from __future__ import annotations

import flask_migrate
from sqlalchemy import inspect, text

from scorekeeper import core, create_app
from scorekeeper.extensions import db
from scorekeeper.services import games as game_service
from tests.helpers import load_game


def make_app(path):
    return create_app(
        {"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"}
    )


def test_upgrade_from_the_game_night_schema_keeps_quick_games(tmp_path):
    app = make_app(tmp_path / "old.sqlite")
    with app.app_context():
        flask_migrate.upgrade(revision="0001")
        assert "clubs" not in inspect(db.engine).get_table_names()
        with db.engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO games (id, created_at, updated_at, game_type, set_size,"
                    ' blank_scoring, start_double, rounds, "order", hand_size, target,'
                    " open_train_points, strategic_error, adjustments, ended_early, version,"
                    " edit_token, view_token) VALUES (7, '2026-11-01', '2026-11-01',"
                    " 'mexican_train', 12, 'face', 12, 13, 'descending', 12, 100, 0, 0, 0, 0, 2,"
                    " 'edit-token-7', 'view-token-7')"
                )
            )
            for seat, name in enumerate(["Ana", "Ben"]):
                connection.execute(
                    text("INSERT INTO players (game_id, seat, name) VALUES (7, :seat, :name)"),
                    {"seat": seat, "name": name},
                )
            connection.execute(
                text(
                    "INSERT INTO rounds (id, game_id, number, engine, out_seat, blocked,"
                    " created_at, updated_at, version) VALUES (1, 7, 1, 12, 0, 0, '2026-11-01',"
                    " '2026-11-01', 1)"
                )
            )
            for seat, pips, score, out in [(0, 0, 0, 1), (1, 23, 23, 0)]:
                connection.execute(
                    text(
                        "INSERT INTO hands (round_id, seat, pips, penalty, score, went_out)"
                        " VALUES (1, :seat, :pips, 0, :score, :out)"
                    ),
                    {"seat": seat, "pips": pips, "score": score, "out": out},
                )
        flask_migrate.upgrade()
        tables = set(inspect(db.engine).get_table_names())
        assert {"clubs", "users", "roster_players", "seasons", "club_nights"} <= tables
        game = load_game(7)
        assert game.club_id is None
        state = game_service.state_of(game)
        assert [(line.name, line.total) for line in state.standings] == [("Ana", 0), ("Ben", 23)]
        assert state.next_engine == 11
        assert [p.joined_round for p in game.players] == [1, 1]
        assert [h.late for h in game.round_rows[0].hands] == [False, False]
        db.engine.dispose()


def test_models_match_the_migrations(tmp_path):
    """A model change without its migration fails here (like `flask db check`)."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    app = make_app(tmp_path / "head.sqlite")
    with app.app_context():
        flask_migrate.upgrade()
        with db.engine.connect() as connection:
            context = MigrationContext.configure(connection)
            assert compare_metadata(context, db.metadata) == []
        flask_migrate.downgrade(revision="base")
        assert inspect(db.engine).get_table_names() == ["alembic_version"]
        db.engine.dispose()


def test_a_game_survives_a_round_trip_through_the_club_migration(tmp_path):
    app = make_app(tmp_path / "trip.sqlite")
    with app.app_context():
        flask_migrate.upgrade()
        game = game_service.create_game(["Ana", "Ben"], core.GameRules(rounds=2))
        game_id = game.id
        flask_migrate.downgrade(revision="0001")
        flask_migrate.upgrade()
        db.session.expire_all()
        assert [p.name for p in load_game(game_id).players] == ["Ana", "Ben"]
        db.engine.dispose()


def test_0005_dates_games_by_their_night_and_finds_the_games_moved_by_hand(tmp_path):
    """Games already played get their day (a night's table: the night's; another game: the day
    it was created); a game filed outside its date's season was moved by hand; zero rounds
    stop counting a late arrival's missed rounds scored 0 (RULES.md section 10)."""
    import itertools
    from datetime import date, datetime

    import sqlalchemy as sa

    from scorekeeper.models import Game, Player

    app = make_app(tmp_path / "0004.sqlite")
    counter = itertools.count()
    with app.app_context():
        flask_migrate.upgrade(revision="0004_user_sessions")
        meta = sa.MetaData()
        meta.reflect(db.engine)

        def filler(column):
            kind = column.type.python_type
            if kind is bool:
                return False
            if kind is int:
                return 0
            if kind is datetime:
                return datetime(2026, 11, 23, 12, 0)
            if kind is date:
                return date(2026, 11, 23)
            return f"x{next(counter)}"

        def insert(connection, table, **values):
            columns = meta.tables[table].columns
            row = {
                c.name: filler(c)
                for c in columns
                if not c.nullable and not c.primary_key and c.name not in values
            }
            connection.execute(meta.tables[table].insert().values(**row, **values))

        typed = datetime(2026, 11, 23, 12, 54)
        with db.engine.begin() as connection:
            insert(connection, "clubs", id=1)
            insert(connection, "seasons", id=1, club_id=1, starts_on=date(2025, 1, 1),
                   ends_on=date(2025, 6, 30))  # fmt: skip
            insert(connection, "seasons", id=2, club_id=1, starts_on=date(2026, 1, 1),
                   ends_on=date(2026, 12, 31))  # fmt: skip
            insert(connection, "club_nights", id=1, club_id=1, season_id=1,
                   played_on=date(2025, 1, 10))  # fmt: skip
            # 1: a night's table typed in 2026; 2: a game of today, moved to season 1 by hand.
            insert(connection, "games", id=1, club_id=1, season_id=1, club_night_id=1,
                   created_at=typed, finished_at=typed)  # fmt: skip
            insert(connection, "games", id=2, club_id=1, season_id=1, created_at=typed)
            insert(connection, "players", id=1, game_id=1, seat=0, name="Cy", zero_rounds=3)
            insert(connection, "rounds", id=1, game_id=1, number=1)
            insert(connection, "rounds", id=2, game_id=1, number=2)
            for round_id in (1, 2):
                insert(connection, "hands", round_id=round_id, seat=0, pips=0, score=0, late=True)
        flask_migrate.upgrade()
        night_game, moved = db.session.get(Game, 1), db.session.get(Game, 2)
        assert (night_game.played_on, night_game.played_at) == (date(2025, 1, 10), None)
        assert (moved.played_on, moved.played_at) == (date(2026, 11, 23), typed)
        assert (night_game.season_by_hand, moved.season_by_hand) == (False, True)
        assert db.session.get(Player, 1).zero_rounds == 1


def test_a_new_house_rule_migrates_as_flask_db_migrate_writes_it(tmp_path):
    """Adding a house rule is one field in core/house.py and the migration `flask db migrate`
    writes for it, unedited: that migration must upgrade a database that already holds games
    and clubs (a not-null column needs its default on the server)."""
    import sqlalchemy
    from alembic.autogenerate import produce_migrations, render_python_code
    from alembic.migration import MigrationContext
    from alembic.operations import Operations

    from scorekeeper.models import house_rule_column
    from tests.clubs.helpers import make_club, make_user

    app = make_app(tmp_path / "rows.sqlite")
    with app.app_context():
        flask_migrate.upgrade()
        make_club(app, make_user(app, "Olive Owner"))
        game = game_service.create_game(["Ana", "Ben"], core.GameRules(rounds=2))
        game_id = game.id
        new_rules = [
            core.HouseRule("draw_penalty", bool, False, core.house.Words("Draw", "A draw.")),
            core.HouseRule("late_points", int, 0, core.house.Words("Late", "Late.", 0, 50)),
        ]
        declared = sqlalchemy.MetaData()
        for table in db.metadata.sorted_tables:
            copy = table.to_metadata(declared)
            if table.name in ("games", "clubs"):
                for rule in new_rules:
                    copy.append_column(house_rule_column(rule))
        with db.engine.begin() as connection:
            options = {"target_metadata": declared, **app.extensions["migrate"].configure_args}
            context = MigrationContext.configure(connection, opts=options)
            script = produce_migrations(context, declared)
            written = render_python_code(script.upgrade_ops)
            assert written.count("add_column") == 4, written
            exec(written.replace("\n    ", "\n"), {"op": Operations(context), "sa": sqlalchemy})
        with db.engine.connect() as connection:
            assert connection.execute(
                text("SELECT draw_penalty, late_points FROM games WHERE id = :id"), {"id": game_id}
            ).one() == (0, 0)
            club_rows = connection.execute(text("SELECT draw_penalty FROM clubs")).all()
        assert club_rows and all(row == (0,) for row in club_rows)


def _filler(column, counter):
    """A value a NOT NULL column takes (unique where it must be), for rows made by hand."""
    from datetime import date, datetime

    kind = column.type.python_type
    if kind is bool:
        return False
    if kind in (int, float):
        return 0
    if kind is datetime:
        return datetime(2026, 11, 27, 12, 0)
    if kind is date:
        return date(2026, 11, 27)
    return f"x{next(counter)}"


def test_ids_named_by_links_and_caches_are_never_handed_out_twice(tmp_path):
    """Rows made before 0013 keep their ids; after it, deleting the newest row of a table whose
    ids links, caches or exports name (a game, a club, a night...) does not hand its id to the
    next row, as SQLite did before. The tables are those whose models say so, and no other."""
    import itertools

    import sqlalchemy as sa

    app = make_app(tmp_path / "0012.sqlite")
    counter = itertools.count()
    with app.app_context():
        flask_migrate.upgrade(revision="0012_rate_limit_counts")
        declared = {
            table.name
            for table in db.metadata.sorted_tables
            if table.dialect_options["sqlite"]["autoincrement"]
        }
        assert {"games", "clubs", "club_nights", "seasons", "roster_players", "users"} <= declared
        meta = sa.MetaData()
        meta.reflect(db.engine)

        def insert(connection, name, **values):
            table = meta.tables[name]
            row = {
                c.name: _filler(c, counter)
                for c in table.columns
                if not c.nullable and not c.primary_key and c.name not in values
            }
            return connection.execute(table.insert().values(**row, **values)).inserted_primary_key

        with db.engine.begin() as connection:
            for name in declared:
                insert(connection, name, id=1)
                insert(connection, name, id=2)
        flask_migrate.upgrade()

        with db.engine.begin() as connection:
            schemas = dict(connection.execute(text("SELECT name, sql FROM sqlite_master")).all())
            for name in meta.tables:
                assert ("AUTOINCREMENT" in schemas[name]) == (name in declared), name
            for name in declared:
                table = meta.tables[name]
                # In id order: an index (games.table_token) may read them in any order.
                ids = sa.select(table.c.id).order_by(table.c.id)
                assert connection.execute(ids).scalars().all() == [1, 2]
                connection.execute(table.delete().where(table.c.id == 2))
                assert insert(connection, name) == (3,), name
        # The app's own games: the newest deleted, the next one made gets a new id.
        newest = game_service.create_game(["Ana", "Ben"], core.GameRules())
        assert newest.id == 4
        db.session.delete(newest)
        db.session.commit()
        assert game_service.create_game(["Jo", "Kim"], core.GameRules()).id == 5
        db.engine.dispose()
