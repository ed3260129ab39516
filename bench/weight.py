"""Page weight: bytes each main page sends on its first load, and first paint on Slow 3G.

Serves the app on a loopback port from a thread (a fresh SQLite file), opens each page in
Debian's Chromium through Playwright with an empty cache, throttled with the Chrome DevTools
"Slow 3G" profile (`Network.emulateNetworkConditions`), and records the bytes on the wire
(`Network.loadingFinished.encodedDataLength`, headers included) by resource type and the
first paint (`performance.getEntriesByType('paint')`); then opens it again with the cache the
first visit left (a repeat visit), and the pages the service worker keeps once more with the
worker at work, its own fetches throttled alike (`worker_repeat`). `sizes` weighs the game pages
of issue 24's budget (decoded and gzipped HTML, through the test client). See bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import subprocess
import sys
import tempfile
import threading
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from werkzeug.serving import make_server

sys.path.insert(0, str(Path(__file__).parent))
from run import BENCH_DEVICE, make_app, plan_game, write_with_services  # noqa: E402

from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.services import accounts as account_service  # noqa: E402
from scorekeeper.services import clubs as club_service  # noqa: E402
from scorekeeper.services import games as game_service  # noqa: E402
from scorekeeper.services import seasons as season_service  # noqa: E402
from scorekeeper.web.devices import COOKIE  # noqa: E402

HERE = Path(__file__).parent
RESULTS = HERE / "results-weight.json"
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# Chrome DevTools' "Slow 3G" preset (front_end/core/sdk/NetworkManager.ts): 400 ms x 5 latency,
# 500 kbit/s x 0.8 each way.
SLOW_3G = {
    "offline": False,
    "latency": 2000,
    "downloadThroughput": 500 * 1000 / 8 * 0.8,
    "uploadThroughput": 500 * 1000 / 8 * 0.8,
}
# The same profile as its nominal figures (400 ms round trip, 400 kbit/s each way), as issue 24
# states it: DevTools multiplies the round trip by 5 for its preset.
RTT_400 = {**SLOW_3G, "latency": 400}
PROFILES = {"slow3g": SLOW_3G, "rtt400": RTT_400}
# What the budget counts: the page itself, its CSS and JS (charts, QR code and icons are not).
COUNTED = {"Document", "Stylesheet", "Script"}
BUDGET_BYTES = 30_000
BUDGET_PAINT_MS = 2500
BUDGET_REPEAT_PAINT_MS = 1200
# Issue 24's budget of decoded and gzipped HTML (the test client's bytes, no headers).
BUDGET_SIZES = {
    "finished game, 8 x 13": {"decoded": 30_000},
    "game in progress, 8 players, double-18": {"decoded": 120_000, "gzip": 25_000},
}
EMAIL, PASSWORD = "bench@example.com", "bench-password-1"


def build(folder: Path) -> dict[str, str]:
    """The pages to weigh, as paths on a fresh database: 8-player games on the bench device, a
    club with a season of five games."""
    app = make_app(folder)
    rng = random.Random(11)
    with app.app_context():
        finished = write_with_services(plan_game(rng, players=8, device=BENCH_DEVICE))
        playing = write_with_services(plan_game(rng, players=8, rounds=6, device=BENCH_DEVICE))
        share = game_service.game_row(playing).view_token
        user = account_service.create_user("Bench", EMAIL, PASSWORD)
        club = club_service.create_club(user, "Bench club")
        today = date.today()
        season = season_service.create_season(
            club,
            season_service.SeasonInput(
                "Spring", today - timedelta(days=30), today + timedelta(days=30)
            ),
        ).season
        club_id, season_id = club.id, season.id
        for _ in range(5):
            plan = plan_game(rng, players=6)
            game_id = game_service.create_game(plan.players, plan.rules, club_id=club_id).id
            for number, entry in enumerate(plan.entries, 1):
                db.session.remove()
                row = game_service.game_row(game_id)
                game_service.record_round(row, entry, number=number, confirm=True)
            db.session.remove()
        paths = {
            "home": "/",
            "new game": "/games/new",
            "game in progress (8 players)": f"/games/{playing}",
            "finished game (8 players)": f"/games/{finished}",
            "share page": f"/s/{share}",
            "season page": f"/clubs/{club_id}/seasons/{season_id}",
        }
    return {"app": app, "paths": paths}  # type: ignore[dict-item]


def serve(app) -> tuple[Any, str]:
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}"


def weigh(
    browser,
    base: str,
    path: str,
    state: dict,
    throttle: bool,
    profile: dict | None = None,
    repeat: bool = False,
) -> dict[str, Any]:
    """One cold first load of `path`: bytes by resource type and first paint. With `repeat`,
    also the first paint of a second visit with what the first left in the HTTP cache (the
    service worker is kept out: page-level throttling does not reach its fetches)."""
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, storage_state=state, service_workers="block"
    )
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    if not repeat:
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    if throttle:
        cdp.send("Network.emulateNetworkConditions", profile or SLOW_3G)
    types: dict[str, str] = {}
    sizes: dict[str, int] = {}
    encodings: dict[str, str] = {}

    def received(event: dict) -> None:
        types[event["requestId"]] = event.get("type", "Other")
        headers = {k.lower(): v for k, v in event["response"].get("headers", {}).items()}
        encodings[event["requestId"]] = headers.get("content-encoding", "")

    cdp.on("Network.responseReceived", received)
    cdp.on(
        "Network.loadingFinished",
        lambda event: sizes.__setitem__(event["requestId"], int(event["encodedDataLength"])),
    )
    page.goto(base + path, wait_until="load", timeout=120_000)
    page.wait_for_timeout(300)
    paints = page.evaluate(
        "() => Object.fromEntries(performance.getEntriesByType('paint')"
        ".map(p => [p.name, Math.round(p.startTime)]))"
    )
    by_type: dict[str, int] = {}
    for request_id, size in sizes.items():
        kind = types.get(request_id, "Other")
        by_type[kind] = by_type.get(kind, 0) + size
    again: dict[str, Any] = {}
    if repeat:
        page.goto("about:blank")
        sizes.clear()
        page.goto(base + path, wait_until="load", timeout=120_000)
        page.wait_for_timeout(300)
        again = page.evaluate(
            "() => Object.fromEntries(performance.getEntriesByType('paint')"
            ".map(p => [p.name, Math.round(p.startTime)]))"
        )
        again["bytes_all"] = sum(sizes.values())
    context.close()
    return {
        "bytes_html_css_js": sum(v for k, v in by_type.items() if k in COUNTED),
        "bytes_all": sum(by_type.values()),
        "bytes_by_type": by_type,
        "compressed": sorted({e for e in encodings.values() if e}),
        "first_paint_ms": paints.get("first-paint"),
        "first_contentful_paint_ms": paints.get("first-contentful-paint"),
        **(
            {
                "repeat_first_paint_ms": again.get("first-paint"),
                "repeat_bytes_all": again["bytes_all"],
            }
            if repeat
            else {}
        ),
    }


# The pages the service worker keeps (static/js/sw.js: game and share pages).
KEPT_PAGES = ("game in progress (8 players)", "finished game (8 players)", "share page")


def throttle_workers(browser, profile: dict) -> None:
    """The same network profile for every service worker of the browser: a page's throttling
    does not reach its worker's fetches. Through the browser's DevTools session (a worker is a
    target of its own; `Target.sendMessageToTarget` talks to it without a session of its own)."""
    session = browser.new_browser_cdp_session()
    for target in session.send("Target.getTargets")["targetInfos"]:
        if target["type"] != "service_worker":
            continue
        worker = session.send(
            "Target.attachToTarget", {"targetId": target["targetId"], "flatten": False}
        )["sessionId"]
        for number, (method, params) in enumerate(
            (("Network.enable", {}), ("Network.emulateNetworkConditions", profile))
        ):
            message = {"id": number + 1, "method": method, "params": params}
            session.send(
                "Target.sendMessageToTarget",
                {"sessionId": worker, "message": json.dumps(message)},
            )


def worker_repeat(browser, base: str, path: str, state: dict, profile: dict) -> dict[str, Any]:
    """A repeat visit with the service worker at work: a first visit (not throttled) installs
    it and lets it keep the page, then the page and the worker are throttled alike and the
    page is opened again. First paint, and whether the worker's kept copy answered."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, storage_state=state)
    page = context.new_page()
    page.goto(base + path, wait_until="load")
    page.wait_for_function("navigator.serviceWorker.ready.then(() => true)")
    page.reload(wait_until="load")  # now through the worker, which keeps this answer
    page.wait_for_function("url => caches.match(url).then(Boolean)", arg=base + path)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", profile)
    throttle_workers(browser, profile)
    page.goto("about:blank")
    page.goto(base + path, wait_until="load", timeout=120_000)
    page.wait_for_timeout(300)
    paints = page.evaluate(
        "() => Object.fromEntries(performance.getEntriesByType('paint')"
        ".map(p => [p.name, Math.round(p.startTime)]))"
    )
    kept = page.evaluate("document.documentElement.dataset.kept === '1'")
    context.close()
    return {"worker_repeat_first_paint_ms": paints.get("first-paint"), "worker_kept_copy": kept}


