"""Two app servers (separate gunicorn processes) on one PostgreSQL: what one saves, the other
shows at once on every page of the game, and writes through both at once lose nothing.

Each server keeps its own snapshot cache and its own chart files (docs/deploy.md): a round saved
on one must still never leave the other serving an older game.
"""

from __future__ import annotations

import http.client
import json
import random
import re
import secrets
import shutil
import tempfile
import threading
import time
import urllib.parse
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.helpers import bench_module

pytestmark = [
    pytest.mark.load,
    pytest.mark.skipif(
        not (shutil.which("initdb") and shutil.which("pg_ctl")),
        reason="PostgreSQL's initdb/pg_ctl are not on this machine",
    ),
]


load = bench_module("load")


@pytest.fixture(scope="module")
def servers():
    """Two gunicorn servers, each with its own chart folder, on one fresh PostgreSQL database."""
    scratch = Path(tempfile.mkdtemp(prefix="scorekeeper-two-"))
    try:
        with load.postgres_cluster() as url:
            environ = load.server_environ(load.ROOT, url, scratch)
            load.migrate(load.ROOT, environ)
            bases = []
            with (
                load.gunicorn(
                    str(load.ROOT),
                    {**environ, "SCOREKEEPER_CHART_CACHE_DIR": str(scratch / "charts-a")},
                    workers=1,
                    threads=4,
                    log=scratch / "a.log",
                ) as first,
                load.gunicorn(
                    str(load.ROOT),
                    {**environ, "SCOREKEEPER_CHART_CACHE_DIR": str(scratch / "charts-b")},
                    workers=1,
                    threads=4,
                    log=scratch / "b.log",
                ) as second,
            ):
                bases = [first, second]
                yield bases, url
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def get(base: str, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict, bytes]:
    return load.request(base, "GET", path, headers={"Accept": "*/*", **(headers or {})})


def claim(base: str, path: str, device: str) -> None:
    """Open the edit link's page and press its button, as the phone's browser would (the page
    gives the form's CSRF token and the session cookie it belongs to)."""
    status, answer, page = get(base, path, {"Cookie": f"sk_device={device}"})
    assert status == 200
    token = re.search(rb'name="csrf_token"[^>]*value="([^"]+)"', page).group(1).decode()
    session = answer["set-cookie"].split(";", 1)[0]
    connection = http.client.HTTPConnection(base.removeprefix("http://"), timeout=30)
    try:
        connection.request(
            "POST",
            path,
            body=urllib.parse.urlencode({"csrf_token": token}),
            headers={
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": f"sk_device={device}; {session}",
            },
        )
        assert connection.getresponse().status in (302, 303)
    finally:
        connection.close()


def views(base: str, game: dict, device: str) -> dict[str, bytes]:
    """Everything a phone sees of the game on this server: its page (the scorer's device),
    the API answer, the share page, and the race chart's ETag."""
    api = {"Authorization": f"Bearer {game['view_token']}"}
    cookie = {"Cookie": f"sk_device={device}"}
    seen = {}
    for name, path, headers in [
        ("page", f"/games/{game['id']}", cookie),
        ("api", f"/api/v1/games/{game['id']}", api),
        ("share", f"/s/{game['view_token']}", {}),
        ("chart", f"/s/{game['view_token']}/chart/race.svg", {}),
    ]:
        status, answer, body = get(base, path, headers)
        assert status == 200, (name, status)
        seen[name] = answer["etag"].encode() if name == "chart" else body
    return seen


