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
from scorekeeper.services import accounts as account_service
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


TOKEN_LINKS = [
    ("GET", "/s/%00"),
    ("GET", "/s/%00/live"),
    ("GET", "/s/%00/print"),
    ("GET", "/s/%00/qr.svg"),
    ("GET", "/s/%00/chart/race.svg"),
    ("POST", "/s/%00/keep"),
    ("GET", "/e/%00"),
    ("POST", "/e/%00"),
    ("GET", "/c/%00"),
    ("GET", "/invite/%00"),
    ("POST", "/invite/%00"),
    ("GET", "/s/a%00b"),
    ("GET", "/reset-password/%00"),
    ("GET", "/verify-email/%00"),
]


def test_nul_bytes_are_refused_not_a_500_on_postgresql(postgres_url):
    """PostgreSQL cannot store a NUL byte (psycopg raises DataError): one in a token link, a
    name or a cookie is a 404 or 400 before the database is asked."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "pg",
            "SQLALCHEMY_DATABASE_URI": postgres_url,
            "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": False,
            "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",
        }
    )
    with app.app_context():
        flask_migrate.upgrade()
        owner = account_service.create_user("Olga", "olga-nul@example.com", "a long passphrase")
        club_id = club_service.create_club(owner, "Nul Club").id
    client = app.test_client()
    for method, path in TOKEN_LINKS:
        assert client.open(path, method=method).status_code == 404, path
    client.set_cookie("sk_device", "a\x00b")
    assert client.get("/").status_code == 400
    client.delete_cookie("sk_device")
    signed = client.post(
        "/sign-in", data={"email": "olga-nul@example.com", "password": "a long passphrase"}
    )
    assert signed.status_code == 302
    added = client.post(f"/clubs/{club_id}/roster", data={"display_name": "Ana\x00Bel"})
    assert added.status_code == 400
    assert client.get(f"/clubs/{club_id}/roster?q=%00").status_code == 400
    api = client.post("/api/v1/games", json={"players": ["Ana\x00", "Ben"]})
    assert api.status_code == 400
    assert (
        client.post("/sign-in", data={"email": "x\x00@example.com", "password": "x"}).status_code
        == 400
    )
    with app.app_context():
        assert roster_service.roster_of(db.session.get(Club, club_id)) == []
        db.session.remove()
        db.engine.dispose()