def sizes(folder: Path) -> dict[str, dict[str, int]]:
    """Issue 24's pages by their HTML's bytes, decoded and gzipped (as a phone asks): a finished
    8-player game of 13 rounds, an 8-player game on a double-18 set before its first round (the
    round form's eight hands, the heaviest page) and a share page of the finished game."""
    app = make_app(folder)
    rng = random.Random(11)
    with app.app_context():
        finished = write_with_services(plan_game(rng, players=8, device=BENCH_DEVICE))
        plan = plan_game(rng, players=8, rounds=0, device=BENCH_DEVICE)
        plan = replace(plan, rules=replace(plan.rules, set_size=18))
        playing = write_with_services(plan)
        share = game_service.game_row(finished).view_token
    client = app.test_client()
    client.set_cookie(COOKIE, BENCH_DEVICE)
    paths = {
        "finished game, 8 x 13": f"/games/{finished}",
        "game in progress, 8 players, double-18": f"/games/{playing}",
        "share page (finished game)": f"/s/{share}",
    }
    weights = {}
    for name, path in paths.items():
        plain = client.get(path, headers={"Accept-Language": "en"})
        packed = client.get(path, headers={"Accept-Language": "en", "Accept-Encoding": "gzip"})
        assert plain.status_code == packed.status_code == 200, path
        weights[name] = {"decoded": len(plain.get_data()), "gzip": len(packed.get_data())}
    return weights


