"""Read paths side by side: a hello-world Flask page, an older commit and this checkout, each
served the same way (gunicorn, 4 processes x 1 thread, as `make run` serves), loaded with wrk
on loopback, and each request's req/s printed as a share of hello's in the same run.

Each checkout needs its own .venv (an older commit's can be installed from today's lock: see
bench/README.md). Its database is built by its own bench/run.py (an 8-player, 13-round finished
game and an 8-player game at round 6, on the bench device), so each serves the same games.

    .venv/bin/python bench/side_by_side.py --old ../read-paths-86c0627 --seconds 5 --rounds 2

The machine's load average is printed with every wrk run: compare ratios of one run only.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import tree_cpu  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "results-side-by-side.json"

HELLO = """
from flask import Flask
app = Flask(__name__)
@app.get("/")
def hello():
    return "Hello, World!"
"""

# Run inside each checkout (its own venv and bench/run.py): the games every kind reads.
SEED = """
import json, random, sys
from pathlib import Path
sys.path.insert(0, "bench")
from run import BENCH_DEVICE, make_app, plan_game, write_with_services
from scorekeeper.web.devices import COOKIE
from scorekeeper.extensions import db
from scorekeeper.models import Game
app = make_app(Path(sys.argv[1]))
with app.app_context():
    rng = random.Random(7)
    done = write_with_services(plan_game(rng, players=8, device=BENCH_DEVICE, open_train=True))
    going = write_with_services(
        plan_game(rng, players=8, rounds=6, device=BENCH_DEVICE, open_train=True)
    )
    view = db.session.get(Game, done).view_token
print(json.dumps({"done": done, "going": going, "view": view, "cookie": COOKIE,
                  "device": BENCH_DEVICE}))
