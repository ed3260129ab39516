"""A club night through gunicorn (issue 31): photo reads and the ratings page beside another
table's round saves and polls.

    python bench/table_load.py                           # both scenarios, make run's shape
    python bench/table_load.py --only photos /path/to/photos-dev
    python bench/table_load.py --only ratings --games 3000
    python bench/table_load.py --setting PHOTO_WORKERS=1   # SCOREKEEPER_PHOTO_WORKERS=1

A (photos): 16 phones each send 3 photos of the development set to the photo-reading API of
their own game while a scorer saves a round every 0.3 s on another game. B (ratings): 8
signed-in members of a 3,000-game club reload its ratings page for 15 s while another table
polls its game through the API every 0.5 s. Each scenario gets its own server, started as
`make run` starts it (bench/load.py's helpers), on a fresh SQLite file. The app is driven over
HTTP only; the 3,000 games are written beforehand by bench/run.py's bulk writer. Figures and
targets: bench/README.md, "A club night".
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import math
import multiprocessing
import os
import platform
import random
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import requests

BENCH_DIR = Path(__file__).resolve().parent
if str(BENCH_DIR) not in sys.path:  # bench/ is not a package
    sys.path.insert(0, str(BENCH_DIR))

import load  # noqa: E402

ROOT = BENCH_DIR.parent
# ../shared/photos-dev beside the checkout (a worktree one level deeper looks two up).
PHOTOS_DEV = next(
    (
        folder
        for folder in (
            ROOT.parent / "shared" / "photos-dev",
            ROOT.parent.parent / "shared" / "photos-dev",
        )
        if folder.is_dir()
    ),
    ROOT.parent / "shared" / "photos-dev",
)
PHOTO_TYPES = {
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".png": "image/png",
    ".webp": "image/webp",
    ".heic": "image/heic",
}
MIB = 1024 * 1024

# Issue 31's "Done when".
ROUND_SAVE_P99_TARGET_MS = 500.0
WORKERS_MEMORY_TARGET_MIB = 1536.0  # 1.5 GiB, the RSS of every process below gunicorn's master
API_GET_P99_TARGET_MS = 250.0
RATINGS_PAGE_P50_TARGET_MS = 50.0


@dataclass
class Settings:
    """One run's shape (the command line's options)."""

    only: str = "both"
    photos: str = str(PHOTOS_DEV)
    phones: int = 16
    photos_each: int = 3
    save_every: float = 0.3
    # A phone told 503 + Retry-After sends the photo again after that wait, this many times.
    retries: int = 5
    # Each worker reads two photos before the measured part (a server that has been up a while).
    warm: bool = True
    games: int = 3000
    members: int = 8
    reload_for: float = 15.0
    poll_every: float = 0.5
    # Members send If-None-Match with the ETag they got (a browser's reload), not by default.
    conditional: bool = False
    # Each client keeps its connection (as bench/load.py's); by default a new one per request.
    keep_alive: bool = False
    # Seconds of saves or polls alone before the crowd starts (their "alone" figures).
    lead: float = 3.0
    # gunicorn.conf.py's defaults (two processes per core, one thread each).
    workers: int = 2 * (os.cpu_count() or 1)
    threads: int = 1
    seed: int = 31
    settings: dict[str, str] = field(default_factory=dict)
    root: str = str(ROOT)


# The server and what it holds in memory ----------------------------------------------------------


@contextlib.contextmanager
def serving(
    settings: Settings, scratch: Path, prepare: Any = None
) -> Iterator[tuple[str, Any, Any]]:
    """`flask db upgrade` on a fresh SQLite file in `scratch`, then `prepare(scratch, environ)`
    (data written before the server starts), then gunicorn as `make run` starts it: its base
    URL, what prepare returned, and a memory sampler of its processes (already sampling). The
    server log's tail is printed if anything fails."""
    database_url = f"sqlite:///{scratch / 'bench.sqlite'}"
    environ = load.server_environ(settings.root, database_url, scratch)
    # Rate limits are off (server_environ): one address sends everything here.
    environ.update({f"SCOREKEEPER_{name}": value for name, value in settings.settings.items()})
    load.migrate(settings.root, environ)
    prepared = prepare(scratch, environ) if prepare else None
    log = scratch / "gunicorn.log"
    try:
        with load.gunicorn(
            settings.root, environ, workers=settings.workers, threads=settings.threads, log=log
        ) as base:
            memory = Memory(gunicorn_master())
            memory.start()
            try:
                yield base, prepared, memory
            finally:
                memory.stop()
    except Exception:
        if log.exists():
            print("".join(log.read_text(errors="replace").splitlines(True)[-40:]), file=sys.stderr)
        raise


