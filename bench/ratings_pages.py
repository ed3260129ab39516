"""Ratings kept (issue 31): the Ratings page, its CSV, a player's rating chart and the API of a
club with thousands of finished games, on the first view of new ratings (one replay, kept in
the database), later views (another member's: the kept ratings read) and a repeat with
If-None-Match (304).

Fills a fresh SQLite database per size with bench/ratings.py's club (40 players, finished
games of 3 to 8 seats as raw rows), signs the club's owner in, and times each request through
the Flask test client (server time, no network), medians of `--reps` views (`--first` first
views: each after the ratings mark is moved by one game's version, as a saved correction
does). Target (issue 31): the Ratings page's later views at most 50 ms on a 3,000-game club.
Run with `.venv/bin/python bench/ratings_pages.py [--quick]`; see bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
if str(BENCH_DIR) not in sys.path:  # bench/ is not a package: its scripts are imported beside it
    sys.path.insert(0, str(BENCH_DIR))

import ratings as ratings_bench  # noqa: E402
import run  # noqa: E402
from sqlalchemy import select, text  # noqa: E402

from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.models import Game, Membership, RosterPlayer, User  # noqa: E402
from scorekeeper.services import accounts as account_service  # noqa: E402
from scorekeeper.services import ratings_kept  # noqa: E402

PAGE_TARGET_MS = 50.0
TARGET_GAMES = 3000


def owner_client(app: Any, club_id: int) -> tuple[Any, str]:
    """A test client signed in as the club's owner, and the owner's personal API token."""
    with app.app_context():
        owner = account_service.create_user("Olive Owner", "owner@example.com", "a long password")
        db.session.add(Membership(club_id=club_id, user_id=owner.id, role="owner"))
        db.session.commit()
        session_id = account_service.start_session(db.session.get(User, owner.id))
        secret = account_service.create_token(db.session.get(User, owner.id), "bench").secret
    client = app.test_client()
    with client.session_transaction() as session:
        session["_user_id"] = session_id
        session["_fresh"] = True
    return client, secret


def move_the_mark(app: Any, club_id: int) -> None:
    """One game's version up, as any saved change to it does (raw SQL: the benchmark's own
    write, not a page's)."""
    with app.app_context(), db.engine.begin() as connection:
        game_id = connection.execute(
            select(Game.id).where(Game.club_id == club_id).order_by(Game.id).limit(1)
        ).scalar_one()
        connection.execute(
            text("UPDATE games SET version = version + 1 WHERE id = :id"), {"id": game_id}
        )


def ms(function: Callable[[], Any], cpu: list[float]) -> tuple[float, Any]:
    """Wall-clock ms of one call, and its result; its CPU ms (this process) go to `cpu`: on a
    machine other sessions share, the wall clock also counts the time spent waiting for a core."""
    started, started_cpu = time.perf_counter(), time.process_time()
    result = function()
    cpu.append(1000 * (time.process_time() - started_cpu))
    return 1000 * (time.perf_counter() - started), result


def median(values: list[float]) -> float:
    return round(statistics.median(values), 1)


def measure(app: Any, club_id: int, reps: int, first: int) -> dict[str, Any]:
    """First views, later views and repeats (304) of each ratings answer, in ms (medians)."""
    client, secret = owner_client(app, club_id)
    with app.app_context():
        entry_id = db.session.scalar(
            select(RosterPlayer.id).where(RosterPlayer.club_id == club_id).limit(1)
        )
    api = {"Authorization": f"Bearer {secret}"}
    answers = {
        "ratings_page": (f"/clubs/{club_id}/ratings", {}),
        "ratings_csv": (f"/clubs/{club_id}/ratings.csv", {}),
        "rating_chart": (f"/clubs/{club_id}/players/{entry_id}/rating.svg", {}),
        "api_ratings": (f"/api/v1/clubs/{club_id}/ratings", api),
    }
    results: dict[str, Any] = {}
    for name, (url, headers) in answers.items():
        firsts, later, repeat = [], [], []
        cpu: dict[str, list[float]] = {"first": [], "later": [], "repeat": []}
        for _ in range(first):
            move_the_mark(app, club_id)
            took, response = ms(lambda u=url, h=headers: client.get(u, headers=h), cpu["first"])
            assert response.status_code == 200, (url, response.status_code)
            firsts.append(took)
        replays = ratings_kept.REPLAYS[club_id]
        for _ in range(reps):
            took, response = ms(lambda u=url, h=headers: client.get(u, headers=h), cpu["later"])
            assert response.status_code == 200
            later.append(took)
            etag = response.headers["ETag"]
            took, response = ms(
                lambda u=url, h=headers, e=etag: client.get(u, headers={**h, "If-None-Match": e}),
                cpu["repeat"],
            )
            assert response.status_code == 304
            repeat.append(took)
        assert ratings_kept.REPLAYS[club_id] == replays, "a later view replayed"
        results[name] = {
            "first_view_ms": median(firsts),
            "later_view_ms": median(later),
            "repeat_304_ms": median(repeat),
            "first_view_cpu_ms": median(cpu["first"]),
            "later_view_cpu_ms": median(cpu["later"]),
            "repeat_304_cpu_ms": median(cpu["repeat"]),
        }
    return results


def main(argv: list[str] | None = None) -> int:
    """Fill, measure, print, write bench/results-ratings-pages.json; 1 if the target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="3000,10000", help="club sizes, comma-separated")
    parser.add_argument("--reps", type=int, default=15)
    parser.add_argument("--first", type=int, default=3)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--quick", action="store_true", help="300 games, 3 reps (a smoke run)")
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    sizes = [int(size) for size in args.games.split(",")]
    if args.quick:
        sizes, args.reps, args.first = [300], 3, 1
    results: dict[str, Any] = {}
    for size in sizes:
        with tempfile.TemporaryDirectory() as folder:
            app = run.make_app(Path(folder))
            club_id = ratings_bench.fill(app, size, args.seed)
            results[f"{size}_games"] = measure(app, club_id, args.reps, args.first)
    results["meta"] = {
        "python": platform.python_version(),
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs",
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "date": date.today().isoformat(),
        "reps": args.reps,
        "first_views": args.first,
    }
    print(json.dumps(results, indent=2))
    out = args.out or str(
        BENCH_DIR
        / ("results-ratings-pages-quick.json" if args.quick else "results-ratings-pages.json")
    )
    with open(out, "w", encoding="utf-8") as handle:
        json.dump(results, handle, indent=2)
        handle.write("\n")
    page = results.get(f"{TARGET_GAMES}_games", {}).get("ratings_page")
    missed = page is not None and page["later_view_ms"] > PAGE_TARGET_MS
    if missed:
        print("The Ratings page's target was missed.", file=sys.stderr)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
