"""Schemathesis against the served app's own /api/v1/openapi.json: every check, every phase.

The app is served from a thread on a free port with a fresh database; a game is created to get
an edit token, which every generated request carries. Schemathesis (its CLI, in a subprocess)
then runs the examples, coverage, fuzzing and stateful phases with all its checks, plus ours
(schemathesis_hooks.py). Any finding fails the test, with Schemathesis's report as the message.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import flask_migrate
import pytest
from werkzeug.serving import WSGIRequestHandler, make_server

from scorekeeper import create_app
from scorekeeper.extensions import db

HERE = Path(__file__).parent
# Per operation: six operations and four phases take about 40 s on an idle 2-core machine.
MAX_EXAMPLES = 25
# A schema-valid request may break a rule of the game (422, with the rule's code: our check
# makes sure it is never a shape code), or carry an If-Match that is not the game's ETag (412).
POSITIVE_STATUSES = ["2xx", "3xx", "401", "403", "404", "409", "412", "422", "429", "5xx"]


class QuietHandler(WSGIRequestHandler):
    """Thousands of requests: no log line for each."""

    def log_request(self, *args, **kwargs) -> None:
        pass


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict]]:
    """The app on a free loopback port, and a game created through its API (with every house
    rule, so penalties of every kind can be recorded)."""
    folder = tmp_path_factory.mktemp("schemathesis")
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "schemathesis",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'api.sqlite'}",
            "CHART_CACHE_DIR": str(folder / "charts"),
            # Thousands of writes in a minute from one address: the rate limits are not under test.
            "RATELIMIT_ENABLED": False,
        }
    )
    with app.app_context():
        flask_migrate.upgrade()
    rules = {"open_train_points": 10, "strategic_error": True, "adjustments": True}
    created = app.test_client().post(
        "/api/v1/games", json={"players": ["Ana", "Ben", "Cy"], "house_rules": rules}
    )
    assert created.status_code == 201
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=QuietHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", created.get_json()
    finally:
        server.shutdown()
        thread.join(timeout=5)
        server.server_close()
        with app.app_context():
            db.engine.dispose()


def config(base: str, game: dict, folder: Path) -> Path:
    """schemathesis.toml for this run."""
    text = f"""
base-url = "{base}/api/v1"
hooks = "{HERE / "schemathesis_hooks.py"}"
workers = 1
seed = 13
headers = {{ Authorization = "Bearer {game["edit_token"]}" }}

[generation]
max-examples = {MAX_EXAMPLES}
# NUL in text is refused with 400 before any schema is read (no column stores it): documented.
allow-x00 = false
database = "none"

[checks]
enabled = true
positive_data_acceptance.expected-statuses = {json.dumps(POSITIVE_STATUSES)}

[phases]
examples.enabled = true
coverage.enabled = true
fuzzing.enabled = true
stateful.enabled = true
"""
    path = folder / "schemathesis.toml"
    path.write_text(text)
    return path


def test_schemathesis_finds_nothing(served, tmp_path):
    base, game = served
    report = tmp_path / "report.json"
    command = [
        sys.executable,
        "-m",
        "schemathesis.cli",
        "--config-file",
        str(config(base, game, tmp_path)),
        "run",
        f"{base}/api/v1/openapi.json",
        "--checks",
        "all",
        "--phases",
        "examples,coverage,fuzzing,stateful",
        "--no-color",
        "--report",
        "json",
        "--report-json-path",
        str(report),
    ]
    run = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert run.returncode == 0, run.stdout[-12000:] + run.stderr[-3000:]
    assert "No issues found" in run.stdout or " passed" in run.stdout, run.stdout[-3000:]
    summary = json.loads(report.read_text())
    print(run.stdout[-1500:], json.dumps(summary)[:500])  # shown with pytest -s or -rP
