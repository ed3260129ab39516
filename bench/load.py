"""Load run: concurrent API writers and readers against gunicorn, then a check that nothing
acknowledged was lost or duplicated (bench/README.md, "Load run").

    python bench/load.py --db sqlite                      # 50 writers, 60 s
    python bench/load.py --db postgres --out bench/results-load-postgres.json
    python bench/load.py --db sqlite --root /work/other-checkout   # measure another checkout

The app runs as `make run` runs it (gunicorn, gthread workers) on a fresh database: a SQLite
file, or a throwaway PostgreSQL cluster made with the machine's initdb/pg_ctl. Writers record,
correct and undo rounds through the API, several of them on the same games; readers poll the
share page and the API. At the end the database is compared with every acknowledged write.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ("Ana", "Ben", "Cy")
# Past this many rounds a writer undoes the last one instead (a game must not end mid-run:
# double-12 Mexican Train ends after 13 rounds).
MAX_ROUNDS = 12


@dataclass
class Settings:
    """One load run's shape."""

    db: str = "sqlite"
    writers: int = 50
    readers: int = 4
    duration: float = 60.0
    # Seconds of the same load before the measured part (each worker imports and warms up).
    warmup: float = 5.0
    # gunicorn.conf.py's default on 2 cores (two processes per core, one request thread each).
    workers: int = 4
    threads: int = 1
    # Writers alone on a game; the others share games in groups of `share`.
    solo: int = 10
    share: int = 4
    # A writer's pause between two operations (uniform 0..2x this): a phone, not a fuzzer.
    think: float = 0.25
    seed: int = 1
    root: str = str(ROOT)


# Servers ---------------------------------------------------------------------------------------


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _as_postgres(command: list[str]) -> list[str]:
    """initdb refuses to run as root: run the server tools as the postgres user then."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


@contextlib.contextmanager
def postgres_cluster() -> Iterator[str]:
    """A throwaway PostgreSQL cluster with an empty database; its SQLAlchemy URL."""
    initdb, pg_ctl = shutil.which("initdb"), shutil.which("pg_ctl")
    if not (initdb and pg_ctl):
        raise RuntimeError("PostgreSQL's initdb/pg_ctl are not on this machine")
    # Not under a private temp folder: the server runs as the postgres user.
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-load-pg-"))
    data = folder / "data"
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    port = free_port()
    subprocess.run(
        _as_postgres(
            [initdb, "-D", str(data), "-U", "app", "--auth=trust", "-E", "UTF8"]
            + ["--locale=C.UTF-8", "-N"]
        ),
        check=True,
        capture_output=True,
    )
    # Enough connections for every pooled connection of every worker (SQLAlchemy: 5 + 10).
    options = (
        f"-k {folder} -p {port} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
    )
    subprocess.run(
        _as_postgres([pg_ctl, "-D", str(data), "-w", "-o", options, "-l", str(folder / "log")])
        + ["start"],
        check=True,
        capture_output=True,
    )
    try:
        subprocess.run(
            ["psql", "-h", "127.0.0.1", "-p", str(port), "-U", "app", "-d", "postgres"]
            + ["-c", "CREATE DATABASE scorekeeper"],
            check=True,
            capture_output=True,
        )
        yield f"postgresql+psycopg://app@127.0.0.1:{port}/scorekeeper"
    finally:
        subprocess.run(
            _as_postgres([pg_ctl, "-D", str(data), "-m", "fast", "stop"]), capture_output=True
        )
        shutil.rmtree(folder, ignore_errors=True)


def server_environ(root: str, database_url: str, scratch: Path) -> dict[str, str]:
    """The environment a production server gets: its database, a real key, no rate limits
    (the load run measures the database, not the limiter), chart files in a scratch folder."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    environ.update(
        DATABASE_URL=database_url,
        SECRET_KEY=secrets.token_hex(32),
        SCOREKEEPER_RATELIMIT_ENABLED="false",
        SCOREKEEPER_CHART_CACHE_DIR=str(scratch / "charts"),
        MPLCONFIGDIR=str(scratch / "mpl"),
        PYTHONPATH=root,
        PYTHONDONTWRITEBYTECODE="1",
    )
    return environ