def gunicorn_master() -> int:
    """gunicorn's master: the one gunicorn process this script started."""
    for pid in load.process_tree().get(os.getpid(), []):
        with contextlib.suppress(OSError):
            if b"gunicorn" in Path(f"/proc/{pid}/cmdline").read_bytes():
                return pid
    raise RuntimeError("gunicorn's master process was not found")


def _kib(path: str, key: str) -> int:
    """A `Key:   123 kB` line of a /proc file, in KiB (0 if the process is gone)."""
    try:
        for line in Path(path).read_text().splitlines():
            if line.startswith(key):
                return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


class Memory(threading.Thread):
    """Samples every 0.5 s the memory of everything below gunicorn's master: its workers and
    whatever they start (a photo pool's processes). RSS counts pages the processes share
    (forked from the master) once per process; PSS splits them, so it sums to what they use."""

    def __init__(self, master: int, every: float = 0.5):
        super().__init__(daemon=True)
        self.master, self.every = master, every
        self.samples: list[tuple[float, int, int, int]] = []  # (at, rss KiB, pss KiB, processes)
        self.stopped = threading.Event()
        self.lock = threading.Lock()

    def sample(self) -> tuple[float, int, int, int]:
        tree = load.process_tree()
        below, todo = [], list(tree.get(self.master, []))
        while todo:
            pid = todo.pop()
            below.append(pid)
            todo.extend(tree.get(pid, []))
        rss = sum(_kib(f"/proc/{pid}/status", "VmRSS:") for pid in below)
        pss = sum(_kib(f"/proc/{pid}/smaps_rollup", "Pss:") for pid in below)
        taken = (time.monotonic(), rss, pss, len(below))
        with self.lock:
            self.samples.append(taken)
        return taken

    def run(self) -> None:
        self.sample()
        while not self.stopped.wait(self.every):
            self.sample()

    def stop(self) -> None:
        self.stopped.set()
        self.join()

    def figures(self, since: float = 0.0) -> dict[str, Any]:
        """Peak RSS and PSS (MiB) and most processes, over the samples taken from `since`."""
        with self.lock:
            kept = [s for s in self.samples if s[0] >= since] or self.samples[-1:]
        return {
            "workers_rss_mib_peak": round(max(s[1] for s in kept) / 1024, 1),
            "workers_pss_mib_peak": round(max(s[2] for s in kept) / 1024, 1),
            "processes_peak": max(s[3] for s in kept),
            "samples": len(kept),
        }

    def now(self) -> dict[str, float]:
        """RSS and PSS (MiB) right now."""
        _, rss, pss, processes = self.sample()
        return {
            "rss_mib": round(rss / 1024, 1),
            "pss_mib": round(pss / 1024, 1),
            "processes": processes,
        }


# Figures ---------------------------------------------------------------------------------------


def spread(seconds: list[float]) -> dict[str, Any]:
    """n, p50, p90, p99 and max in milliseconds (bench/load.py's percentile)."""
    return {
        "n": len(seconds),
        **{
            name: load.percentile(seconds, q)
            for name, q in (("p50", 50), ("p90", 90), ("p99", 99), ("max", 100))
        },
    }


@dataclass
class Timed:
    """Requests of one kind: when each started, how long it took, what it answered."""

    rows: list[tuple[float, float, str]] = field(default_factory=list)
    # Requests sent again on a new connection after the kept-alive one was dropped.
    retried: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, started: float, seconds: float, status: int | str) -> None:
        with self.lock:
            self.rows.append((started, seconds, str(status)))

    def between(self, start: float, end: float, ok: tuple[str, ...] = ("200",)) -> list[float]:
        """The times of the answers `ok` to requests sent in [start, end)."""
        return [s for at, s, status in self.rows if start <= at < end and status in ok]

    def statuses(self, start: float = 0.0, end: float = float("inf")) -> dict[str, int]:
        return dict(sorted(Counter(st for at, _, st in self.rows if start <= at < end).items()))

    def count(self, prefix: str) -> int:
        return sum(1 for _, _, status in self.rows if status.startswith(prefix))


