"""A documented limit holds across processes and servers: `make run`'s gunicorn workers on one
SQLite file, and two app servers on one PostgreSQL, count one client's new games together
(the counts live in the app's database: scorekeeper/web/limit_store.py)."""

from __future__ import annotations

import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path

import pytest

from tests.helpers import bench_module

pytestmark = pytest.mark.load

load = bench_module("load")
LIMIT = 10
TRIES = 32


def limited_environ(url: str, scratch: Path) -> dict[str, str]:
    environ = load.server_environ(load.ROOT, url, scratch)
    environ.update(
        SCOREKEEPER_RATELIMIT_ENABLED="true", SCOREKEEPER_LIMIT_NEW_GAMES=f"{LIMIT} per hour"
    )
    return environ


def new_game(base: str) -> int:
    """One new game through the API, on a new connection (the kernel picks the worker)."""
    status, _, _ = load.request(base, "POST", "/api/v1/games", {"players": ["Ana", "Ben"]})
    return status


def statuses(bases: list[str]) -> list[int]:
    """TRIES new games from one client, eight at a time, spread over every server and worker
    (with one request thread a process, requests in flight at once go to different ones)."""
    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(new_game, (bases[n % len(bases)] for n in range(TRIES))))


def serve(url: str, scratch: Path, servers: int, workers: int) -> tuple[ExitStack, list[str]]:
    """Start `servers` gunicorns of `workers` processes on one database: the stack that stops
    them, and their base URLs."""
    environ = limited_environ(url, scratch)
    load.migrate(load.ROOT, environ)
    with ExitStack() as stack:  # a server that fails to start stops those already started
        bases = [
            stack.enter_context(
                load.gunicorn(
                    str(load.ROOT), environ, workers=workers, threads=1, log=scratch / f"{n}.log"
                )
            )
            for n in range(servers)
        ]
        return stack.pop_all(), bases


@pytest.fixture
def scratch():
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-limits-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_make_run_s_worker_processes_count_one_client_together(scratch):
    stack, bases = serve(f"sqlite:///{scratch / 'db.sqlite'}", scratch, servers=1, workers=4)
    with stack:
        answers = statuses(bases)
    assert answers.count(201) == LIMIT, answers
    assert answers.count(429) == TRIES - LIMIT


@pytest.mark.skipif(
    not (shutil.which("initdb") and shutil.which("pg_ctl")),
    reason="PostgreSQL's initdb/pg_ctl are not on this machine",
)
def test_two_servers_on_one_database_count_one_client_together(scratch):
    with load.postgres_cluster() as url:
        stack, bases = serve(url, scratch, servers=2, workers=1)
        with stack:
            answers = statuses(bases)
    assert answers.count(201) == LIMIT, answers
    assert answers.count(429) == TRIES - LIMIT