def migrate(root: str, environ: dict[str, str]) -> None:
    """`flask db upgrade`, once, before any server starts (as `make run` does)."""
    flask = str(Path(sys.executable).with_name("flask"))
    subprocess.run(
        [flask, "--app", "scorekeeper", "db", "upgrade"],
        cwd=root,
        env=environ,
        check=True,
        capture_output=True,
    )


@contextlib.contextmanager
def gunicorn(
    root: str, environ: dict[str, str], *, workers: int, threads: int, log: Path
) -> Iterator[str]:
    """The app under gunicorn as `make run` starts it (gunicorn.conf.py when the checkout has
    one: gthread, the access log with tokens redacted, into `log`); its base URL once it
    answers. `workers` and `threads` override the file's."""
    port = free_port()
    config = Path(root) / "gunicorn.conf.py"
    command = [
        str(Path(sys.executable).with_name("gunicorn")),
        *(["--config", str(config)] if config.exists() else []),
        "--chdir",
        root,
        "--worker-class",
        "gthread",
        "--workers",
        str(workers),
        "--threads",
        str(threads),
        "--bind",
        f"127.0.0.1:{port}",
        "--graceful-timeout",
        "20",
        "--no-control-socket",
        "scorekeeper:create_app()",
    ]
    with log.open("ab") as out:
        process = subprocess.Popen(
            command, cwd=root, env=environ, stdout=out, stderr=subprocess.STDOUT
        )
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"gunicorn exited ({process.returncode}): see {log}")
            try:
                status, _, _ = request(f"http://127.0.0.1:{port}", "GET", "/healthz")
                if status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not answer in 60 s: see {log}")
            time.sleep(0.2)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# HTTP ------------------------------------------------------------------------------------------


def request(
    base: str,
    method: str,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
    connection: http.client.HTTPConnection | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """One request (on `connection`, kept alive, or a new one); status, headers, body."""
    own = connection is None
    if connection is None:
        host = base.removeprefix("http://")
        connection = http.client.HTTPConnection(host, timeout=30)
    data = None if body is None else json.dumps(body).encode()
    sent = {"Accept": "application/json", **(headers or {})}
    if data is not None:
        sent["Content-Type"] = "application/json"
    try:
        connection.request(method, path, body=data, headers=sent)
        response = connection.getresponse()
        payload = response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, payload
    finally:
        if own:
            connection.close()


class Client:
    """One simulated phone's keep-alive connection (reconnects after an error)."""

    def __init__(self, base: str):
        self.base = base
        self.connection: http.client.HTTPConnection | None = None

    def send(self, method: str, path: str, body: Any = None, headers: Any = None) -> tuple:
        if self.connection is None:
            self.connection = http.client.HTTPConnection(
                self.base.removeprefix("http://"), timeout=30
            )
        try:
            return request(self.base, method, path, body, headers, self.connection)
        except (OSError, http.client.HTTPException):
            self.close()
            raise

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def version_of(headers: dict[str, str]) -> int:
    """The game version an ETag names ("g12v7-3b8e41c07d2a" -> 7: id, version, game key)."""
    named = headers["etag"].strip('W/"').split("-", 1)[0]
    return int(named.rsplit("v", 1)[1])


# What the machine did meanwhile ---------------------------------------------------------------

TICK = os.sysconf("SC_CLK_TCK")


def process_tree() -> dict[int, list[int]]:
    """Every process's children, by parent id (from /proc)."""
    tree: dict[int, list[int]] = defaultdict(list)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            tree[int(fields[1])].append(int(entry.name))
    return tree


def tree_cpu(roots: list[int]) -> float:
    """CPU seconds (user + system) used so far by these processes and all their descendants
    (threads included; children that ended and were waited for, too)."""
    tree, total, todo, seen = process_tree(), 0, list(roots), set()
    while todo:
        pid = todo.pop()
        # gunicorn's workers carry their master's command line: found as roots and as its
        # children, each is counted once.
        if pid in seen:
            continue
        seen.add(pid)
        todo.extend(tree.get(pid, ()))
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(x) for x in fields[11:15])  # utime stime cutime cstime
    return total / TICK


