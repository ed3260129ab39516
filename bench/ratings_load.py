"""Ratings under load (issue 31): 8 members reloading the Ratings page of a 3,000-game club for
15 s while another table polls its game through the API, against the app as `make run` runs it
(gunicorn, gthread workers, a SQLite file).

The club is bench/ratings.py's (40 players, finished games as raw rows), filled before the
server starts; the members sign in through the sign-in form; each reloads the page as fast as
it answers, without If-None-Match (every view a new visitor's: the worst case; with
`--conditional` each sends back its ETag, as a browser's reload does), and the poller GETs its
game every 0.3 s. Reported: the poller's latencies (target: p99 at most
250 ms), the Ratings page's, and every status seen. `.venv/bin/python bench/ratings_load.py
[--games 3000] [--seconds 15] [--members 8] [--conditional]`; see bench/README.md, "Ratings kept".
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import platform
import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from datetime import date
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
if str(BENCH_DIR) not in sys.path:  # bench/ is not a package: its scripts are imported beside it
    sys.path.insert(0, str(BENCH_DIR))

import load  # noqa: E402
import ratings as ratings_bench  # noqa: E402
import run  # noqa: E402

from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.models import Membership  # noqa: E402
from scorekeeper.services import accounts as account_service  # noqa: E402

POLL_TARGET_P99_MS = 250.0
PASSWORD = "a long enough password"
CSRF = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')


def fill(folder: Path, games: int, members: int) -> tuple[int, list[str]]:
    """The club with `games` finished games and `members` signed-up members; their emails."""
    app = run.make_app(folder)
    club_id = ratings_bench.fill(app, games, 21)
    emails = [f"member{number}@example.com" for number in range(members)]
    with app.app_context():
        for number, email in enumerate(emails):
            user = account_service.create_user(f"Member {number}", email, PASSWORD)
            db.session.add(Membership(club_id=club_id, user_id=user.id, role="viewer"))
        db.session.commit()
        db.engine.dispose()
    return club_id, emails


def signed_in(base: str, email: str) -> urllib.request.OpenerDirector:
    """A browser (its own cookies) signed in through the sign-in form."""
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )
    page = opener.open(f"{base}/sign-in", timeout=30).read().decode()
    token = CSRF.search(page)
    assert token is not None, "no CSRF token on the sign-in page"
    form = urllib.parse.urlencode(
        {"csrf_token": token.group(1), "email": email, "password": PASSWORD}
    ).encode()
    answer = opener.open(f"{base}/sign-in", data=form, timeout=30)
    assert "/sign-in" not in answer.geturl(), "the member was not signed in"
    return opener


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


def summary(latencies: list[float]) -> dict[str, Any]:
    return {
        "count": len(latencies),
        "p50_ms": round(statistics.median(latencies), 1) if latencies else None,
        "p99_ms": percentile(latencies, 0.99),
        "max_ms": round(max(latencies), 1) if latencies else None,
    }


def measure(
    base: str, club_id: int, emails: list[str], seconds: float, conditional: bool
) -> dict[str, Any]:
    """The members reloading and the poller polling for `seconds`, at once; with `conditional`
    each member sends back the ETag it has, as a browser's reload does."""
    status, _, body = load.request(base, "POST", "/api/v1/games", {"players": ["Ana", "Ben"]})
    assert status == 201, body
    made = json.loads(body)
    browsers = [signed_in(base, email) for email in emails]
    page = f"{base}/clubs/{club_id}/ratings"
    browsers[0].open(page, timeout=60).read()  # the first view: the one replay of this mark
    statuses: Counter[str] = Counter()
    pages: list[float] = []
    polls: list[float] = []
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def member(browser: urllib.request.OpenerDirector) -> None:
        etag = None
        while time.monotonic() < stop:
            started = time.perf_counter()
            sent = urllib.request.Request(page)
            if conditional and etag:
                sent.add_header("If-None-Match", etag)
            try:
                with browser.open(sent, timeout=60) as answer:
                    answer.read()
                    code = answer.getcode()
                    etag = answer.headers.get("ETag") or etag
            except urllib.error.HTTPError as error:
                code = error.code  # urllib calls a 304 an error
            took = 1000 * (time.perf_counter() - started)
            with lock:
                statuses[f"page {code}"] += 1
                pages.append(took)

    def poller() -> None:
        client = load.Client(base)
        headers = {"Authorization": f"Bearer {made['view_token']}"}
        while time.monotonic() < stop:
            started = time.perf_counter()
            code, _, _ = client.send("GET", f"/api/v1/games/{made['id']}", headers=headers)
            took = 1000 * (time.perf_counter() - started)
            with lock:
                statuses[f"poll {code}"] += 1
                polls.append(took)
            time.sleep(0.3)
        client.close()

    threads = [threading.Thread(target=member, args=(b,)) for b in browsers]
    threads.append(threading.Thread(target=poller))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"game_api_get": summary(polls), "ratings_page": summary(pages), "statuses": statuses}


def main(argv: list[str] | None = None) -> int:
    """Fill, serve, measure, print, write bench/results-ratings-load.json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--members", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument(
        "--conditional", action="store_true", help="members send If-None-Match, as a reload does"
    )
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        club_id, emails = fill(scratch, args.games, args.members)
        environ = load.server_environ(
            str(load.ROOT), f"sqlite:///{scratch / 'bench.sqlite'}", scratch
        )
        workers = 2 * (os.cpu_count() or 1)  # as `make run` sizes them
        with load.gunicorn(
            str(load.ROOT), environ, workers=workers, threads=1, log=scratch / "server.log"
        ) as base:
            results = measure(base, club_id, emails, args.seconds, args.conditional)
    results["meta"] = {
        "games": args.games,
        "members": args.members,
        "seconds": args.seconds,
        "conditional": args.conditional,
        "workers": workers,
        "python": platform.python_version(),
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs",
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "date": date.today().isoformat(),
    }
    print(json.dumps(results, indent=2))
    name = (
        "results-ratings-load-conditional.json" if args.conditional else "results-ratings-load.json"
    )
    with open(args.out or BENCH_DIR / name, "w", encoding="utf-8") as handle:
        json.dump(results, handle, indent=2)
        handle.write("\n")
    p99 = results["game_api_get"]["p99_ms"]
    return 0 if p99 is not None and p99 <= POLL_TARGET_P99_MS else 1


if __name__ == "__main__":
    sys.exit(main())
