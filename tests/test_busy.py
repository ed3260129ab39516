"""A busy database answers 503 with Retry-After, never 500, and a lost deadlock is run again.

PostgreSQL picks a victim to break a deadlock (40P01) or a serialization conflict (40001): the
write is run again from a fresh read. SQLite's write lock held past the busy timeout ("database
is locked") cannot be retried usefully: the client is asked to send again. The load run
(bench/load.py, tests/test_load.py) shows both stay rare; these tests force them.
"""

from __future__ import annotations

import sqlite3

import pytest
from sqlalchemy.exc import OperationalError

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Round
from scorekeeper.services import games as game_service
from scorekeeper.services.games import unit, writes
from tests.helpers import game_etag, load_game

API = "/api/v1"
ROUND = {"out": "Ana", "scores": {"Ben": 15, "Cy": 7}}
PIPS = {"Ana": 0, "Ben": 15, "Cy": 7}
KEY = "queued-round-0001"


class Deadlock(Exception):
    """What psycopg raises when PostgreSQL breaks a deadlock: its SQLSTATE says so."""

    sqlstate = "40P01"


@pytest.fixture
def created(client):
    response = client.post(f"{API}/games", json={"players": ["Ana", "Ben", "Cy"]})
    assert response.status_code == 201
    return response.get_json()


def lose_deadlocks(monkeypatch, times: int) -> list[int]:
    """Make the next `times` commits of a game write fail as a deadlock victim's would."""
    calls: list[int] = []
    real_commit = writes.commit

    def commit(game):
        calls.append(1)
        if len(calls) <= times:
            db.session.flush()  # the rows were written, as they are before a real deadlock
            raise OperationalError("UPDATE games ...", {}, Deadlock("deadlock detected"))
        return real_commit(game)

    monkeypatch.setattr(writes, "commit", commit)
    monkeypatch.setattr(unit, "MAX_PAUSE", 0)
    return calls


def rounds_stored(app, game_id: int) -> int:
    with app.app_context():
        return db.session.query(Round).filter_by(game_id=game_id).count()


def test_a_lost_deadlock_is_run_again_and_the_round_saved_once(app, client, created, monkeypatch):
    calls = lose_deadlocks(monkeypatch, times=2)
    response = client.post(
        f"{API}/games/{created['id']}/rounds",
        json={**ROUND, "number": 1},
        headers={"Authorization": f"Bearer {created['edit_token']}"},
    )
    assert response.status_code == 201
    assert len(calls) == 3
    # The two rolled-back attempts left nothing behind: one round, one version step.
    assert rounds_stored(app, created["id"]) == 1
    assert response.headers["ETag"] == game_etag(created, 2)


def test_deadlocks_past_the_retries_answer_503_json_with_retry_after(
    app, client, created, monkeypatch
):
    calls = lose_deadlocks(monkeypatch, times=unit.ATTEMPTS)
    response = client.post(
        f"{API}/games/{created['id']}/rounds",
        json=ROUND,
        headers={"Authorization": f"Bearer {created['edit_token']}"},
    )
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "1"
    assert "not saved" in response.get_json()["error"]
    assert len(calls) == unit.ATTEMPTS
    assert rounds_stored(app, created["id"]) == 0


def test_a_retried_write_checks_its_key_again_and_a_twin_saved_meanwhile_wins(app, monkeypatch):
    """Two copies of one queued round (same key, no round number) race: the first loses a
    deadlock and, while it waits, the second is saved. The retry is the whole write again, key
    check first (one unit of work): it answers as a repeat without trying to write the round a
    second time, and the round is stored once."""
    monkeypatch.setattr(unit, "MAX_PAUSE", 0)
    real_commit = writes.commit
    calls: list[int] = []
    entry = core.RoundEntry({name: core.HandEntry(pips) for name, pips in PIPS.items()}, out="Ana")
    with app.app_context():
        game_id = game_service.create_game(list(PIPS), core.GameRules()).id

    def commit(game):
        calls.append(1)
        if len(calls) == 1:
            db.session.rollback()
            with app.app_context():  # the twin, on another request
                twin = game_service.record_round(load_game(game_id), entry, key=KEY)
                assert twin.saved and not twin.repeated
            raise OperationalError("UPDATE games ...", {}, Deadlock("deadlock detected"))
        return real_commit(game)

    monkeypatch.setattr(writes, "commit", commit)
    with app.app_context():
        outcome = game_service.record_round(load_game(game_id), entry, key=KEY)
        assert outcome.repeated and outcome.number == 1
    assert len(calls) == 2  # the twin's commit and the first attempt's: no third write
    assert rounds_stored(app, game_id) == 1


def test_the_round_form_keeps_what_was_typed_when_the_database_stays_busy(app, client, monkeypatch):
    response = client.post(
        "/games/new",
        data={
            "players-0": "Ana",
            "players-1": "Ben",
            "players-2": "Cy",
            "game_type": "mexican_train",
            "set_size": "12",
            "order": "descending",
            "blank_scoring": "face",
            "open_train_points": "0",
            "target": "100",
            "submit": "Start",
        },
    )
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    lose_deadlocks(monkeypatch, times=unit.ATTEMPTS)
    form = {"number": "1", "out": "0", "mode_1": "pips", "pips_1": "37", "mode_2": "pips"}
    form["pips_2"] = "19"
    response = client.post(f"/games/{game_id}/rounds", data=form)
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "1"
    page = response.get_data(as_text=True)
    assert "this round was not saved" in page
    assert 'value="37"' in page and 'value="19"' in page
    assert rounds_stored(app, game_id) == 0


@pytest.fixture
def app_config(app_config):
    # A writer waits this long for the write lock before SQLite says "database is locked".
    return {**app_config, "SQLITE_BUSY_TIMEOUT": 0.2}


def test_sqlite_locked_past_the_busy_timeout_answers_503_not_500(app, client, created):
    path = app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")
    assert client.post(f"/e/{created['edit_token']}").status_code == 302  # this phone scores
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        response = client.post(
            f"{API}/games/{created['id']}/rounds",
            json=ROUND,
            headers={"Authorization": f"Bearer {created['edit_token']}"},
        )
        # A POST that only reads (End's first step asks) does not need the lock.
        asked = client.post(f"/games/{created['id']}/end")
        page = client.post(f"/games/{created['id']}/end", data={"confirm": "yes"})
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "1"
    assert "not saved" in response.get_json()["error"]
    assert asked.status_code == 200
    assert "End the game now?" in asked.get_data(as_text=True)
    assert page.status_code == 503
    assert "Wait a moment and send it again." in page.get_data(as_text=True)
    assert rounds_stored(app, created["id"]) == 0
    with app.app_context():
        assert game_service.game_row(created["id"]).finished_at is None  # not ended either
