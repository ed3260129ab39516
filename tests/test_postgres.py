"""The same app on a real PostgreSQL server: migrations up and down, a game, a club export.

A throwaway cluster is made with the machine's `initdb`/`pg_ctl` (PostgreSQL 15 on these
machines) for this module only, by the helper the load run uses (bench/load.py). On a machine
without them the module is skipped and says why.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from datetime import date

import flask_migrate
import pytest
from sqlalchemy import func, inspect, select

from scorekeeper import core, create_app
from scorekeeper.extensions import db
from scorekeeper.models import Club, ClubNight, Game, Season, User, utcnow
from scorekeeper.services import club_games, removals
from scorekeeper.services import clubs as club_service
from scorekeeper.services import games as game_service
from scorekeeper.services import roster as roster_service
from tests.helpers import bench_module, load_game

pytestmark = pytest.mark.skipif(
    not (shutil.which("initdb") and shutil.which("pg_ctl")),
    reason="PostgreSQL's initdb/pg_ctl are not on this machine",
)


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL database on its own cluster, stopped and deleted after the module."""
    with bench_module("load").postgres_cluster() as url:
        yield url


def test_migrations_and_a_game_on_postgresql(postgres_url, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", postgres_url.replace("postgresql+psycopg", "postgres"))
    app = create_app({"TESTING": True, "SECRET_KEY": "pg"})
    assert app.config["SQLALCHEMY_DATABASE_URI"] == postgres_url
    with app.app_context():
        flask_migrate.upgrade()
        assert {"games", "clubs", "seasons"} <= set(inspect(db.engine).get_table_names())
        rules = core.GameRules(rounds=2, blank_scoring=core.BlankScoring.BLANK_25)
        game = game_service.create_game(["Ana", "Ben", "Cy"], rules, device="pg-device-0000000")
        game = load_game(game.id)
        tiles = core.RoundEntry(
            {
                "Ana": core.HandEntry(tiles=["0-5", "0-0", "3-2"]),
                "Ben": core.HandEntry(4),
                "Cy": core.HandEntry(0),
            },
            out="Cy",
        )
        assert game_service.record_round(game, tiles).saved
        game = load_game(game.id)
        # The same round saved twice from two phones: the database's unique round number holds.
        with pytest.raises(game_service.StaleGame):
            game_service.record_round(game, tiles, number=1)
        blocked = core.RoundEntry(
            {"Ana": core.HandEntry(1), "Ben": core.HandEntry(2), "Cy": core.HandEntry(3)},
            blocked=True,
        )
        assert game_service.record_round(load_game(game.id), blocked).saved
        state = game_service.state_of(load_game(game.id))
        assert state.finished
        assert [(line.name, line.total) for line in state.standings] == [
            ("Cy", 3),
            ("Ben", 6),
            ("Ana", 86),
        ]
        _delete_a_club_with_everything_in_it()
        db.session.remove()
        flask_migrate.downgrade(revision="base")
        assert inspect(db.engine).get_table_names() == ["alembic_version"]
        db.engine.dispose()


def _delete_a_club_with_everything_in_it() -> None:
    """A club with a merged roster entry, a season, a night and a played game, deleted: the
    foreign keys PostgreSQL enforces let the deletion through in its order; the quick game
    stays."""
    owner = User(name="Olga", email="olga@example.com", email_verified_at=utcnow())
    db.session.add(owner)
    db.session.commit()
    club = club_service.create_club(owner, "Thursday Trains")
    ana, ana_twice = (roster_service.add_roster_player(club, name) for name in ("Ana", "Ana B"))
    ana_twice.merged_into_id = ana.id
    summer = date(2025, 1, 1), date(2025, 12, 31)
    season = Season(club_id=club.id, name="Summer", starts_on=summer[0], ends_on=summer[1])
    night = ClubNight(club_id=club.id, played_on=date(2025, 6, 3))
    db.session.add_all([season, night])
    db.session.commit()
    game = club_games.create_club_game(club, ["Ana", "Ben"], core.GameRules())
    game.club_night_id, game.season_id = night.id, season.id
    db.session.commit()
    hands = {"Ana": core.HandEntry(0), "Ben": core.HandEntry(9)}
    entry = core.RoundEntry(hands, out="Ana")
    assert game_service.record_round(load_game(game.id), entry).saved
    removals.delete_season(club, season, owner)
    removals.delete_club(club, owner, "Thursday Trains")
    assert db.session.execute(select(func.count(Club.id))).scalar_one() == 0
    assert db.session.execute(select(func.count(Game.id))).scalar_one() == 1