"""

# What a phone sends (the pages are compressed for it, as for a browser).
BROWSER = {"Accept-Encoding": "gzip, br", "Accept-Language": "en"}


def kinds(seed: dict[str, Any]) -> dict[str, tuple[str, dict[str, str], bool]]:
    """Each request kind: its path, headers, and whether it is polled with the ETag (304)."""
    device = {"Cookie": f"{seed['cookie']}={seed['device']}"}
    view, done = seed["view"], seed["done"]
    return {
        "/healthz": ("/healthz", {}, False),
        "live poll answered 304": (f"/s/{view}/live", {}, True),
        "cached chart SVG": (f"/games/{done}/chart/race.svg", device, False),
        "API game GET (8x13)": (
            f"/api/v1/games/{done}",
            {"Authorization": f"Bearer {view}"},
            False,
        ),
        "share page": (f"/s/{view}", {}, False),
        "game page (finished)": (f"/games/{done}", device, False),
        "game page (in progress)": (f"/games/{seed['going']}", device, False),
    }


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def fetch(url: str, headers: dict[str, str]) -> tuple[int, dict[str, str]]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            answer.read()
            got = dict(answer.headers)
            got["Set-Cookie"] = "\n".join(answer.headers.get_all("Set-Cookie") or [])
            return answer.status, got
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers)


def settled(url: str, headers: dict[str, str]) -> tuple[int, dict[str, str], dict[str, str]]:
    """Fetch `url` as a phone's browser does, keeping the cookies it is given, until it is
    given none (a session's CSRF token, then Flask-Login's mark): the headers a phone then
    sends with every view of the page, and the last answer."""
    jar = dict(
        part.strip().split("=", 1) for part in headers.get("Cookie", "").split(";") if "=" in part
    )
    for _visit in range(5):
        status, got = fetch(url, headers)
        cookies = [line.split(";", 1)[0] for line in got.get("Set-Cookie", "").splitlines()]
        if not cookies:
            break
        jar.update(cookie.strip().split("=", 1) for cookie in cookies if "=" in cookie)
        headers = {**headers, "Cookie": "; ".join(f"{k}={v}" for k, v in jar.items())}
    return status, got, headers


@contextmanager
def serve(
    name: str, root: Path, app: str, environ: dict[str, str], log: Path
) -> Iterator[tuple[str, int]]:
    """gunicorn with 4 processes x 1 thread (gthread, as `make run`), the checkout's own
    gunicorn.conf.py if it has one (its access logger; not for hello), the access log to
    `log`."""
    port = free_port()
    venv = root / ".venv" / "bin"
    config = root / "gunicorn.conf.py"
    own = config.exists() and name != "hello"
    command = [
        str(venv / "gunicorn"),
        *(["--config", str(config)] if own else []),
        *("--chdir", str(root), "--worker-class", "gthread", "--workers", "4"),
        *("--threads", "1", "--bind", f"127.0.0.1:{port}", "--access-logfile", str(log)),
        *("--error-logfile", str(log), "--graceful-timeout", "5", app),
    ]
    process = subprocess.Popen(command, cwd=root, env=environ, stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"{name}: gunicorn exited, see {log}")
            try:
                fetch(base + "/", {})
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{name}: no answer in 60 s, see {log}") from None
                time.sleep(0.2)
        yield base, process.pid
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def wrk(
    url: str, headers: dict[str, str], seconds: int, connections: int, server: int
) -> dict[str, Any]:
    """One bounded wrk run on loopback: req/s, the answers that were not 2xx/3xx, and the
    server's CPU time per request (its master and workers: what the request costs, whatever
    else the machine is doing)."""
    command = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency"]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    load = os.getloadavg()[0]
    cpu = tree_cpu([server])
    out = subprocess.run(
        [*command, url], capture_output=True, text=True, check=True, timeout=seconds + 30
    ).stdout
    cpu = tree_cpu([server]) - cpu
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    served = int(re.search(r"(\d+) requests in", out).group(1))
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}
    return {
        "rps": rate,
        "bad": int(bad.group(1)) if bad else 0,
        "p99_ms": float(p99.group(1)) * scale[p99.group(2)] if p99 else None,
        "load": round(load, 2),
        "cpu_ms": round(cpu / max(served, 1) * 1000, 3),
    }


def seed_checkout(root: Path, folder: Path) -> dict[str, Any]:
    python = root / ".venv" / "bin" / "python"
    environ = {**os.environ, "MPLCONFIGDIR": str(folder / "mpl"), "PYTHONDONTWRITEBYTECODE": "1"}
    out = subprocess.run(
        [str(python), "-c", SEED, str(folder)],
        cwd=root,
        env=environ,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def server_environ(folder: Path) -> dict[str, str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    environ.update(
        DATABASE_URL=f"sqlite:///{folder / 'bench.sqlite'}",
        SECRET_KEY="side-by-side-bench-secret-key-0123456789abcdef",
        SCOREKEEPER_RATELIMIT_ENABLED="false",
        SCOREKEEPER_CHART_CACHE_DIR=str(folder / "charts"),
        MPLCONFIGDIR=str(folder / "mpl"),
        PYTHONDONTWRITEBYTECODE="1",
    )
    return environ


def _stop(_signal: int, _frame: Any) -> None:
    raise KeyboardInterrupt  # the servers are stopped on the way out


def main(argv: list[str] | None = None) -> int:
    signal.signal(signal.SIGTERM, _stop)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--old", type=Path, action="append", default=[], help="another checkout with its .venv"
    )
    parser.add_argument("--seconds", type=int, default=5, help="each wrk run (default 5)")
    parser.add_argument("--rounds", type=int, default=2, help="runs of every kind (median)")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--only", action="append", help="measure only kinds containing this")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    if shutil.which("wrk") is None:
        sys.exit("wrk is missing: apt-get install -y wrk")
    checkouts = {path.resolve().name: path.resolve() for path in args.old}
    checkouts["this checkout"] = ROOT
    scratch = Path(tempfile.mkdtemp(prefix="side-by-side-"))
    results: dict[str, Any] = {"load_before": os.getloadavg(), "runs": []}
    try:
        with ExitStack() as stack:
            (scratch / "hello").mkdir()
            (scratch / "hello" / "hello.py").write_text(HELLO)
            hello_env = {**os.environ, "PYTHONPATH": str(scratch / "hello")}
            log = scratch / "hello.log"
            hello, hello_pid = stack.enter_context(
                serve("hello", ROOT, "hello:app", hello_env, log)
            )
            bases, plans = {}, {}
            for name, root in checkouts.items():
                folder = scratch / name
                seed = seed_checkout(root, folder)
                app = "scorekeeper:create_app()"
                environ = {**server_environ(folder), "PYTHONPATH": str(root)}
                bases[name] = stack.enter_context(
                    serve(name, root, app, environ, scratch / f"{name}.log")
                )
                plans[name] = kinds(seed)
            table: dict[str, dict[str, list[float]]] = {}
            cpu_table: dict[str, dict[str, list[float]]] = {}
            for round_ in range(args.rounds):
                for kind in plans["this checkout"]:
                    if args.only and not any(part in kind for part in args.only):
                        continue
                    for name, (base, pid) in bases.items():
                        # hello just before each: the machine's load moves by the second.
                        base_run = wrk(
                            hello + "/", BROWSER, args.seconds, args.connections, hello_pid
                        )
                        path, headers, poll = plans[name][kind]
                        headers = {**BROWSER, **headers}
                        # Warm (charts drawn, answers kept), with the cookies a phone keeps.
                        status, got, headers = settled(base + path, headers)
                        if poll:
                            headers["If-None-Match"] = got["ETag"]
                            status, _ = fetch(base + path, headers)
                            assert status == 304, (name, kind, status)
                        assert status in (200, 304), (name, kind, status)
                        # Every worker renders once first (each compiles its templates).
                        wrk(base + path, headers, 1, args.connections, pid)
                        run = wrk(base + path, headers, args.seconds, args.connections, pid)
                        ratio = run["rps"] / base_run["rps"]
                        by_cpu = base_run["cpu_ms"] / run["cpu_ms"]
                        table.setdefault(kind, {}).setdefault(name, []).append(ratio)
                        cpu_table.setdefault(kind, {}).setdefault(name, []).append(by_cpu)
                        results["runs"].append(
                            {"round": round_, "kind": kind, "app": name, "hello": base_run, **run}
                        )
                        print(
                            f"{kind:26} {name:22} {run['rps']:8.0f} req/s = {ratio:4.0%} of "
                            f"hello ({base_run['rps']:.0f}); server CPU {run['cpu_ms']:.2f} ms/req "
                            f"= {by_cpu:4.0%} of hello's ({base_run['cpu_ms']:.2f}); "
                            f"p99 {run['p99_ms']} ms, non-2xx/3xx {run['bad']}, load {run['load']}",
                            flush=True,
                        )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    results["load_after"] = os.getloadavg()
    results["ratios"] = {
        kind: {name: round(statistics.median(values), 3) for name, values in apps.items()}
        for kind, apps in table.items()
    }
    results["cpu_ratios"] = {
        kind: {name: round(statistics.median(values), 3) for name, values in apps.items()}
        for kind, apps in cpu_table.items()
    }
    names = list(checkouts)
    for title, ratios in (
        (f"req/s as % of hello's (wrk -c{args.connections})", results["ratios"]),
        ("hello's server CPU per request as % of each one's", results["cpu_ratios"]),
    ):
        print(f"\n{title}, median of {args.rounds} runs:")
        print(f"{'request':26} " + " ".join(f"{name:>22}" for name in names))
        for kind, apps in ratios.items():
            print(f"{kind:26} " + " ".join(f"{apps.get(name, 0):22.0%}" for name in names))
    print(f"load average before {results['load_before']}, after {results['load_after']}")
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
