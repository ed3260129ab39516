"""Season benchmark: the season page of a club with 10 seasons of 50 club nights of 4 tables.

Fills a fresh SQLite database (in a temp dir) with one club, its roster and 10 seasons; each
season has 50 weekly club nights of 4 tables, each table a finished 4-player Mexican Train game
of 13 rounds: 200 games a season, 2,000 in all. Then times the season page (and its print view,
chart and the seasons list) through the Flask test client, signed in as the club's owner, and
counts the SQL each request sends. See bench/README.md. Run with
`.venv/bin/python bench/season.py [--quick]`.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import random
import sqlite3
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import sqlalchemy
from flask import Flask
from sqlalchemy import bindparam, delete, select, update

BENCH_DIR = Path(__file__).resolve().parent
if str(BENCH_DIR) not in sys.path:  # bench/ is not a package: run.py is imported beside it
    sys.path.insert(0, str(BENCH_DIR))

import run  # noqa: E402

from scorekeeper import core  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.models import (  # noqa: E402
    ClubNight,
    DeviceGame,
    Game,
    Player,
    RosterPlayer,
    Season,
)
from scorekeeper.services import accounts as account_service  # noqa: E402
from scorekeeper.services import clubs as club_service  # noqa: E402

PAGE_TARGET_MS = 50.0
METHODS = ("placement_points", "games_won", "average")
ROSTER = 24  # players on the club's roster; 16 of them (or 15 and a guest) come each night
GUEST_RATE = 0.05  # a seat taken by a guest (not on the roster)


@dataclass(frozen=True)
class Settings:
    """How big the club is and how many times each request is timed."""

    seasons: int = 10
    nights: int = 50
    tables: int = 4
    reps: int = 100
    chart_reps: int = 5
    warmup: int = 3
    seed: int = 2025
    quick: bool = False


QUICK = Settings(seasons=2, nights=6, reps=5, chart_reps=1, warmup=1, quick=True)


@dataclass
class SeasonBench:
    """An app on its own database, its club's owner and seasons (latest first)."""

    app: Flask
    club_id: int
    owner_id: int
    seasons: list[int]
    games: int
    populate_seconds: float


def build(folder: Path, settings: Settings) -> SeasonBench:
    """The club, its roster, seasons and club nights, and their finished games in bulk.

    Games are written by run.write_in_bulk (row for row what the services store, final figures
    included), then made club games as services.games.create_game files them: club, season,
    club night, table, each seat's roster entry, and no device list (club games are seen by
    role)."""
    rng = random.Random(settings.seed)
    app = run.make_app(folder)
    started = time.perf_counter()
    with app.app_context():
        owner = account_service.create_user("Olive Owner", "owner@example.com", "a long password")
        club = club_service.create_club(owner, "Tuesday Trains")
        names = run.NAMES[:ROSTER]
        roster = [RosterPlayer(club_id=club.id, display_name=name) for name in names]
        db.session.add_all(roster)
        db.session.flush()
        roster_of = {entry.display_name: entry.id for entry in roster}
        first = date(2016, 1, 5)
        seasons, nights, plans, places = [], [], [], []
        for number in range(settings.seasons):
            start = first + timedelta(weeks=52 * number)
            season = Season(
                club_id=club.id,
                name=f"Season {2016 + number}",
                starts_on=start,
                ends_on=start + timedelta(days=363),
                method=METHODS[(settings.seasons - 1 - number) % len(METHODS)],
                min_games=5,
            )
            db.session.add(season)
            db.session.flush()
            seasons.append(season.id)
            for week in range(settings.nights):
                day = start + timedelta(weeks=week)
                night = ClubNight(club_id=club.id, season_id=season.id, played_on=day)
                db.session.add(night)
                db.session.flush()
                nights.append(night.id)
                present = rng.sample(names, settings.tables * 4)
                for table in range(settings.tables):
                    seats = present[table * 4 : table * 4 + 4]
                    if rng.random() < GUEST_RATE * 4:
                        seats[rng.randrange(4)] = f"Guest {rng.randrange(100)}"
                    rules = core.GameRules(
                        house_rules=core.HouseRules(
                            open_train_points=10 if rng.random() < 0.2 else 0
                        )
                    )
                    setup = core.new_game(seats, rules)
                    entries = [run.random_entry(rng, setup, n) for n in range(1, 14)]
                    when = datetime.combine(day, datetime.min.time()) + timedelta(
                        hours=19, minutes=table
                    )
                    plans.append(run.GamePlan(tuple(seats), rules, entries, run.BENCH_DEVICE, when))
                    places.append((season.id, night.id, table + 1))
        db.session.commit()
        game_ids = run.write_in_bulk(plans)
        # Raw rows, as write_in_bulk writes them: a benchmark's data, not a change to a game.
        connection = db.session.connection()
        games, players = Game.__table__, Player.__table__
        connection.execute(
            update(games)
            .where(games.c.id == bindparam("game_id"))
            .values(
                club_id=club.id,
                season_id=bindparam("season_id"),
                club_night_id=bindparam("night_id"),
                table_number=bindparam("table"),
            ),
            [
                {"game_id": game_id, "season_id": season_id, "night_id": night_id, "table": table}
                for game_id, (season_id, night_id, table) in zip(game_ids, places, strict=True)
            ],
        )
        seats = db.session.execute(
            select(Player.id, Player.name).where(Player.game_id.in_(game_ids))
        ).all()
        connection.execute(
            update(players)
            .where(players.c.id == bindparam("seat_id"))
            .values(roster_player_id=bindparam("roster_id")),
            [{"seat_id": seat_id, "roster_id": roster_of.get(name)} for seat_id, name in seats],
        )
        db.session.execute(delete(DeviceGame).where(DeviceGame.game_id.in_(game_ids)))
        db.session.commit()
        bench = SeasonBench(
            app,
            club.id,
            owner.id,
            list(reversed(seasons)),
            len(game_ids),
            time.perf_counter() - started,
        )
        db.session.remove()
    return bench