def listening_pids(program: bytes, port: str) -> list[int]:
    """The processes of `program` whose command line names this port (gunicorn's --bind,
    PostgreSQL's -p): the servers of this run, not those of other runs on the machine."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            # A script's first word is its interpreter: look at the second too.
            named = any(program in part.rsplit(b"/", 1)[-1] for part in command[:2])
            if named and any(
                part.endswith(b":" + port.encode()) or part == port.encode() for part in command
            ):
                found.append(int(entry.name))
    return found


def postgres_pids(database_url: str) -> list[int]:
    """The PostgreSQL server serving this URL (its postmaster, found by its port), if local."""
    if not database_url.startswith("postgresql"):
        return []
    port = database_url.rsplit(":", 1)[1].split("/", 1)[0]
    return [pid for pid in listening_pids(b"postgres", port) if pid != os.getpid()]


def machine_cpu() -> dict[str, float]:
    """The whole machine's CPU counters so far (seconds summed over every core), from /proc/stat."""
    names = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")
    first = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    return {name: int(value) / TICK for name, value in zip(names, first, strict=False)}


@dataclass
class Meter:
    """CPU spent during the measured part: by the app server, the database server, this load
    client, and the whole machine (others' work too), with the load average at both ends."""

    server: list[int]
    database: list[int]
    started: dict[str, Any] = field(default_factory=dict)

    def sample(self) -> dict[str, Any]:
        return {
            "server": tree_cpu(self.server),
            "database": tree_cpu(self.database),
            "client": time.process_time(),
            "machine": machine_cpu(),
            "load": [round(x, 2) for x in os.getloadavg()],
            "at": time.monotonic(),
        }

    def start(self) -> None:
        self.started = self.sample()

    def stop(self, requests: int) -> dict[str, Any]:
        end, begin = self.sample(), self.started
        seconds = end["at"] - begin["at"]
        machine = {k: end["machine"][k] - begin["machine"][k] for k in end["machine"]}
        capacity = sum(machine.values())
        spent = {k: round(end[k] - begin[k], 1) for k in ("server", "database", "client")}
        ours = sum(spent.values())
        busy = capacity - machine["idle"] - machine["iowait"]
        return {
            "cpu_seconds": spent,
            "server_cpu_ms_per_request": round(1000 * spent["server"] / max(requests, 1), 2),
            "database_cpu_ms_per_request": round(1000 * spent["database"] / max(requests, 1), 2),
            "client_cpu_ms_per_request": round(1000 * spent["client"] / max(requests, 1), 2),
            "cores_available": round(capacity / seconds, 2),
            "cores_busy": round(busy / seconds, 2),
            "cores_used_by_run": round(ours / seconds, 2),
            "cores_used_by_others": round((busy - ours) / seconds, 2),
            "steal_percent": round(100 * machine["steal"] / max(capacity, 1e-9), 1),
            "load_average_start": begin["load"],
            "load_average_end": end["load"],
        }


# The run ---------------------------------------------------------------------------------------


