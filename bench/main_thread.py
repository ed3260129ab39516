"""The game page's main-thread work in CPU time, from Chromium's performance trace: a measure of
what Lighthouse's total blocking time counts that a busy machine does not blur.

Lighthouse's TBT is each main-thread task after first contentful paint as timed on this machine
(wall time), multiplied by 4, less 50 ms: on a shared machine another process's turn inflates a
task's wall time, and one page's TBT moved from 17 to 1,536 ms between runs (bench/README.md).
The trace also gives each task's thread time (`tdur`, the CPU it used), which the machine's load
barely moves. This builds bench/weight.py's database, opens a page in Debian's Chromium at
Lighthouse's phone size with the bench device's cookie (the round form and all), traces it to
1.5 s after its load event, and reports per run: the CPU of its scripts (`EvaluateScript`),
style and layout, parsing, the longest task after first contentful paint, and the TBT those
tasks would make at Lighthouse's 4x slowdown (`tbt_cpu_x4_ms`). Medians of `--runs`; stored
under `--label` in bench/results-main-thread.json. See bench/README.md.
"""

from __future__ import annotations

import argparse
import collections
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
from weight import ARGS, CHROMIUM, build, serve  # noqa: E402

from scorekeeper.web.devices import COOKIE  # noqa: E402

HERE = Path(__file__).parent
RESULTS = HERE / "results-main-thread.json"
CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline"]
SLOWDOWN = 4  # Lighthouse's mobile CPU multiplier
BLOCKING_MS = 50


def figures(events: list[dict]) -> dict[str, float]:
    """One trace's CPU figures (ms) on the page's renderer main thread."""
    threads = collections.Counter(
        (e["pid"], e["tid"]) for e in events if e.get("name") == "ParseHTML"
    )
    pid, tid = threads.most_common(1)[0][0]
    main = [e for e in events if (e.get("pid"), e.get("tid")) == (pid, tid) and e.get("ph") == "X"]
    cpu: dict[str, float] = collections.defaultdict(float)
    for event in main:
        name = event["name"]
        if name == "EvaluateScript":
            name = "script " + event["args"]["data"].get("url", "").rsplit("/", 1)[-1]
        elif name in ("Layout", "UpdateLayoutTree"):
            name = "style and layout"
        elif name == "ParseHTML":
            name = "parse HTML"
        else:
            continue
        cpu[name] += event.get("tdur", event.get("dur", 0)) / 1000
    paints = [e["ts"] for e in events if e.get("name") == "firstContentfulPaint"]
    after = [
        e.get("tdur", 0) / 1000
        for e in main
        if e["name"] == "RunTask" and paints and e["ts"] >= min(paints)
    ]
    # Tasks begun after first contentful paint (Lighthouse counts a task only from FCP on; the
    # one that paints it ends after it, its work before).
    cpu["longest task after FCP"] = max(after, default=0.0)
    cpu["tbt_cpu_x4_ms"] = sum(max(0.0, SLOWDOWN * ms - BLOCKING_MS) for ms in after)
    return {name: round(value, 1) for name, value in cpu.items()}


def trace(browser, base: str, path: str, folder: Path) -> dict[str, float]:
    """One cold load of `path`, traced."""
    context = browser.new_context(viewport={"width": 412, "height": 823}, service_workers="block")
    context.add_cookies([{"name": COOKIE, "value": BENCH_DEVICE, "url": base}])
    page = context.new_page()
    page.goto(base + "/healthz")  # the renderer of this origin is up before the trace starts
    out = folder / "trace.json"
    browser.start_tracing(page=page, path=str(out), categories=CATEGORIES)
    page.goto(base + path, wait_until="load")
    page.wait_for_timeout(1500)
    browser.stop_tracing()
    context.close()
    data = json.loads(out.read_text())
    return figures(data["traceEvents"] if isinstance(data, dict) else data)


def main(argv: list[str] | None = None) -> int:
    """Trace the page `--runs` times; print the medians and store them under `--label`."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--label", default="after", help="name of this run in the results file")
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--page", default="game in progress (8 players)")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as folder:
        built = build(Path(folder, "db"))
        server, base = serve(built["app"])
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                path = built["paths"][args.page]
                runs = [trace(browser, base, path, Path(folder)) for _ in range(args.runs)]
                browser.close()
        finally:
            server.shutdown()
    names = sorted({name for run in runs for name in run})
    median: dict[str, Any] = {
        name: statistics.median(run.get(name, 0.0) for run in runs) for name in names
    }
    for name in names:
        print(f"{name:28} {median[name]:7.1f} ms   {[run.get(name, 0.0) for run in runs]}")
    results = json.loads(args.out.read_text()) if args.out.exists() else {}
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=HERE
    ).stdout.strip()
    results[args.label] = {
        "commit": commit,
        "page": args.page,
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "median_cpu_ms": median,
        "runs": runs,
    }
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