def send(client: load.Client, timed: Timed, method: str, path: str, body: Any, headers: Any):
    """One API request on a kept-alive connection, timed; its status and headers. A connection
    the server dropped (gunicorn closes one idle past its keep-alive time, even with a request
    waiting) is tried once more on a new one, as a browser does: the time counts both tries."""
    started, clock = time.monotonic(), time.perf_counter()
    for attempt in (1, 2):
        try:
            status, answer_headers, _ = client.send(method, path, body, headers)
        except (OSError, http.client.HTTPException) as error:
            if attempt == 1:
                with timed.lock:
                    timed.retried += 1
                continue
            timed.add(started, time.perf_counter() - clock, type(error).__name__)
            return None, {}
        timed.add(started, time.perf_counter() - clock, status)
        return status, answer_headers
    raise AssertionError("unreachable")


def connection_headers(settings: Settings) -> dict[str, str]:
    """A new connection for every request by default: which worker answers is then chosen per
    request, as behind a proxy (docs/deploy.md's nginx shares a pool of upstream connections
    among all clients). With --keep-alive each client keeps its own connection, as bench/load.py's
    do, and gthread serves it on the worker that accepted it: a client whose connection shares a
    busy worker waits, whichever other worker is idle, so figures then swing from run to run."""
    return {} if settings.keep_alive else {"Connection": "close"}


def every(interval: float, stop: threading.Event) -> Iterator[None]:
    """Yields on a fixed beat (a late beat is not caught up with a burst) until `stop`."""
    beat = time.monotonic()
    while not stop.is_set():
        yield
        beat = max(beat + interval, time.monotonic())
        stop.wait(beat - time.monotonic())


# Scenario A: photos beside round saves -----------------------------------------------------------


def photo_files(folder: str) -> list[tuple[str, bytes, str]]:
    """The photos of the folder (read into memory, never copied): name, bytes, content type."""
    found = sorted(p for p in Path(folder).iterdir() if p.suffix.lower() in PHOTO_TYPES)
    return [(p.name, p.read_bytes(), PHOTO_TYPES[p.suffix.lower()]) for p in found]


def scorer(
    base: str, stop: threading.Event, interval: float, saves: Timed, seed: int, extra: dict
) -> None:
    """Save the next round of a quick game every `interval` s through the API; a new game
    (not timed) after 12 rounds, so that no game ends."""
    rng, client = random.Random(seed), load.Client(base)
    game, played = None, 0
    try:
        for _ in every(interval, stop):
            if game is None or played >= load.MAX_ROUNDS:
                game, played = load.create_games(base, 1)[0], 0
            body, _ = load.entry(rng, played + 1)
            auth = {"Authorization": f"Bearer {game.edit_token}", **extra}
            status, _ = send(client, saves, "POST", f"/api/v1/games/{game.id}/rounds", body, auth)
            played += status == 201
    finally:
        client.close()


def scorer_apart(base: str, stop: Any, interval: float, rows: Any, seed: int, extra: dict) -> None:
    """The scorer in a process of its own (the phones' 16 threads would otherwise hold the
    GIL the scorer's timing waits for: a phone is a device of its own, not a thread beside the
    scorer); its rows and resends go back through `rows`, a queue."""
    saves = Timed()
    try:
        scorer(base, stop, interval, saves, seed, extra)
    finally:
        rows.put((saves.rows, saves.retried))


@dataclass
class PhotoTally:
    """What the phones saw: every answer, the time from a photo's first send to its reading,
    and the photos never read (by the status that ended their tries)."""

    answers: Timed = field(default_factory=Timed)
    readings: list[float] = field(default_factory=list)
    unread: Counter = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)