class ScoreTable(HTMLParser):
    """The score sheet of a game page (the sheet's score-table), as rows of cell texts
    by row: a round's row by its id ("round-2"), the others by their heading ("Total")."""

    def __init__(self, page: bytes):
        super().__init__()
        self.rows: dict[str, list[str]] = {}
        self.tables = 0
        self._depth = 0  # inside the score table: how many tables deep
        self._row: list[str] | None = None
        self._row_id: str | None = None
        self._cell: list[str] | None = None
        self.feed(page.decode())

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        classes = (found.get("class") or "").split()
        # The sheet: "score-table players-3" (the charts' figures table is a score-table too).
        sheet = "score-table" in classes and any(c.startswith("players-") for c in classes)
        if tag == "table" and (self._depth or sheet):
            self.tables += not self._depth
            self._depth += 1
        elif self._depth and tag == "tr":
            self._row, self._row_id = [], found.get("id")
        elif self._depth and tag in ("td", "th") and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag):
        if tag == "table" and self._depth:
            self._depth -= 1
        elif tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.rows[self._row_id or (self._row[0] if self._row else "")] = self._row
            self._row = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)

    def column(self, name: str) -> int:
        """The index of a player's column (from the heading row)."""
        return self.rows["Engine"].index(name)

    def cell(self, row: str, player: str) -> str | None:
        found = self.rows.get(row)
        return None if found is None else found[self.column(player)]


def record(base: str, game: dict, number: int, pips: dict[str, int]) -> None:
    status, _, body = load.request(
        base,
        "POST",
        f"/api/v1/games/{game['id']}/rounds",
        {"number": number, "out": "Ana", "scores": pips, "confirm": True},
        {"Authorization": f"Bearer {game['edit_token']}"},
    )
    assert status == 201, body


def test_a_round_saved_on_one_server_shows_at_once_on_the_other(servers):
    (first, second), _url = servers
    status, _, body = load.request(
        first, "POST", "/api/v1/games", {"players": ["Ana", "Ben", "Cy"]}
    )
    assert status == 201
    game = json.loads(body)
    # The scorer's phone (its device cookie) opens the edit link through the first server.
    device = "two-servers-phone-" + secrets.token_urlsafe(12)
    claim(first, f"/e/{game['edit_token']}", device)

    record(first, game, 1, {"Ben": 31, "Cy": 17})
    # The second server sees round 1 and keeps what it worked out (snapshot, chart file).
    before = views(second, game, device)
    assert [r["number"] for r in json.loads(before["api"])["rounds"]] == [1]
    for name in ("page", "share"):
        sheet = ScoreTable(before[name])
        assert sheet.tables == 1, name
        assert [sheet.cell("round-1", p) for p in ("Ben", "Cy")] == ["31", "17"], name
        assert "round-2" not in sheet.rows, name
        assert [sheet.cell("Total", p) for p in ("Ben", "Cy")] == ["31", "17"], name

    record(first, game, 2, {"Ben": 83, "Cy": 59})
    after = views(second, game, device)
    assert [r["number"] for r in json.loads(after["api"])["rounds"]] == [1, 2]
    for name in ("page", "share"):
        sheet = ScoreTable(after[name])
        assert [sheet.cell("round-1", p) for p in ("Ben", "Cy")] == ["31", "17"], name
        assert [sheet.cell("round-2", p) for p in ("Ben", "Cy")] == ["83", "59"], name
        # Totals after two rounds: Ben 31 + 83, Cy 17 + 59 (Ana went out both times).
        assert [sheet.cell("Total", p) for p in ("Ana", "Ben", "Cy")] == ["0", "114", "76"], name
    # The chart drawn for round 1 is not served again: the second server draws round 2's,
    # the same chart the first server draws.
    assert after["chart"] != before["chart"]
    assert after["chart"] == views(first, game, device)["chart"]


def test_writes_through_both_servers_at_once_lose_nothing(servers):
    (first, second), url = servers
    games = load.create_games(first, 3)
    tally = load.Tally(measuring=True)
    settings = load.Settings(think=0.02)
    stop = time.monotonic() + 8
    rng = random.Random(7)
    # Four writers on each game, two through each server.
    threads = [
        threading.Thread(
            target=load.writer,
            args=(base, game, tally, settings, stop, rng.randrange(2**32)),
        )
        for game in games
        for base in (first, second, first, second)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    statuses = dict(tally.statuses)
    assert not [key for key in statuses if int(key.rsplit(" ", 1)[1]) >= 500], statuses
    assert tally.errors == {}
    assert statuses.get("record 201", 0) > 10, statuses
    found = load.check(games, url)
    assert found == {
        "lost": 0,
        "duplicated": 0,
        "replay_inconsistent": 0,
        "unacknowledged_versions": 0,
    }
