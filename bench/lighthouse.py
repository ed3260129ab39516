"""Lighthouse (mobile) on the game pages and the share page: performance score and total blocking
time, the figures issue 24 sets (performance >= 98, TBT <= 50 ms).

Builds bench/weight.py's database (8-player games on the bench device: one in progress with its
round form, one finished; the share page of the one in progress), serves the app on a loopback
port from a thread, and runs Lighthouse 12 (bench/lighthouse/, pinned: `npm ci` there first)
with Debian's Chromium headless, as a phone with the bench device's cookie (the scorer's page,
round form and all). Lighthouse's defaults: a mid-range phone, simulated slow 4G, the CPU slowed
4x. Each page is run `--runs` times; the table gives the median score and TBT. Not part of
`make test`; `make bench-lighthouse` runs it. See bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from run import BENCH_DEVICE  # noqa: E402
from weight import build, serve  # noqa: E402

from scorekeeper.web.devices import COOKIE  # noqa: E402

HERE = Path(__file__).parent
LIGHTHOUSE = HERE / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
RESULTS = HERE / "results-lighthouse.json"
CHROMIUM = "/usr/bin/chromium"
PAGES = ("game in progress (8 players)", "finished game (8 players)", "share page")
ATTEMPTS = 3
TARGETS = {"performance": 98, "total_blocking_time_ms": 50}
AUDITS = {
    "first_contentful_paint_ms": "first-contentful-paint",
    "largest_contentful_paint_ms": "largest-contentful-paint",
    "speed_index_ms": "speed-index",
    "total_blocking_time_ms": "total-blocking-time",
    "cumulative_layout_shift": "cumulative-layout-shift",
}


def lighthouse(url: str, folder: Path) -> dict[str, Any]:
    """One Lighthouse run of `url` (mobile, performance only): its score and main figures."""
    report = folder / "report.json"
    command = [
        str(LIGHTHOUSE),
        url,
        "--only-categories=performance",
        "--output=json",
        f"--output-path={report}",
        "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
        "--extra-headers",
        json.dumps({"Cookie": f"{COOKIE}={BENCH_DEVICE}"}),
        "--quiet",
    ]
    # Lighthouse now and then fails to record a trace (NO_NAVSTART) on a busy machine: again.
    for attempt in range(ATTEMPTS):
        done = subprocess.run(command, env={**os.environ, "CHROME_PATH": CHROMIUM})
        if done.returncode == 0:
            break
        print(f"Lighthouse failed on {url} (attempt {attempt + 1})", file=sys.stderr)
    else:
        raise RuntimeError(f"Lighthouse failed {ATTEMPTS} times on {url}")
    data = json.loads(report.read_text())
    row: dict[str, Any] = {"performance": round(data["categories"]["performance"]["score"] * 100)}
    for name, audit in AUDITS.items():
        value = data["audits"][audit]["numericValue"]
        row[name] = round(value, 3) if name == "cumulative_layout_shift" else round(value)
    blocking = data["audits"].get("render-blocking-resources", {}).get("details", {})
    row["render_blocking"] = [item["url"] for item in blocking.get("items", [])]
    work = data["audits"]["mainthread-work-breakdown"]["details"]["items"]
    row["main_thread_ms"] = {item["group"]: round(item["duration"]) for item in work}
    return row


def main(argv: list[str] | None = None) -> int:
    """Run Lighthouse on each page; print the medians and store the run under `--label`."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--label", default="after", help="name of this run in the results file")
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--runs", type=int, default=3, help="runs per page (median kept)")
    args = parser.parse_args(argv)
    if not LIGHTHOUSE.exists():
        print("Lighthouse is missing: cd bench/lighthouse && npm ci", file=sys.stderr)
        return 2

    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as folder:
        built = build(Path(folder, "db"))
        server, base = serve(built["app"])
        try:
            runs = {
                name: [
                    lighthouse(base + built["paths"][name], Path(folder)) for _ in range(args.runs)
                ]
                for name in PAGES
            }
        finally:
            server.shutdown()
    pages = {}
    print(f"{'page':32} {'performance':>11} {'TBT':>7} {'FCP':>7} {'LCP':>7} {'CLS':>6}")
    for name, rows in runs.items():
        median = {
            key: statistics.median(row[key] for row in rows) for key in ("performance", *AUDITS)
        }
        pages[name] = {"median": median, "runs": rows}
        print(
            f"{name:32} {median['performance']:>11} {median['total_blocking_time_ms']:>5} ms "
            f"{median['first_contentful_paint_ms']:>4} ms "
            f"{median['largest_contentful_paint_ms']:>4} ms "
            f"{median['cumulative_layout_shift']:>6}"
        )
    results = json.loads(args.out.read_text()) if args.out.exists() else {}
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=HERE
    ).stdout.strip()
    version = json.loads((HERE / "lighthouse" / "package.json").read_text())["dependencies"]
    results[args.label] = {
        "commit": commit,
        "lighthouse": version["lighthouse"],
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "targets": TARGETS,
        "pages": pages,
    }
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