def phone(
    base: str,
    game: load.Game,
    photos: list[tuple[str, bytes, str]],
    retries: int,
    tally: PhotoTally,
    extra: dict,
) -> None:
    """Send each photo to the game's photo reader, again after a 503's Retry-After."""
    session = requests.Session()
    url = f"{base}/api/v1/games/{game.id}/photos"
    auth = {"Authorization": f"Bearer {game.edit_token}", **extra}
    try:
        for name, data, kind in photos:
            first = time.monotonic()
            for attempt in range(retries + 1):
                started, clock = time.monotonic(), time.perf_counter()
                try:
                    answer = session.post(
                        url, files={"photo": (name, data, kind)}, headers=auth, timeout=600
                    )
                except requests.RequestException as error:
                    tally.answers.add(started, time.perf_counter() - clock, type(error).__name__)
                    break
                tally.answers.add(started, time.perf_counter() - clock, answer.status_code)
                wait = answer.headers.get("Retry-After", "")
                if answer.status_code == 503 and wait.isdigit() and attempt < retries:
                    time.sleep(min(int(wait), 30))
                    continue
                with tally.lock:
                    if answer.status_code == 200:
                        tally.readings.append(time.monotonic() - first)
                    else:
                        tally.unread[str(answer.status_code)] += 1
                break
    finally:
        session.close()