def signed_in(bench: SeasonBench):
    """A test client signed in as the club's owner (Flask-Login's session)."""
    client = bench.app.test_client()
    with bench.app.app_context():
        from scorekeeper.models import User
        from scorekeeper.services import accounts as account_service

        session_id = account_service.start_session(db.session.get(User, bench.owner_id))
    with client.session_transaction() as session:
        session["_user_id"] = session_id
        session["_fresh"] = True
    return client


def measure_requests(bench: SeasonBench, settings: Settings) -> dict[str, dict[str, Any]]:
    """Time each season request on the full database."""
    client = signed_in(bench)
    counter = run.QueryCounter(bench.app)
    base = f"/clubs/{bench.club_id}/seasons"
    latest = bench.seasons[0]

    def get(url: str) -> run.Request:
        return lambda _index: client.get(url)

    def clear_charts(_index: int) -> None:
        folder = Path(bench.app.config["CHART_CACHE_DIR"])
        for path in folder.glob("season-*.svg"):
            path.unlink()

    kinds: list[tuple[str, str, str, int, dict[str, Any]]] = []
    for season_id in bench.seasons[: len(METHODS)]:
        with bench.app.app_context():
            method = db.session.get(Season, season_id).method
        key = "season_page" if season_id == latest else f"season_page_{method}"
        kinds.append((key, f"season page ({method})", f"{base}/{season_id}",
                      settings.reps, {}))  # fmt: skip
    kinds += [
        ("season_page_2", "season page, games list page 2", f"{base}/{latest}?page=2",
         settings.reps, {}),
        ("season_print", "season print view", f"{base}/{latest}/print", settings.reps, {}),
        ("season_chart_first_render", "season chart, first render (cache cleared)",
         f"{base}/{latest}/chart.svg", settings.chart_reps,
         {"prepare": clear_charts, "warmup": 0}),
        ("season_chart_cached", "season chart, cached", f"{base}/{latest}/chart.svg",
         settings.reps, {}),
        ("seasons_list", "the club's seasons", base, settings.reps, {}),
    ]  # fmt: skip
    # The first chart of the process pays for importing matplotlib: once, apart.
    cold = run.Samples("season chart, first render in a new process", f"{base}/{latest}/chart.svg")
    run.timed(cold, counter, get(cold.url), 0, 200, clear_charts)
    results = {}
    for key, label, url, count, options in kinds:
        options.setdefault("warmup", settings.warmup)
        results[key] = run.measure(label, url, counter, get(url), count, **options).summary()
    counter.close()
    results["season_chart_cold_process"] = cold.summary()
    return results


