"""A short load run (bench/load.py) on each database: writers racing on shared games through
gunicorn get no 5xx, and every acknowledged round is in the database exactly once.

Latency is the benchmark's business (bench/results-load-*.json), not asserted here: this
machine may be busy with other work.
"""

from __future__ import annotations

import shutil
from types import ModuleType

import pytest

from tests.helpers import bench_module

pytestmark = pytest.mark.load


@pytest.fixture(scope="module")
def load() -> ModuleType:
    """bench/load.py, imported from its file (bench/ is not a package)."""
    return bench_module("load")


@pytest.mark.parametrize(
    "database",
    [
        "sqlite",
        pytest.param(
            "postgres",
            marks=pytest.mark.skipif(
                not (shutil.which("initdb") and shutil.which("pg_ctl")),
                reason="PostgreSQL's initdb/pg_ctl are not on this machine",
            ),
        ),
    ],
)
@pytest.mark.parametrize(
    ("workers", "threads"),
    [(4, 1), (2, 4)],
    ids=["make-run-shape", "threads-too"],
)
def test_racing_writers_get_no_5xx_and_lose_nothing(load, database, workers, threads):
    # 16 writers, 12 of them four to a game: every shared game sees real races. make run's
    # shape on 2 cores (4 processes, one thread each), and with threads, so that writers of
    # one process race too (THREADS is a setting).
    settings = load.Settings(
        db=database, writers=16, solo=4, share=4, readers=2, duration=6, warmup=1,
        workers=workers, threads=threads, think=0.05,
    )  # fmt: skip
    result = load.run_on(settings)
    assert result["responses_5xx"] == 0, result["statuses"]
    assert result["client_errors"] == {}
    assert result["round_saves"] > 20, result["statuses"]
    # Races happened (someone's pinned write found the game moved) and were refused cleanly.
    assert any(key.endswith((" 409", " 412")) for key in result["statuses"]), result["statuses"]
    assert result["lost"] == 0
    assert result["duplicated"] == 0
    assert result["replay_inconsistent"] == 0
    assert result["unacknowledged_versions"] == 0