def phones_at_once(
    base: str,
    hands: list[tuple[load.Game, list[tuple[str, bytes, str]]]],
    retries: int,
    extra: dict,
) -> PhotoTally:
    """One phone per (game, photos), all started at once; what they saw once all are done."""
    tally = PhotoTally()
    threads = [
        threading.Thread(target=phone, args=(base, game, photos, retries, tally, extra))
        for game, photos in hands
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return tally


def photo_scenario(settings: Settings, scratch: Path) -> dict[str, Any]:
    """Scenario A: its figures."""
    photos = photo_files(settings.photos)
    if not photos:
        raise RuntimeError(f"no photos in {settings.photos}")

    def some(first: int, count: int) -> list[tuple[str, bytes, str]]:
        return [photos[(first + k) % len(photos)] for k in range(count)]

    extra = connection_headers(settings)
    with serving(settings, scratch) as (base, _, memory):
        idle = memory.now()
        games = load.create_games(base, settings.phones)
        warmed: dict[str, Any] = {}
        if settings.warm:
            # Two photos per worker, as many at once as there are workers: each worker's first
            # read (imports, the networks loaded) is not the night's.
            clock = time.perf_counter()
            warm = [
                phones_at_once(
                    base,
                    [(games[i % len(games)], some(turn * settings.workers + i, 1))
                     for i in range(settings.workers)],
                    settings.retries,
                    extra,
                )
                for turn in range(2)
            ]  # fmt: skip
            warmed = {
                "seconds": round(time.perf_counter() - clock, 1),
                "statuses": [tally.answers.statuses() for tally in warm],
                "memory_after": memory.now(),
            }
        saves, apart = Timed(), multiprocessing.get_context("fork")
        stop, rows = apart.Event(), apart.Queue()
        meter = load.Meter([memory.master], [])
        writer = apart.Process(
            target=scorer_apart,
            args=(base, stop, settings.save_every, rows, settings.seed, extra),
        )
        hands = [
            (game, some(settings.photos_each * i, settings.photos_each))
            for i, game in enumerate(games)
        ]
        lead_start = time.monotonic()
        writer.start()
        time.sleep(settings.lead)
        crowd_start = time.monotonic()
        meter.start()
        tally = phones_at_once(base, hands, settings.retries, extra)
        crowd_end = time.monotonic()
        stop.set()
        saves.rows, saves.retried = rows.get(timeout=120)
        writer.join()
        answers = tally.answers
        machine = meter.stop(len(answers.rows) + len(saves.between(crowd_start, crowd_end)))
        memory_figures, whole_run = memory.figures(crowd_start), memory.figures()
    during = saves.between(crowd_start, crowd_end, ("201",))
    save_statuses = saves.statuses(crowd_start, crowd_end)
    return {
        "photos": [name for name, _, _ in photos],
        "phones": settings.phones,
        "photos_each": settings.photos_each,
        "crowd_seconds": round(crowd_end - crowd_start, 1),
        "round_save_ms": spread(during),
        # The scorer waits for each save before the next: a stuck save holds back the saves due
        # meanwhile (as on the scorer's phone), so fewer are sent than are due.
        "round_saves_due": math.ceil((crowd_end - crowd_start) / settings.save_every),
        "round_saves_sent": len(saves.between(crowd_start, crowd_end, tuple(save_statuses))),
        "round_save_alone_ms": spread(saves.between(lead_start, crowd_start, ("201",))),
        "round_save_statuses": save_statuses,
        "round_save_5xx": sum(n for s, n in saves.statuses().items() if s.startswith("5")),
        "round_save_503": saves.count("503"),
        # No answer even on a new connection (statuses name the error), and saves sent again.
        "round_save_failed": sum(not s[0].isdigit() for _, _, s in saves.rows),
        "round_save_resent": saves.retried,
        "photo_answer_ms": spread(answers.between(0, float("inf"))),
        "photo_answer_any_status_ms": spread([s for _, s, _ in answers.rows]),
        "photo_statuses": answers.statuses(),
        "photo_500": sum(1 for _, _, s in answers.rows if s.startswith("5") and s != "503"),
        "photo_503": answers.count("503"),
        "photos_read": len(tally.readings),
        "photos_unread": dict(tally.unread),
        # From a photo's first send to its reading: the waits after a 503 included.
        "photo_reading_ms": spread(tally.readings),
        "memory": {"idle": idle, "warm_up": warmed, **memory_figures, "whole_run": whole_run},
        "machine": machine,
    }


# Scenario B: the ratings page beside another table's polls -------------------------------------

PASSWORD = "bench-" + secrets.token_hex(8)


def fill_club(scratch: Path, _environ: dict[str, str], games: int, members: int, seed: int):
    """A club of `members` accounts (the first its owner, the others viewers), a roster of
    bench/run.py's names and `games` finished club games of theirs, written by bench/run.py's
    bulk writer (row for row what the services store). The database is
    the one `flask db upgrade` just made (run.make_app's upgrade finds nothing to do)."""
    import run  # bench/run.py: imports the app
    from sqlalchemy import select

    from scorekeeper.extensions import db
    from scorekeeper.models import Membership, RosterPlayer
    from scorekeeper.services import accounts, clubs

    started = time.perf_counter()
    app = run.make_app(scratch)
    with app.app_context():
        users = [
            accounts.create_user(f"Member {n}", f"member{n}@bench.example", PASSWORD)
            for n in range(1, members + 1)
        ]
        club = clubs.create_club(users[0], "Bench club")
        club_id = club.id
        db.session.add_all(
            Membership(club_id=club_id, user_id=u.id, role="viewer") for u in users[1:]
        )
        db.session.add_all(RosterPlayer(club_id=club_id, display_name=name) for name in run.NAMES)
        db.session.commit()
        roster = dict(
            db.session.execute(
                select(RosterPlayer.display_name, RosterPlayer.id).where(
                    RosterPlayer.club_id == club_id
                )
            ).all()
        )
        rng = random.Random(seed)
        run.write_in_bulk([run.plan_game(rng) for _ in range(games)], club_id, roster)
        emails = [u.email for u in users]
        db.session.remove()
        db.engine.dispose()
    return {
        "club_id": club_id,
        "emails": emails,
        "names": sorted(roster),
        "fill_s": round(time.perf_counter() - started, 1),
    }


def signed_in(base: str, email: str) -> requests.Session:
    """A browser signed in through the sign-in form."""
    session = requests.Session()
    page = session.get(f"{base}/sign-in", timeout=60)
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page.text)
    if token is None:
        raise RuntimeError("the sign-in page has no CSRF token")
    answer = session.post(
        f"{base}/sign-in",
        data={"csrf_token": token.group(1), "email": email, "password": PASSWORD},
        allow_redirects=False,
        timeout=60,
    )
    if answer.status_code not in (302, 303):
        raise RuntimeError(f"sign-in answered {answer.status_code}")
    return session


def member(session: requests.Session, url: str, until: float, conditional: bool, views: Timed):
    """Reload the page until `until`, back to back."""
    etag = None
    while time.monotonic() < until:
        headers = {"If-None-Match": etag} if conditional and etag else {}
        started, clock = time.monotonic(), time.perf_counter()
        try:
            answer = session.get(url, headers=headers, timeout=120)
        except requests.RequestException as error:
            views.add(started, time.perf_counter() - clock, type(error).__name__)
            continue
        views.add(started, time.perf_counter() - clock, answer.status_code)
        etag = answer.headers.get("ETag", etag)


