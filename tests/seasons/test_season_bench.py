"""bench/season.py still runs (a quick, tiny run: timings belong to the benchmark, not to unit
tests), and the club games it writes in bulk hold what the services store for a club game."""

from __future__ import annotations

from types import ModuleType

import pytest

from scorekeeper.extensions import db
from scorekeeper.models import DeviceGame, Game, Player
from scorekeeper.services import games as game_service
from tests.helpers import bench_module, load_game


@pytest.fixture(scope="module")
def season_bench() -> ModuleType:
    """bench/season.py, imported from its file (bench/ is not a package)."""
    return bench_module("season")


def test_a_tiny_run_produces_every_figure(season_bench, tmp_path):
    settings = season_bench.Settings(
        seasons=2, nights=2, tables=1, reps=1, chart_reps=1, warmup=0, quick=True
    )
    results = season_bench.run_benchmark(settings, workdir=tmp_path)
    assert results["meta"]["finished_games"] == 4
    for key in ("season_page", "season_print", "season_chart_cached", "seasons_list"):
        row = results["requests"][key]
        assert row["n"] >= 1 and row["queries"] > 0
    assert {t["target"] for t in results["targets"]} >= {"season_page"}


def test_bulk_club_games_hold_what_the_services_store(season_bench, tmp_path):
    settings = season_bench.Settings(seasons=1, nights=1, tables=2, quick=True)
    bench = season_bench.build(tmp_path / "db", settings)
    with bench.app.app_context():
        games = list(db.session.execute(db.select(Game).order_by(Game.id)).scalars())
        assert len(games) == 2
        for game in games:
            assert game.club_id == bench.club_id and game.season_id == bench.seasons[0]
            assert game.club_night_id is not None and game.table_number in (1, 2)
            assert game.finished_at is not None
            seats = list(
                db.session.execute(
                    db.select(Player).where(Player.game_id == game.id).order_by(Player.seat)
                ).scalars()
            )
            # The final figures are the core's standings of the stored rounds.
            state = game_service.state_of(load_game(game.id))
            lines = {line.name: line for line in state.standings}
            for seat in seats:
                line = lines[seat.name]
                assert (seat.place, seat.total, seat.rounds_played) == (
                    line.place, line.total, len(line.rounds)
                )  # fmt: skip
                assert (seat.roster_player_id is None) == seat.name.startswith("Guest")
        # Club games are seen by role: no device keeps them (as create_game does for a club).
        assert db.session.execute(db.select(DeviceGame)).first() is None
