"""Pages while charts are drawn: does a flood of uncached chart requests slow page views down?

    python bench/chart_flood.py                       # 6 drawing clients, 2 page viewers, 15 s
    python bench/chart_flood.py --workers 4 --threads 1 --root /path/to/other/checkout

The app runs as `make run` runs it (gunicorn, bench/load.py's helpers) on a fresh SQLite file,
rate limits off (the per-client chart limit would stop the flood: this measures what is left
when many clients each stay under it). Drawers ask for the race chart of a new game each time,
so every request makes the server draw; viewers load one game's share page every 20 ms. The
figures: share-page latency (p50, p90, p99, max) and how many charts were drawn (bench/README.md,
"Charts and pages").
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load  # noqa: E402  (bench/ is not a package)


def flood(
    root: str,
    *,
    workers: int,
    threads: int,
    seconds: float,
    drawers: int,
    viewers: int,
    settings: dict[str, str] | None = None,
) -> dict[str, Any]:
    """One run: its share-page latencies (ms) and the statuses the chart requests got."""
    scratch = Path(tempfile.mkdtemp(prefix="scorekeeper-flood-"))
    environ = load.server_environ(root, f"sqlite:///{scratch}/flood.sqlite", scratch)
    environ.update({f"SCOREKEEPER_{name}": value for name, value in (settings or {}).items()})
    load.migrate(root, environ)
    log = scratch / "gunicorn.log"
    with load.gunicorn(root, environ, workers=workers, threads=threads, log=log) as base:
        # More games than 2 cores can draw charts for (up to ~35 a second).
        games = load.create_games(base, int(80 * seconds) + 1)
        watched, fresh = games[0], iter(games[1:])
        stop = time.monotonic() + seconds
        pages: list[float] = []
        charts: dict[str, int] = {}
        lock = threading.Lock()

        def draw() -> None:
            client = load.Client(base)
            while time.monotonic() < stop:
                with lock:
                    game = next(fresh, None)
                if game is None:
                    return
                path = f"/s/{game.view_token}/chart/race.svg"
                status, _, _ = client.send("GET", path, headers={"Accept": "*/*"})
                with lock:
                    charts[str(status)] = charts.get(str(status), 0) + 1
            client.close()

        def view() -> None:
            client = load.Client(base)
            while time.monotonic() < stop:
                started = time.perf_counter()
                status, _, _ = client.send(
                    "GET", f"/s/{watched.view_token}", headers={"Accept": "*/*"}
                )
                with lock:
                    pages.append(time.perf_counter() - started)
                    charts[f"page {status}"] = charts.get(f"page {status}", 0) + 1
                time.sleep(0.02)
            client.close()

        team = [threading.Thread(target=draw) for _ in range(drawers)]
        team += [threading.Thread(target=view) for _ in range(viewers)]
        for thread in team:
            thread.start()
        for thread in team:
            thread.join()
    return {
        "settings": {
            "workers": workers,
            "threads": threads,
            "seconds": seconds,
            "drawers": drawers,
            "viewers": viewers,
        },  # fmt: skip
        "share_page_ms": {
            "p50": load.percentile(pages, 50),
            "p90": load.percentile(pages, 90),
            "p99": load.percentile(pages, 99),
            "max": load.percentile(pages, 100),
        },
        "pages": len(pages),
        "statuses": charts,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=str(load.ROOT), help="the checkout to serve")
    parser.add_argument("--workers", type=int, default=load.Settings.workers)
    parser.add_argument("--threads", type=int, default=load.Settings.threads)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--drawers", type=int, default=6)
    parser.add_argument("--viewers", type=int, default=2)
    parser.add_argument(
        "--setting", action="append", default=[], help="NAME=VALUE: SCOREKEEPER_NAME for the server"
    )
    args = parser.parse_args(argv)
    result = flood(
        args.root, workers=args.workers, threads=args.threads, seconds=args.seconds,
        drawers=args.drawers, viewers=args.viewers,
        settings=dict(item.split("=", 1) for item in args.setting),
    )  # fmt: skip
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
