"""Ratings benchmark: replay a club's 10,000 finished games from scratch (services.ratings) and
draw fair tables for 40 players at 8 tables.

Fills a fresh SQLite database (in a temp dir) with one club, a roster of 40 and 10,000 finished
games of 3 to 8 players (about 5% of seats are guests, places with ties as the core gives them),
written as raw rows: the replay reads only each seat's final figures, so no rounds are needed.
Then times the replay (the query and openskill apart, median of `--reps` runs) and each way of
drawing tables. Targets (issue 21): the replay in at most 1 s, a draw in at most 200 ms.
Run with `.venv/bin/python bench/ratings.py [--quick] [--strict]`; see bench/README.md.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
if str(BENCH_DIR) not in sys.path:  # bench/ is not a package: run.py is imported beside it
    sys.path.insert(0, str(BENCH_DIR))

import run  # noqa: E402
from sqlalchemy import insert  # noqa: E402

from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.models import Club, Game, Player, RosterPlayer  # noqa: E402
from scorekeeper.services import ratings as rating_service  # noqa: E402
from scorekeeper.services import table_draw  # noqa: E402

REPLAY_TARGET_S = 1.0
DRAW_TARGET_MS = 200.0
ROSTER = 40
GUEST_RATE = 0.05


def fill(app: Any, games: int, seed: int) -> int:
    """The club, its roster and `games` finished games as raw rows; returns the club's id."""
    rng = random.Random(seed)
    with app.app_context():
        club = Club(name="Ratings bench")
        db.session.add(club)
        db.session.flush()
        # run.NAMES has 38 names: the last ones get a number.
        names = [run.NAMES[i] if i < len(run.NAMES) else f"Player {i + 1}" for i in range(ROSTER)]
        roster = [RosterPlayer(club_id=club.id, display_name=name) for name in names]
        db.session.add_all(roster)
        db.session.flush()
        ids = [entry.id for entry in roster]
        first = datetime(2016, 1, 5, 19)
        game_rows = []
        for number in range(games):
            when = first + timedelta(hours=number * 6)
            game_rows.append(
                {
                    "club_id": club.id,
                    "played_on": when.date(),
                    "played_at": when,
                    "finished_at": when + timedelta(hours=2),
                    "created_at": when,
                    "updated_at": when,
                    "edit_token": f"e{seed}-{number}",
                    "view_token": f"v{seed}-{number}",
                }
            )
        game_ids = list(db.session.execute(insert(Game).returning(Game.id), game_rows).scalars())
        seat_rows = []
        for game_id in game_ids:
            size = rng.randint(3, 8)
            chosen = rng.sample(range(ROSTER), size)
            totals = [rng.randint(0, 120) for _ in chosen]
            for seat, (who, total) in enumerate(zip(chosen, totals, strict=True), 1):
                guest = rng.random() < GUEST_RATE
                seat_rows.append(
                    {
                        "game_id": game_id,
                        "seat": seat,
                        "name": f"Guest {seat}" if guest else names[who],
                        "roster_player_id": None if guest else ids[who],
                        "place": 1 + sum(other < total for other in totals),  # ties share
                        "place_shared": totals.count(total),
                        "total": total,
                        "rounds_played": 13,
                        "zero_rounds": 1,
                    }
                )
        db.session.execute(insert(Player), seat_rows)
        db.session.commit()
        return club.id


def timed(function: Any, reps: int) -> tuple[float, Any]:
    """The median wall-clock seconds of `reps` calls, and the last call's result."""
    times, result = [], None
    for _ in range(reps):
        started = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def cpu(function: Any, reps: int) -> float:
    """The median CPU seconds of this process for `reps` calls: on a machine other sessions
    share, the wall clock also counts the time spent waiting for a core."""
    times = []
    for _ in range(reps):
        started = time.process_time()
        function()
        times.append(time.process_time() - started)
    return statistics.median(times)


def measure(app: Any, club_id: int, reps: int) -> dict[str, Any]:
    """Replay and draw timings, in one app context (the replay's own queries included)."""
    with app.app_context():
        club = db.session.get(Club, club_id)
        assert club is not None
        read, matches = timed(lambda: rating_service.club_matches(club_id), reps)
        rate, replayed = timed(lambda: rating_service.replay(matches), reps)

        def from_scratch() -> rating_service.Replay:
            return rating_service.replay(rating_service.club_matches(club_id))

        whole, _ = timed(from_scratch, reps)
        whole_cpu = cpu(from_scratch, reps)
        # The Ratings page's service call: its first call replays and keeps, the others read the
        # kept ratings (bench/ratings_pages.py times the pages themselves).
        lines, _ = timed(lambda: rating_service.club_ratings(club), reps)
        # 40 players into 8 tables, rated as the replay says, with the last nights' pairs.
        people = [
            table_draw.Person(f"r{entry_id}", rating_service.skill(replayed.current(entry_id)[0]))
            for entry_id in sorted(replayed.trail)[:40]
        ]
        keys = [person.key for person in people]
        recent = {
            table_draw.pair(a, b)
            for start in range(0, 40, 5)
            for a, b in itertools.combinations(keys[start : start + 5], 2)
        }
        draws = {
            method: round(
                1000 * timed(lambda m=method: table_draw.draw(people, 8, m, 7, recent), reps)[0], 1
            )
            for method in table_draw.METHODS
        }
        return {
            "draw_40_into_8_ms": draws,
            "games": len(matches),
            "seats": sum(len(team) for match in matches for team in match.teams),
            "read_s": round(read, 3),
            "openskill_s": round(rate, 3),
            "replay_s": round(whole, 3),
            "replay_cpu_s": round(whole_cpu, 3),
            "ratings_page_service_s": round(lines, 3),
        }


def main(argv: list[str] | None = None) -> int:
    """Fill, measure, print, write bench/results-ratings.json; --strict fails on a missed target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--quick", action="store_true", help="500 games, 1 rep (a smoke run)")
    parser.add_argument("--strict", action="store_true", help="exit 1 if a target is missed")
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.reps = 500, 1
    with tempfile.TemporaryDirectory() as folder:
        app = run.make_app(Path(folder))
        started = time.perf_counter()
        club_id = fill(app, args.games, args.seed)
        filled = time.perf_counter() - started
        results = measure(app, club_id, args.reps)
    results["fill_s"] = round(filled, 1)
    results["meta"] = {
        "python": platform.python_version(),
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs",
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "date": date.today().isoformat(),
    }
    print(json.dumps(results, indent=2))
    out = args.out or str(
        BENCH_DIR / ("results-ratings-quick.json" if args.quick else "results-ratings.json")
    )
    with open(out, "w", encoding="utf-8") as handle:
        json.dump(results, handle, indent=2)
        handle.write("\n")
    missed = results["replay_s"] > REPLAY_TARGET_S or any(
        ms > DRAW_TARGET_MS for ms in results["draw_40_into_8_ms"].values()
    )
    if missed:
        print("A target was missed.", file=sys.stderr)
    return 1 if missed and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