def check_targets(requests: dict[str, Any]) -> list[dict[str, Any]]:
    """The target: the season page's median under 50 ms, whatever its method."""
    found = []
    for key, row in requests.items():
        if key.startswith("season_page"):
            value = row["median_ms"]
            found.append(
                {
                    "target": key,
                    "text": f"{row['label']}: median {value:.2f} ms < {PAGE_TARGET_MS:g} ms",
                    "value": value,
                    "limit": PAGE_TARGET_MS,
                    "pass": value < PAGE_TARGET_MS,
                }
            )
    return found


def run_benchmark(settings: Settings, workdir: Path | None = None) -> dict[str, Any]:
    """Build the database, measure, and return every figure (what results-season.json holds)."""
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="sk-season-bench-") as temp:
        bench = build(Path(workdir or temp) / "season", settings)
        try:
            requests = measure_requests(bench, settings)
        finally:
            with bench.app.app_context():
                db.engine.dispose()
    return {
        "meta": {
            "seasons": settings.seasons,
            "nights_per_season": settings.nights,
            "tables_per_night": settings.tables,
            "finished_games": bench.games,
            "populate_seconds": round(bench.populate_seconds, 2),
            "settings": {
                key: getattr(settings, key)
                for key in ("reps", "chart_reps", "warmup", "seed", "quick")
            },
            "python": platform.python_version(),
            "sqlalchemy": sqlalchemy.__version__,
            "sqlite": sqlite3.sqlite_version,
            "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs",
            "load_average_before": [round(load, 2) for load in load_before],
            "load_average_after": [round(load, 2) for load in os.getloadavg()],
            "when": datetime.now().isoformat(timespec="seconds"),
            "timing": "server time: time.perf_counter around Flask test-client calls",
        },
        "requests": requests,
        "targets": check_targets(requests),
    }


def table(results: dict[str, Any]) -> str:
    """The figures as a small text table."""
    lines = [
        f"{'request':<46} {'n':>4} {'median ms':>10} {'p90 ms':>8} {'cpu ms':>7} {'queries':>8}"
    ]
    for row in results["requests"].values():
        queries = str(row["queries"])
        if row["queries_min"] != row["queries_max"]:
            queries = f"{row['queries_min']}-{row['queries_max']}"
        lines.append(
            f"{row['label']:<46} {row['n']:>4} {row['median_ms']:>10.2f} "
            f"{row['p90_ms']:>8.2f} {row['cpu_median_ms']:>7.2f} {queries:>8}"
        )
    meta = results["meta"]
    lines += ["", f"load average (1, 5, 15 min) before {meta['load_average_before']}, "
              f"after {meta['load_average_after']} on {meta['machine']}"]  # fmt: skip
    lines += ["", "targets:"]
    lines += [f"  {'PASS' if t['pass'] else 'MISS'}  {t['text']}" for t in results["targets"]]
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None = None) -> tuple[Settings, argparse.Namespace]:
    """Command-line options -> Settings."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 seasons of 6 nights, few reps")
    parser.add_argument("--reps", type=int, help="timed requests of each kind (100)")
    parser.add_argument("--seed", type=int, help="random seed of the generated games")
    parser.add_argument("--out", type=Path, help="where to write the JSON results")
    parser.add_argument(
        "--strict", action="store_true", help="exit with status 1 if a target is missed"
    )
    args = parser.parse_args(argv)
    settings = QUICK if args.quick else Settings()
    changes = {key: getattr(args, key) for key in ("reps", "seed") if getattr(args, key)}
    settings = Settings(**{**settings.__dict__, **changes})
    if args.out is None:
        name = "results-season-quick.json" if settings.quick else "results-season.json"
        args.out = BENCH_DIR / name
    return settings, args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the season benchmark, print the table, write the JSON."""
    settings, args = parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    games = settings.seasons * settings.nights * settings.tables
    print(f"filling a database with {games} finished club games...", flush=True)
    results = run_benchmark(settings)
    print(f"filled in {results['meta']['populate_seconds']} s\n")
    print(table(results))
    args.out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"\nwrote {args.out}")
    missed = [t for t in results["targets"] if not t["pass"]]
    return 1 if args.strict and missed else 0


if __name__ == "__main__":
    sys.exit(main())
