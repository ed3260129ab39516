"""The same app on a real PostgreSQL server: migrations up and down, a game, a club export.

A throwaway cluster is made with the machine's `initdb`/`pg_ctl` (PostgreSQL 15 on these
machines) for this module only, by the helper the load run uses (bench/load.py). On a machine
without them the module is skipped and says why.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import flask_migrate
import pytest
from sqlalchemy import inspect

from scorekeeper import core, create_app
from scorekeeper.extensions import db
from scorekeeper.services import games as game_service
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
        db.session.remove()
        flask_migrate.downgrade(revision="base")
        assert inspect(db.engine).get_table_names() == ["alembic_version"]
        db.engine.dispose()
