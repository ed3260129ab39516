"""Schemathesis against the served app's own /api/v1/openapi.json: every check, every phase.

The app is served from a thread on a free port with a fresh database and its rate limits raised
(on, but far above what one client sends here); a game is created through the API to get an
edit token, which every generated request carries. Schemathesis (its CLI, in a subprocess) then
runs the examples, coverage, fuzzing and stateful phases with all its checks, plus ours
(schemathesis_hooks.py). Any finding fails the test, with Schemathesis's report as the message.

The stateful phase follows the document's links: a round just recorded is read, corrected and
deleted with the ETag its answer carried in If-Match. The test reads every exchange back from
Schemathesis's HAR report and requires real corrections (PUT 200) and deletions (DELETE 200),
and no 429: a run that only met refusals would prove little.

To run the same against a server of your own (`make run`, with its limits raised: see
docs/api.md), set SCOREKEEPER_API_URL=http://127.0.0.1:5000 before pytest.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import flask_migrate
import pytest

from scorekeeper import create_app
from scorekeeper.models import game_key
from tests.serving import ClosingRequestHandler, serve

HERE = Path(__file__).parent
# Per operation. Six operations and four phases: about 50 s on this project's busy 2-core machine.
MAX_EXAMPLES = 25
STATEFUL_EXAMPLES = 40
# A schema-valid request may break a rule of the game (422, with the rule's code: our check
# makes sure it is never a shape code), or carry an If-Match that is not the game's ETag (412).
# Bytes sent as a photo fit the document yet are rarely a picture (415) or a readable one (422).
POSITIVE_STATUSES = ["2xx", "3xx", "401", "403", "404", "409", "412", "415", "422", "429", "5xx"]
PLAYERS = ["Ana", "Ben", "Cy"]
# Every house rule (penalties of every kind can be recorded) and room for 19 rounds.
GAME = {
    "players": PLAYERS,
    "set": 18,
    "house_rules": {"open_train_points": 10, "strategic_error": True, "adjustments": True},
}
# On, but no client of this run comes near them (the limits themselves: tests/test_limits.py).
RAISED = "100000 per minute"
# What the run must have done for real, at least (seed 13 on this app: 22 rounds saved, 12
# corrected, 6 deleted).
AT_LEAST = {
    ("POST", "/games/{game_id}/rounds", 201): 10,
    ("PUT", "/games/{game_id}/rounds/{number}", 200): 5,
    ("DELETE", "/games/{game_id}/rounds/{number}", 200): 3,
}


class QuietHandler(ClosingRequestHandler):
    """Thousands of requests: no log line for each."""

    def log_request(self, *args, **kwargs) -> None:
        pass


def post_json(url: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    """POST a JSON body over HTTP (with a bearer token); the JSON answer (it must be 201)."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert answer.status == 201
        return json.load(answer)


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app on a free loopback port (or SCOREKEEPER_API_URL's server, if set)."""
    outside = os.environ.get("SCOREKEEPER_API_URL")
    if outside:
        yield outside.rstrip("/")
        return
    folder = tmp_path_factory.mktemp("schemathesis")
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "schemathesis",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'api.sqlite'}",
            "CHART_CACHE_DIR": str(folder / "charts"),
            "RATELIMIT_ENABLED": True,
            "LIMIT_NEW_GAMES": RAISED,
            "LIMIT_ROUND_WRITES": RAISED,
            "LIMIT_PHOTO_READS": RAISED,
            "LIMIT_PHOTO_READS_PER_GAME": RAISED,
        }
    )
    with app.app_context():
        flask_migrate.upgrade()
    with serve(app, QuietHandler) as base:
        yield base


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
# The stateful phase is where rounds are corrected and deleted for real, along the document's
# own links (a save leads to its correction and deletion with the ETag it answered): follow
# those, not links Schemathesis would guess, in longer scenarios.
stateful.generation.max-examples = {STATEFUL_EXAMPLES}
stateful.inference.algorithms = []
stateful.max-steps = 15
"""
    path = folder / "schemathesis.toml"
    path.write_text(text)
    return path


def template(path: str) -> str:
    """An API URL's path as the document's path template."""
    path = path.split("?", 1)[0].removeprefix("/api/v1")
    path = re.sub(r"^/games/[^/]+", "/games/{game_id}", path)
    return re.sub(r"^(/games/\{game_id\}/rounds)/[^/]+$", r"\1/{number}", path)


def exchanges(har: Path) -> Counter[tuple[str, str, int]]:
    """(method, path template, status) of every request the run sent, counted."""
    entries = json.loads(har.read_text())["log"]["entries"]
    return Counter(
        (
            entry["request"]["method"],
            template(urllib.parse.urlsplit(entry["request"]["url"]).path),
            entry["response"]["status"],
        )
        for entry in entries
    )


def test_schemathesis_finds_nothing_and_corrects_and_deletes_rounds(base_url, tmp_path):
    game = post_json(f"{base_url}/api/v1/games", GAME)
    report, har = tmp_path / "report.json", tmp_path / "run.har"
    command = [
        sys.executable,
        "-m",
        "schemathesis.cli",
        "--config-file",
        str(config(base_url, game, tmp_path)),
        "run",
        f"{base_url}/api/v1/openapi.json",
        "--checks",
        "all",
        "--phases",
        "examples,coverage,fuzzing,stateful",
        "--no-color",
        "--report",
        "json,har",
        "--report-json-path",
        str(report),
        "--report-har-path",
        str(har),
    ]
    # Players leave and come back at a table of their own (one round played, so they can): a
    # leaver at the main table would change what its rounds need, and how many it can take.
    seats = post_json(f"{base_url}/api/v1/games", GAME)
    post_json(
        f"{base_url}/api/v1/games/{seats['id']}/rounds",
        {"out": "Ana", "scores": {"Ben": 5, "Cy": 7}},
        seats["edit_token"],
    )
    under_test = json.dumps(
        {
            "id": game["id"],
            "key": game_key(game["view_token"]),
            "players": PLAYERS,
            "seats": {
                "id": seats["id"],
                "key": game_key(seats["view_token"]),
                "token": seats["edit_token"],
            },
        }
    )
    env = {**os.environ, "NO_COLOR": "1", "SCOREKEEPER_SCHEMATHESIS_GAME": under_test}
    run = subprocess.run(
        command, capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env
    )
    assert run.returncode == 0, run.stdout[-12000:] + run.stderr[-3000:]
    assert "No issues found" in run.stdout or " passed" in run.stdout, run.stdout[-3000:]
    counted = exchanges(har)
    summary = sorted(counted.items())
    print(run.stdout[-1500:], *summary, sep="\n")  # shown with pytest -s or -rP
    limited = {key: n for key, n in counted.items() if key[2] == 429}
    assert not limited, f"Rate limited: raise the server's limits (docs/api.md). {limited}"
    for key, least in AT_LEAST.items():
        assert counted[key] >= least, (key, summary)