@dataclass
class Game:
    """A game made for the run, and every write the server acknowledged on it."""

    id: int
    edit_token: str
    view_token: str
    # (version the write made, kind, round number, pips per seat or None for an undo)
    acked: list[tuple[int, str, int, tuple[int, ...] | None]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


@dataclass
class Tally:
    """What the clients saw: latencies per kind of write, statuses, errors."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)
    reads: int = 0
    # Every request sent while measuring (the writers' game loads too): the server's work.
    requests: int = 0
    # False during the warm-up: answers are checked (acknowledged writes kept), not counted.
    measuring: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, status: int, seconds: float) -> None:
        with self.lock:
            if not self.measuring and status < 500:
                return
            self.statuses[f"{kind} {status}"] += 1
            self.requests += kind != "load"
            if status < 300:
                self.latencies[kind].append(seconds)


def create_games(base: str, count: int) -> list[Game]:
    """Quick games of three through the API."""
    games = []
    for _ in range(count):
        status, _, body = request(base, "POST", "/api/v1/games", {"players": list(PLAYERS)})
        assert status == 201, body
        made = json.loads(body)
        games.append(Game(made["id"], made["edit_token"], made["view_token"]))
    return games


def entry(rng: random.Random, number: int) -> tuple[dict[str, Any], tuple[int, ...]]:
    """A round's API body and the pips each seat should then hold (the one out holds 0)."""
    out = rng.randrange(len(PLAYERS))
    pips = tuple(0 if seat == out else rng.randint(1, 120) for seat in range(len(PLAYERS)))
    body = {
        "number": number,
        "out": PLAYERS[out],
        "scores": {name: pips[seat] for seat, name in enumerate(PLAYERS) if seat != out},
        "confirm": True,
    }
    return body, pips


def writer(base: str, game: Game, tally: Tally, settings: Settings, stop: float, seed: int):
    """Load the game, then record (most often), correct or undo a round; until `stop`."""
    rng = random.Random(seed)
    client = Client(base)
    auth = {"Authorization": f"Bearer {game.edit_token}"}
    path = f"/api/v1/games/{game.id}"
    try:
        _write_until(client, path, auth, game, tally, settings, stop, rng)
    finally:
        client.close()


def _write_until(client, path, auth, game, tally, settings, stop, rng) -> None:
    while time.monotonic() < stop:
        try:
            status, headers, body = client.send("GET", path, headers=auth)
            with tally.lock:
                tally.requests += tally.measuring
            if status != 200:
                tally.add("load", status, 0)
                time.sleep(0.1)
                continue
            seen = version_of(headers)
            played = len(json.loads(body)["rounds"])
            pinned = {**auth, "If-Match": headers["etag"]}
            roll = rng.random()
            if played >= MAX_ROUNDS or (played and roll < 0.1):
                kind, method, number = "undo", "DELETE", played
                sent, pips, send_headers = None, None, pinned
                url = f"{path}/rounds/{number}"
            elif played and roll < 0.3:
                number = rng.randint(1, played)
                kind, method, url = "edit", "PUT", f"{path}/rounds/{number}"
                sent, pips = entry(rng, number)
                send_headers = pinned
            else:
                # Half the saves carry the round number only (as the round form does), half
                # also If-Match (as a careful API client does).
                number = played + 1
                kind, method, url = "record", "POST", f"{path}/rounds"
                sent, pips = entry(rng, number)
                send_headers = pinned if roll < 0.65 else auth
            started = time.perf_counter()
            status, headers, _ = client.send(method, url, sent, send_headers)
            elapsed = time.perf_counter() - started
            tally.add(kind, status, elapsed)
            if status in (200, 201):
                # A write pinned by If-Match made the next version; a save answers with its own.
                version = version_of(headers) if status == 201 else seen + 1
                with game.lock:
                    game.acked.append((version, kind, number, pips))
        except (OSError, http.client.HTTPException) as error:
            with tally.lock:
                tally.errors[type(error).__name__] += 1
        if settings.think:
            time.sleep(rng.uniform(0, 2 * settings.think))


def reader(base: str, games: list[Game], tally: Tally, stop: float, seed: int) -> None:
    """Poll share pages and the API's game answers, as phones watching a game do."""
    rng = random.Random(seed)
    client = Client(base)
    try:
        _read_until(client, games, tally, stop, rng)
    finally:
        client.close()


def _read_until(client, games, tally, stop, rng) -> None:
    while time.monotonic() < stop:
        game = rng.choice(games)
        try:
            if rng.random() < 0.5:
                status, _, _ = client.send(
                    "GET", f"/s/{game.view_token}", headers={"Accept": "*/*"}
                )
            else:
                status, _, _ = client.send(
                    "GET",
                    f"/api/v1/games/{game.id}",
                    headers={"Authorization": f"Bearer {game.view_token}"},
                )
            with tally.lock:
                tally.reads += tally.measuring
                tally.requests += tally.measuring
                if status >= 500:
                    tally.statuses[f"read {status}"] += 1
        except (OSError, http.client.HTTPException) as error:
            with tally.lock:
                tally.errors[type(error).__name__] += 1
        time.sleep(rng.uniform(0, 0.1))


def stored_rounds(database_url: str) -> tuple[dict[int, dict[int, tuple]], dict[int, int]]:
    """Every game's rounds (number -> pips per seat) and version, read from the database."""
    from sqlalchemy import create_engine, text

    engine = create_engine(database_url)
    rounds: dict[int, dict[int, dict[int, int]]] = defaultdict(lambda: defaultdict(dict))
    with engine.connect() as connection:
        rows = connection.execute(
            text(
                "SELECT r.game_id, r.number, h.seat, h.pips FROM rounds r "
                "JOIN hands h ON h.round_id = r.id"
            )
        )
        for game_id, number, seat, pips in rows:
            rounds[game_id][number][seat] = pips
        versions = dict(connection.execute(text("SELECT id, version FROM games")).all())
    engine.dispose()
    flat = {
        game_id: {n: tuple(seats[s] for s in sorted(seats)) for n, seats in numbers.items()}
        for game_id, numbers in rounds.items()
    }
    return flat, versions


def check(games: list[Game], database_url: str) -> dict[str, int]:
    """Replay each game's acknowledged writes in version order and compare with the database.

    lost: an acknowledged round (or correction) the database does not hold as the replay
    says it should; duplicated: a round the database holds that no acknowledged write explains,
    or two acknowledged writes that claim the same version; unacknowledged: versions the
    database moved past that no client was told about (writes whose answer never came)."""
    stored, versions = stored_rounds(database_url)
    lost = duplicated = unacknowledged = broken = 0
    for game in games:
        acked = sorted(game.acked)
        made = [version for version, *_ in acked]
        duplicated += len(made) - len(set(made))
        expected: dict[int, tuple] = {}
        for _version, kind, number, pips in acked:
            if kind == "record":
                broken += number != len(expected) + 1
                expected[number] = pips
            elif kind == "edit":
                broken += number not in expected
                expected[number] = pips
            else:
                broken += number != len(expected)
                expected.pop(number, None)
        held = stored.get(game.id, {})
        lost += sum(1 for n, pips in expected.items() if held.get(n) != pips)
        duplicated += sum(1 for n in held if n not in expected)
        unacknowledged += versions[game.id] - 1 - len(set(made))
    return {
        "lost": lost,
        "duplicated": duplicated,
        "replay_inconsistent": broken,
        "unacknowledged_versions": unacknowledged,
    }


def percentile(values: list[float], q: float) -> float | None:
    """The q-th percentile (0-100) in milliseconds, None without values."""
    if not values:
        return None
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))
    return round(ordered[index] * 1000, 1)


