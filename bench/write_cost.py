"""What one request of the load run costs the server in CPU, alone on the machine's Python:
the API's game GET, a round POST, PUT and DELETE, as bench/load.py's writers send them.

    python bench/write_cost.py                  # SQLite file, 300 of each
    python bench/write_cost.py --profile 20     # also the 20 costliest functions of a POST
    python bench/write_cost.py --lock           # and how long a POST holds SQLite's write lock

Each request goes through the Flask test client (no gunicorn, no network: those add their own
cost, see bench/README.md), one at a time, on games of three players as the load run makes.
CPU time is the process's (`time.process_time`), less sensitive to other work on the machine
than wall time.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import random
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PLAYERS = ("Ana", "Ben", "Cy")


def make_app(folder: Path) -> Any:
    """The app on a fresh, migrated SQLite file, limits off, as `make run` configures it."""
    import flask_migrate

    from scorekeeper import create_app

    app = create_app(
        {
            "SECRET_KEY": secrets.token_hex(32),
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'cost.sqlite'}",
            "RATELIMIT_ENABLED": False,
            "CHART_CACHE_DIR": str(folder / "charts"),
        },
        instance_path=str(folder / "instance"),
    )
    with app.app_context():
        flask_migrate.upgrade(directory=str(ROOT / "migrations"))
    return app


def body(rng: random.Random, number: int) -> dict[str, Any]:
    out = rng.randrange(len(PLAYERS))
    scores = {name: rng.randint(1, 120) for seat, name in enumerate(PLAYERS) if seat != out}
    return {"number": number, "out": PLAYERS[out], "scores": scores, "confirm": True}


class Game:
    """A game made through the API, and the next round to record on it."""

    def __init__(self, client: Any):
        made = client.post("/api/v1/games", json={"players": list(PLAYERS)}).get_json()
        self.id = made["id"]
        self.auth = {"Authorization": f"Bearer {made['edit_token']}"}
        self.played = 0


def measure(count: int, send: Callable[[], Any]) -> list[float]:
    """CPU milliseconds of each of `count` calls."""
    spent = []
    for _ in range(count):
        started = time.process_time()
        send()
        spent.append((time.process_time() - started) * 1000)
    return spent


def run(count: int, profile: int, lock: bool) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-cost-"))
    app = make_app(folder)
    client = app.test_client()
    rng = random.Random(1)
    # Room for every POST below (warm-up, measured, --lock, --profile): 12 rounds a game.
    posts = 3 + count // 3 * (1 + lock) + 50 * bool(profile)
    games = [Game(client) for _ in range(posts // 10 + 2)]

    def pick() -> Game:
        return rng.choice([g for g in games if g.played < 12])

    def get() -> Any:
        game = rng.choice(games)
        answer = client.get(f"/api/v1/games/{game.id}", headers=game.auth)
        assert answer.status_code == 200
        return answer

    def post() -> None:
        game = pick()
        etag = get_etag(game)
        answer = client.post(
            f"/api/v1/games/{game.id}/rounds",
            json=body(rng, game.played + 1),
            headers={**game.auth, "If-Match": etag},
        )
        assert answer.status_code == 201, answer.get_json()
        game.played += 1

    def get_etag(game: Game) -> str:
        return client.get(f"/api/v1/games/{game.id}", headers=game.auth).headers["ETag"]

    def put() -> None:
        game = rng.choice([g for g in games if g.played])
        number = rng.randint(1, game.played)
        answer = client.put(
            f"/api/v1/games/{game.id}/rounds/{number}",
            json=body(rng, number),
            headers={**game.auth, "If-Match": get_etag(game)},
        )
        assert answer.status_code == 200, answer.get_json()

    def delete() -> None:
        game = rng.choice([g for g in games if g.played])
        answer = client.delete(
            f"/api/v1/games/{game.id}/rounds/{game.played}",
            headers={**game.auth, "If-Match": get_etag(game)},
        )
        assert answer.status_code == 200, answer.get_json()
        game.played -= 1

    # Warm up every path (imports, caches, the first compiled statements).
    for send in (get, post, put, delete, post, post):
        send()
    figures: dict[str, Any] = {}
    etag_cost = statistics.median(measure(count, get))
    figures["GET game (API)"] = etag_cost
    for name, send in (("POST round", post), ("PUT round", put), ("DELETE round", delete)):
        # Each write first reads the game's ETag (as the load run's writers do): not counted.
        figures[name] = statistics.median(measure(count // 3, send)) - etag_cost
    result: dict[str, Any] = {"cpu_ms_median": {k: round(v, 2) for k, v in figures.items()}}
    if lock:
        result["sqlite_write_lock_ms_median"] = round(lock_hold(app, post, count // 3), 2)
    if profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(50):
            post()
        profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(profile)
        result["profile"] = out.getvalue()
    return result


def lock_hold(app: Any, send: Callable[[], None], count: int) -> float:
    """Median wall milliseconds from BEGIN IMMEDIATE to COMMIT of a round POST, as SQLite
    itself runs them (its trace callback also sees what scorekeeper/infra/sqlite.py sends)."""
    from sqlalchemy import event

    from scorekeeper.extensions import db

    with app.app_context():
        engine = db.engine
    held: list[float] = []
    began: list[float] = []

    def trace(statement: str) -> None:
        if statement.startswith("BEGIN IMMEDIATE"):
            began.append(time.perf_counter())
        elif statement.startswith("COMMIT") and began:
            held.append((time.perf_counter() - began.pop()) * 1000)

    def traced(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.set_trace_callback(trace)

    event.listen(engine, "connect", traced)
    engine.dispose()  # new connections, traced
    try:
        for _ in range(count):
            send()
    finally:
        event.remove(engine, "connect", traced)
        engine.dispose()
    return statistics.median(held)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--profile", type=int, default=0, help="print the N costliest functions")
    parser.add_argument("--lock", action="store_true", help="time the SQLite write lock held")
    args = parser.parse_args(argv)
    result = run(args.count, args.profile, args.lock)
    report = result.pop("profile", "")
    print(json.dumps(result, indent=2))
    print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