def poller(
    base: str, game: load.Game, stop: threading.Event, interval: float, polls: Timed, extra: dict
) -> None:
    """Another table's phone: the game through the API, with its view token."""
    client = load.Client(base)
    auth = {"Authorization": f"Bearer {game.view_token}", **extra}
    try:
        for _ in every(interval, stop):
            send(client, polls, "GET", f"/api/v1/games/{game.id}", None, auth)
    finally:
        client.close()


def ratings_scenario(settings: Settings, scratch: Path) -> dict[str, Any]:
    """Scenario B: its figures."""

    def prepare(folder: Path, environ: dict[str, str]) -> dict[str, Any]:
        return fill_club(folder, environ, settings.games, settings.members, settings.seed)

    extra = connection_headers(settings)
    with serving(settings, scratch, prepare) as (base, club, memory):
        url = f"{base}/clubs/{club['club_id']}/ratings"
        browsers = [signed_in(base, email) for email in club["emails"]]
        for browser in browsers:
            browser.headers.update(extra)
        # Another table: a quick game at round 7.
        game = load.create_games(base, 1)[0]
        rng = random.Random(settings.seed)
        for number in range(1, 7):
            body, _ = load.entry(rng, number)
            status, _, _ = load.request(
                base, "POST", f"/api/v1/games/{game.id}/rounds", body,
                {"Authorization": f"Bearer {game.edit_token}"},
            )  # fmt: skip
            assert status == 201, status
        clock = time.perf_counter()
        first = browsers[0].get(url, timeout=300)
        first_view = time.perf_counter() - clock
        rated = sum(name in first.text for name in club["names"])
        if first.status_code != 200 or rated < len(club["names"]) // 2:
            raise RuntimeError(f"the ratings page answered {first.status_code}, {rated} players")
        polls, views, stop = Timed(), Timed(), threading.Event()
        poll = threading.Thread(
            target=poller, args=(base, game, stop, settings.poll_every, polls, extra)
        )
        lead_start = time.monotonic()
        poll.start()
        time.sleep(settings.lead)
        meter = load.Meter([memory.master], [])
        crowd_start = time.monotonic()
        until = crowd_start + settings.reload_for
        meter.start()
        members = [
            threading.Thread(target=member, args=(browser, url, until, settings.conditional, views))
            for browser in browsers
        ]
        for thread in members:
            thread.start()
        for thread in members:
            thread.join()
        crowd_end = time.monotonic()
        stop.set()
        poll.join()
        machine = meter.stop(len(views.rows) + len(polls.between(crowd_start, crowd_end)))
        memory_figures = memory.figures(crowd_start)
        for browser in browsers:
            browser.close()
    ok = ("200", "304")
    return {
        "games": settings.games,
        "members": settings.members,
        "fill_s": club["fill_s"],
        "conditional": settings.conditional,
        "crowd_seconds": round(crowd_end - crowd_start, 1),
        "ratings_first_view_ms": round(first_view * 1000, 1),
        "ratings_page_ms": spread(views.between(crowd_start, crowd_end, ok)),
        "ratings_statuses": views.statuses(),
        "ratings_pages_per_second": round(len(views.rows) / max(crowd_end - crowd_start, 1e-9), 1),
        "api_get_ms": spread(polls.between(crowd_start, crowd_end, ok)),
        # As the scorer's saves: the phone polls again once it has an answer.
        "api_gets_due": math.ceil((crowd_end - crowd_start) / settings.poll_every),
        "api_gets_sent": sum(polls.statuses(crowd_start, crowd_end).values()),
        "api_get_alone_ms": spread(polls.between(lead_start, crowd_start, ok)),
        "api_get_statuses": polls.statuses(),
        "api_get_failed": sum(not s[0].isdigit() for _, _, s in polls.rows),
        "api_get_resent": polls.retried,
        "memory": memory_figures,
        "machine": machine,
    }


# The run ---------------------------------------------------------------------------------------


def at_most(value: float | None, limit: float) -> bool:
    return value is not None and value <= limit


