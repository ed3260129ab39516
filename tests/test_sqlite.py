"""SQLite under concurrent writers: WAL, a busy timeout, the write lock held only to write."""

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


def statements_of(app, send) -> list[str]:
    """What SQLite itself runs while `send()` runs (each statement's first three words),
    including the BEGIN and COMMIT statements sqlite.py sends on the cursor."""
    seen: list[str] = []
    with app.app_context():
        engine = db.engine

    def trace(dbapi_connection, _record):
        dbapi_connection.set_trace_callback(lambda sql: seen.append(" ".join(sql.split()[:3])))

    event.listen(engine, "connect", trace)
    engine.dispose()  # new connections, traced
    try:
        send()
    finally:
        event.remove(engine, "connect", trace)
        engine.dispose()
    return [statement for statement in seen if not statement.startswith("PRAGMA")]


def test_a_round_save_holds_the_write_lock_only_to_write(app, client):
    """Authenticating, reading the game and checking the round run on a read snapshot; the
    write lock is taken at the first write (the game's version, pinned to what was read)."""
    created = client.post(f"{API}/games", json={"players": ["Ana", "Ben"]}).get_json()
    headers = {"Authorization": f"Bearer {created['edit_token']}"}
    path = f"{API}/games/{created['id']}/rounds"

    def save():
        answer = client.post(path, json={"out": "Ana", "scores": {"Ben": 9}}, headers=headers)
        assert answer.status_code == 201

    sent = statements_of(app, save)
    assert sent[0] == "BEGIN"
    locked = sent.index("BEGIN IMMEDIATE")
    reads = sent[1:locked]
    assert any("games" in statement for statement in reads)  # the token's game, read first
    assert all(statement.startswith(("SELECT", "COMMIT")) for statement in reads), reads
    assert sent[locked + 1].startswith("UPDATE games"), sent  # the version, pinned
    under_lock = sent[locked + 1 : sent.index("COMMIT", locked)]
    assert not [s for s in under_lock if s.startswith("SELECT")], under_lock
    # The answer's reads, once the write committed, do not lock again (a read transaction
    # ends in COMMIT or, at the request's end, ROLLBACK: neither took the write lock).
    assert set(sent[sent.index("COMMIT", locked) + 1 :]) <= {"BEGIN", "COMMIT", "ROLLBACK"} | {
        s for s in sent if s.startswith("SELECT")
    }
    view = {"Authorization": f"Bearer {created['view_token']}"}
    reads = begins_of(app, lambda: client.get(f"{API}/games/{created['id']}", headers=view))
    assert reads and set(reads) == {"BEGIN"}


def test_a_write_on_a_stale_read_saves_nothing(app, client, app_config):
    """Another process saves a round between this save's read and its write: the version it
    was pinned to is gone, so it is refused (409) and the other round is kept as it was."""
    created = client.post(f"{API}/games", json={"players": ["Ana", "Ben"]}).get_json()
    headers = {"Authorization": f"Bearer {created['edit_token']}"}
    path = f"{API}/games/{created['id']}/rounds"
    other = create_app(app_config).test_client()  # another worker: its own engine and lock
    raced = []

    def save_meanwhile(_conn, _cursor, statement, *_args):
        if statement.startswith("SELECT games.") and not raced:
            raced.append(
                other.post(path, json={"out": "Ben", "scores": {"Ana": 40}}, headers=headers)
            )

    with app.app_context():
        engine = db.engine
    # Right after this save read the game (its token's row, and so its version).
    event.listen(engine, "after_cursor_execute", save_meanwhile)
    try:
        mine = client.post(path, json={"out": "Ana", "scores": {"Ben": 9}}, headers=headers)
    finally:
        event.remove(engine, "after_cursor_execute", save_meanwhile)
    assert raced[0].status_code == 201, raced[0].get_data(as_text=True)
    assert mine.status_code == 409
    rounds = client.get(f"{API}/games/{created['id']}", headers=headers).get_json()["rounds"]
    assert len(rounds) == 1


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
