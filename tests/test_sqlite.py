"""SQLite under concurrent writers: WAL, a busy timeout, writes that lock as they begin."""

from __future__ import annotations

import sqlite3
import threading
from collections import Counter

from sqlalchemy import event, text

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.services import games as game_service

API = "/api/v1"
WRITERS = 16
ROUNDS = 4


def pragma(app, name: str):
    with app.app_context():
        return db.session.execute(text(f"PRAGMA {name}")).scalar_one()


def test_connections_use_wal_and_the_busy_timeout(app):
    assert pragma(app, "journal_mode") == "wal"
    assert pragma(app, "busy_timeout") == 5000


def test_the_busy_timeout_is_a_setting(app, app_config):
    other = create_app({**app_config, "SQLITE_BUSY_TIMEOUT": 0.25})
    assert pragma(other, "busy_timeout") == 250


def begins_of(app, send) -> list[str]:
    """The BEGIN statements the app sends while `send()` runs."""
    seen: list[str] = []
    with app.app_context():
        engine = db.engine

    def listen(_conn, _cursor, statement, *_args):
        if statement.startswith("BEGIN"):
            seen.append(statement)

    event.listen(engine, "before_cursor_execute", listen)
    try:
        send()
    finally:
        event.remove(engine, "before_cursor_execute", listen)
    return seen


def test_writes_lock_as_they_begin_and_reads_do_not(app, client):
    created = {}

    def create():
        created.update(client.post(f"{API}/games", json={"players": ["Ana", "Ben"]}).get_json())

    # The write locks as it begins; the answer's reads, once it committed, do not lock again.
    begins = begins_of(app, create)
    assert begins[0] == "BEGIN IMMEDIATE"
    assert set(begins[1:]) <= {"BEGIN"}
    view = {"Authorization": f"Bearer {created['view_token']}"}
    reads = begins_of(app, lambda: client.get(f"{API}/games/{created['id']}", headers=view))
    assert reads and set(reads) == {"BEGIN"}


def test_a_get_that_writes_after_someone_else_wrote_waits_its_turn(app, app_config):
    """Its read snapshot is stale by then: upgrading it would fail at once ("database is
    locked"); the write starts a transaction of its own instead."""
    path = app_config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")
    insert = "INSERT INTO sign_in_attempts (email, address, at) VALUES (?, ?, '2030-01-01')"

    @app.get("/_read_then_write")
    def read_then_write():
        db.session.execute(text("SELECT count(*) FROM sign_in_attempts")).scalar_one()
        with sqlite3.connect(path) as other:  # another worker writes meanwhile
            other.execute(insert, ("other@example.com", "10.0.0.2"))
        db.session.execute(
            text(insert.replace("?, ?", ":email, :address")),
            {"email": "me@example.com", "address": "10.0.0.1"},
        )
        db.session.commit()
        return "saved"

    response = app.test_client().get("/_read_then_write")
    assert response.status_code == 200
    with app.app_context():
        emails = db.session.execute(text("SELECT email FROM sign_in_attempts")).scalars()
        assert sorted(emails) == ["me@example.com", "other@example.com"]


def test_outside_requests_reads_do_not_lock_and_writes_still_commit(app):
    """A script's lingering read must not hold off the server's writers."""

    def service():
        with app.app_context():
            db.session.execute(text("SELECT count(*) FROM users")).scalar_one()
            db.session.execute(text("DELETE FROM users"))
            db.session.execute(
                text(
                    "INSERT INTO users (email, name, created_at, session_version)"
                    " VALUES ('a@example.com', 'A', '2030-01-01', 1)"
                )
            )
            db.session.commit()

    assert begins_of(app, service) == []  # reads in autocommit; BEGIN IMMEDIATE at the DELETE
    with app.app_context():
        assert db.session.execute(text("SELECT name FROM users")).scalars().all() == ["A"]


def test_sixteen_writers_at_once_lose_no_round_and_see_no_error(app, app_config):
    # 32 threads share one GIL here, which can keep the lock holder waiting for seconds on a
    # busy machine: a long busy timeout, since this checks correctness, not speed.
    app = create_app({**app_config, "SQLITE_BUSY_TIMEOUT": 60})
    client = app.test_client()
    games = [
        client.post(f"{API}/games", json={"players": ["Ana", "Ben", "Cy"]}).get_json()
        for _ in range(WRITERS)
    ]
    statuses: Counter[int] = Counter()
    errors: list[BaseException] = []
    start = threading.Barrier(WRITERS * 2)

    def write(game: dict) -> None:
        own = app.test_client()
        headers = {"Authorization": f"Bearer {game['edit_token']}"}
        try:
            start.wait()
            for number in range(1, ROUNDS + 1):
                response = own.post(
                    f"{API}/games/{game['id']}/rounds",
                    json={"out": "Ana", "scores": {"Ben": number, "Cy": 2 * number}},
                    headers=headers,
                )
                statuses[response.status_code] += 1
        except BaseException as error:  # noqa: BLE001  (reported below)
            errors.append(error)

    def read(game: dict) -> None:
        own = app.test_client()
        headers = {"Authorization": f"Bearer {game['view_token']}"}
        try:
            start.wait()
            for _ in range(ROUNDS):
                statuses[own.get(f"{API}/games/{game['id']}", headers=headers).status_code] += 1
        except BaseException as error:  # noqa: BLE001
            errors.append(error)

    threads = [threading.Thread(target=write, args=(game,)) for game in games]
    threads += [threading.Thread(target=read, args=(game,)) for game in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert errors == []
    assert statuses == {201: WRITERS * ROUNDS, 200: WRITERS * ROUNDS}
    with app.app_context():
        for game in games:
            found = game_service.game_row(game["id"])
            scores = [r.scores for r in game_service.snapshot_of(found).results]
            assert len(scores) == ROUNDS, game["id"]