def targets(result: dict[str, Any]) -> dict[str, tuple[Any, str, bool]]:
    """Issue 31's targets the run measured: figure -> (value, target, met)."""
    found: dict[str, tuple[Any, str, bool]] = {}
    if photos := result.get("photos"):
        p99 = photos["round_save_ms"]["p99"]
        rss = photos["memory"]["workers_rss_mib_peak"]
        found["A round-save p99 ms"] = (
            p99, f"<= {ROUND_SAVE_P99_TARGET_MS:g}", at_most(p99, ROUND_SAVE_P99_TARGET_MS)
        )  # fmt: skip
        found["A round saves 5xx (503 too)"] = (
            photos["round_save_5xx"], "0", photos["round_save_5xx"] == 0
        )  # fmt: skip
        found["A photo answers 5xx but 503"] = (photos["photo_500"], "0", photos["photo_500"] == 0)
        found["A workers' RSS peak MiB"] = (
            rss, f"<= {WORKERS_MEMORY_TARGET_MIB:g}", at_most(rss, WORKERS_MEMORY_TARGET_MIB)
        )  # fmt: skip
    if ratings := result.get("ratings"):
        p99, p50 = ratings["api_get_ms"]["p99"], ratings["ratings_page_ms"]["p50"]
        found["B game API GET p99 ms"] = (
            p99, f"<= {API_GET_P99_TARGET_MS:g}", at_most(p99, API_GET_P99_TARGET_MS)
        )  # fmt: skip
        found["B ratings page p50 ms"] = (
            p50, f"<= {RATINGS_PAGE_P50_TARGET_MS:g}", at_most(p50, RATINGS_PAGE_P50_TARGET_MS)
        )  # fmt: skip
    return found


def table(result: dict[str, Any]) -> str:
    """The figures as a plain-text table; a row with a target says whether it was met."""
    lines: list[str] = []
    met = targets(result)

    def row(name: str, value: Any, target: str | None = None) -> None:
        goal, mark = "", ""
        if target is not None:
            _, goal, ok = met[target]
            mark = "ok" if ok else "MISSED"
        lines.append(f"  {name:<42} {str(value):>30}  {goal:<9} {mark}")

    def ms(figures: dict[str, Any]) -> str:
        return f"{figures['p50']} / {figures['p99']} / {figures['max']} (n={figures['n']})"

    def machine(figures: dict[str, Any]) -> None:
        cores = f"{figures['cores_used_by_run']} / {figures['cores_used_by_others']}"
        row("cores used by the run / by others' work", cores)
        row("server CPU s", figures["cpu_seconds"]["server"])

    if photos := result.get("photos"):
        every_s = result["settings"]["save_every"]
        lines.append(
            f"A: {photos['phones']} phones x {photos['photos_each']} photos, a round saved "
            f"every {every_s} s ({photos['crowd_seconds']} s)"
        )
        row("round save p50 / p99 / max ms", ms(photos["round_save_ms"]), "A round-save p99 ms")
        row("  the same alone, before the phones", ms(photos["round_save_alone_ms"]))
        row("round saves sent / due", f"{photos['round_saves_sent']} / {photos['round_saves_due']}")
        failed = f"{photos['round_save_failed']} / {photos['round_save_resent']}"
        row("round saves unanswered / sent again", failed)
        saves = f"{photos['round_save_5xx']} / {photos['round_save_503']}"
        row("round saves 5xx / of them 503", saves, "A round saves 5xx (503 too)")
        row("photo answers (200) p50 / p99 / max ms", ms(photos["photo_answer_ms"]))
        row("photo send to reading p50 / p99 / max ms", ms(photos["photo_reading_ms"]))
        busy = f"{photos['photo_500']} / {photos['photo_503']}"
        row("photo answers 5xx but 503 / 503 (busy)", busy, "A photo answers 5xx but 503")
        unread = sum(photos["photos_unread"].values())
        row("photos read / unread", f"{photos['photos_read']} / {unread}")
        memory = photos["memory"]
        rss = f"{memory['workers_rss_mib_peak']} / {memory['workers_pss_mib_peak']}"
        row("workers' RSS / PSS peak MiB", rss, "A workers' RSS peak MiB")
        machine(photos["machine"])
    if ratings := result.get("ratings"):
        lines.append(
            f"B: {ratings['members']} members reloading the ratings page of a "
            f"{ratings['games']}-game club ({ratings['crowd_seconds']} s)"
        )
        row("game API GET p50 / p99 / max ms", ms(ratings["api_get_ms"]), "B game API GET p99 ms")
        row("  the same alone, before the members", ms(ratings["api_get_alone_ms"]))
        row("game API GETs sent / due", f"{ratings['api_gets_sent']} / {ratings['api_gets_due']}")
        row("game API GETs unanswered / sent again",
            f"{ratings['api_get_failed']} / {ratings['api_get_resent']}")  # fmt: skip
        row("ratings page p50 / p99 / max ms", ms(ratings["ratings_page_ms"]),
            "B ratings page p50 ms")  # fmt: skip
        row("ratings page first view ms", ratings["ratings_first_view_ms"])
        row("ratings pages a second", ratings["ratings_pages_per_second"])
        machine(ratings["machine"])
    return "\n".join(lines)