def run(settings: Settings, database_url: str, scratch: Path) -> dict[str, Any]:
    """Migrate, serve, load, stop, check: the run's figures."""
    environ = server_environ(settings.root, database_url, scratch)
    migrate(settings.root, environ)
    rng = random.Random(settings.seed)
    shared_games = -(-(settings.writers - settings.solo) // settings.share)
    log = scratch / "gunicorn.log"
    with gunicorn(
        settings.root, environ, workers=settings.workers, threads=settings.threads, log=log
    ) as base:
        games = create_games(base, settings.solo + shared_games)
        assignment = [
            games[i]
            if i < settings.solo
            else games[settings.solo + (i - settings.solo) // settings.share]
            for i in range(settings.writers)
        ]
        tally = Tally()
        stop = time.monotonic() + settings.warmup + settings.duration
        threads = [
            threading.Thread(
                target=writer,
                args=(base, game, tally, settings, stop, rng.randrange(2**32)),
                daemon=True,
            )
            for game in assignment
        ] + [
            threading.Thread(
                target=reader, args=(base, games, tally, stop, rng.randrange(2**32)), daemon=True
            )
            for _ in range(settings.readers)
        ]
        port = base.rsplit(":", 1)[1]
        meter = Meter(listening_pids(b"gunicorn", port), postgres_pids(database_url))
        for thread in threads:
            thread.start()
        time.sleep(settings.warmup)
        with tally.lock:
            tally.measuring = True
            started = time.monotonic()
            meter.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - started
        machine = meter.stop(tally.requests)
    found = check(games, database_url)
    saves = tally.latencies["record"]
    writes = [t for kind in ("record", "edit", "undo") for t in tally.latencies[kind]]
    server_errors = sum(n for key, n in tally.statuses.items() if int(key.rsplit(" ", 1)[1]) >= 500)
    return {
        "settings": {k: v for k, v in asdict(settings).items() if k != "root"},
        "database": settings.db,
        "seconds": round(elapsed, 1),
        "games": len(games),
        "writes_acknowledged": len(writes),
        "writes_per_second": round(len(writes) / elapsed, 1),
        "round_saves": len(saves),
        "round_save_ms": {
            "p50": percentile(saves, 50),
            "p90": percentile(saves, 90),
            "p99": percentile(saves, 99),
            "max": percentile(saves, 100),
        },
        "write_ms": {"p50": percentile(writes, 50), "p99": percentile(writes, 99)},
        "reads": tally.reads,
        "requests": tally.requests,
        "requests_per_second": round(tally.requests / elapsed, 1),
        "responses_5xx": server_errors,
        "statuses": dict(sorted(tally.statuses.items())),
        "client_errors": dict(tally.errors),
        **found,
        "cpus": os.cpu_count(),
        "machine": machine,
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
    }


def run_on(settings: Settings) -> dict[str, Any]:
    """The run on a fresh database of the kind settings.db names."""
    scratch = Path(tempfile.mkdtemp(prefix="scorekeeper-load-"))
    try:
        if settings.db == "postgres":
            with postgres_cluster() as url:
                return run(settings, url, scratch)
        return run(settings, f"sqlite:///{scratch / 'load.sqlite'}", scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, run, print and write the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    defaults = Settings()
    parser.add_argument("--db", choices=("sqlite", "postgres"), default=defaults.db)
    for name in ("writers", "readers", "workers", "threads", "solo", "share", "seed"):
        parser.add_argument(f"--{name}", type=int, default=getattr(defaults, name))
    parser.add_argument("--duration", type=float, default=defaults.duration)
    parser.add_argument("--warmup", type=float, default=defaults.warmup)
    parser.add_argument("--think", type=float, default=defaults.think)
    parser.add_argument("--root", default=defaults.root, help="the checkout to serve")
    parser.add_argument("--out", help="write the figures here as JSON")
    parser.add_argument("--label", help="a note kept with the figures (e.g. the commit)")
    args = parser.parse_args(argv)
    settings = Settings(
        **{k: getattr(args, k) for k in asdict(defaults) if k in vars(args)},
    )
    result = run_on(settings)
    if args.label:
        result = {"label": args.label, **result}
    text = json.dumps(result, indent=2)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")
    ok = result["responses_5xx"] == 0 and result["lost"] == 0 and result["duplicated"] == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