def signed_in_state(browser, base: str) -> dict:
    """Cookies of the bench device (edit rights on its games) and of the club owner."""
    context = browser.new_context()
    context.add_cookies([{"name": COOKIE, "value": BENCH_DEVICE, "url": base}])
    page = context.new_page()
    page.goto(base + "/sign-in")
    page.get_by_label("Email").fill(EMAIL)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_load_state()
    state = context.storage_state()
    context.close()
    return state


def main(argv: list[str] | None = None) -> int:
    """Weigh every page; print a table and store the run under `--label` in the results file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--label", default="after", help="name of this run in the results file")
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--no-throttle", action="store_true", help="bytes only, no Slow 3G")
    parser.add_argument(
        "--profile",
        choices=sorted(PROFILES),
        default="slow3g",
        help="slow3g: DevTools' preset (2,000 ms a request); rtt400: its nominal 400 ms",
    )
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    throttle = not args.no_throttle
    with tempfile.TemporaryDirectory() as folder:
        weights = sizes(Path(folder, "sizes"))
        built = build(Path(folder, "pages"))
        server, base = serve(built["app"])
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                state = signed_in_state(browser, base)
                pages = {
                    name: weigh(
                        browser, base, path, state, throttle, PROFILES[args.profile], throttle
                    )
                    for name, path in built["paths"].items()
                }
                if throttle:
                    for name in KEPT_PAGES:
                        pages[name].update(
                            worker_repeat(
                                browser, base, built["paths"][name], state, PROFILES[args.profile]
                            )
                        )
                browser.close()
        finally:
            server.shutdown()
    print(f"{'page (HTML only)':40} {'decoded':>9} {'gzip':>7}")
    for name, row in weights.items():
        print(f"{name:40} {row['decoded']:>9,} {row['gzip']:>7,}")
    print(
        f"\n{'page':32} {'HTML+CSS+JS':>12} {'all':>8} {'first paint':>12} {'repeat':>8}"
        f" {'with worker':>12}"
    )
    for name, row in pages.items():
        paint, again = row["first_paint_ms"], row.get("repeat_first_paint_ms")
        worker = row.get("worker_repeat_first_paint_ms")
        print(
            f"{name:32} {row['bytes_html_css_js']:>12,} {row['bytes_all']:>8,} "
            f"{(str(paint) + ' ms') if paint is not None else '-':>12} "
            f"{(str(again) + ' ms') if again is not None else '-':>8}"
            f" {(str(worker) + ' ms') if worker is not None else '-':>12}"
        )
    results = json.loads(args.out.read_text()) if args.out.exists() else {}
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=HERE
    ).stdout.strip()
    conditions = PROFILES[args.profile]
    results[args.label] = {
        "commit": commit,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "profile": (
            f"{args.profile} ({conditions['latency']} ms, 400 kbit/s)" if throttle else "none"
        ),
        "budget": {
            "bytes_html_css_js": BUDGET_BYTES,
            "first_paint_ms": BUDGET_PAINT_MS,
            "repeat_first_paint_ms": BUDGET_REPEAT_PAINT_MS,
            "sizes": BUDGET_SIZES,
        },
        "sizes": weights,
        "pages": pages,
    }
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