def commit_of(root: str) -> str:
    """The checkout's commit (and '+dirty' with uncommitted changes)."""
    try:
        head = subprocess.run(
            ["git", "-C", root, "rev-parse", "--short", "HEAD"], capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", root, "status", "--porcelain", "--untracked-files=no"],
            capture_output=True, text=True,
        ).stdout.strip()  # fmt: skip
    except OSError:
        return "unknown"
    return head + ("+dirty" if dirty else "")


def run_scenarios(settings: Settings) -> dict[str, Any]:
    """The scenarios `settings.only` names, each on its own server and database."""
    result: dict[str, Any] = {
        "meta": {
            "commit": commit_of(settings.root),
            "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "load_average_start": [round(x, 2) for x in os.getloadavg()],
        },
        "settings": {k: v for k, v in asdict(settings).items() if k != "root"},
    }
    for name, scenario in (("photos", photo_scenario), ("ratings", ratings_scenario)):
        if settings.only not in (name, "both"):
            continue
        if name == "photos" and not Path(settings.photos).is_dir():
            result["photos_skipped"] = f"no folder {settings.photos}"
            continue
        scratch = Path(tempfile.mkdtemp(prefix=f"scorekeeper-table-{name}-"))
        try:
            result[name] = scenario(settings, scratch)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    result["meta"]["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    result["targets"] = [
        {"figure": name, "value": value, "target": target, "met": ok}
        for name, (value, target, ok) in targets(result).items()
    ]
    return result


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, run, print the table and write the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    defaults = Settings()
    parser.add_argument("photos", nargs="?", default=defaults.photos, help="the photos' folder")
    parser.add_argument("--only", choices=("photos", "ratings", "both"), default=defaults.only)
    for name in (
        "phones",
        "photos_each",
        "retries",
        "games",
        "members",
        "workers",
        "threads",
        "seed",
    ):
        parser.add_argument(
            f"--{name.replace('_', '-')}", type=int, default=getattr(defaults, name)
        )
    for name in ("save_every", "reload_for", "poll_every", "lead"):
        parser.add_argument(
            f"--{name.replace('_', '-')}", type=float, default=getattr(defaults, name)
        )
    parser.add_argument("--no-warm", dest="warm", action="store_false", help="no warm-up photos")
    parser.add_argument("--conditional", action="store_true", help="members send If-None-Match")
    parser.add_argument(
        "--keep-alive", action="store_true", help="each client keeps its connection open"
    )
    parser.add_argument(
        "--setting", action="append", default=[], metavar="NAME=VALUE",
        help="an app setting for the server (SCOREKEEPER_NAME=VALUE); repeatable",
    )  # fmt: skip
    parser.add_argument("--root", default=defaults.root, help="the checkout to serve")
    parser.add_argument("--out", default=str(BENCH_DIR / "results-table-load.json"))
    parser.add_argument("--strict", action="store_true", help="exit 1 if a target is missed")
    args = parser.parse_args(argv)
    values = {k: getattr(args, k) for k in asdict(defaults) if k in vars(args)}
    values["settings"] = dict(item.split("=", 1) for item in args.setting)
    result = run_scenarios(Settings(**values))
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    print(table(result))
    print(f"\nFigures in {args.out}")
    missed = [name for name, (_, _, ok) in targets(result).items() if not ok]
    if missed:
        print("Missed: " + "; ".join(missed), file=sys.stderr)
    return 1 if missed and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
