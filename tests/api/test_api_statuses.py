"""Every status the API really answers around its views is in the document, route by route:
503 (the app-wide busy-database handler) wherever a route reads the database, 429 wherever a
rate limit counts it, and neither where it cannot happen.

The database is made busy for real (every connection of a one-connection pool held by the test)
and the limits are real Flask-Limiter counts, lowered to one a minute.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from werkzeug.test import Client

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.services import accounts as account_service

API = "/api/v1"
ROUND = {"out": "Ana", "scores": {"Ben": 15, "Cy": 7}}


def documented(client: Client) -> dict[tuple[str, str], set[str]]:
    """(METHOD, path template) -> the statuses the served document lists for it."""
    doc = client.get(f"{API}/openapi.json").get_json()
    return {
        (method.upper(), path): set(operation["responses"])
        for path, item in doc["paths"].items()
        for method, operation in item.items()
    }


def send(client: Client, method: str, path: str, game: dict[str, Any], **extra: Any):
    """One well-formed request to an operation of the document, on `game`'s round 1 (a club's
    route asks for club 1 with a token shaped like a personal one)."""
    url = API + path.replace("{game_id}", str(game["id"])).replace("{number}", "1")
    token = game["edit_token"]
    if "{club_id}" in path:
        url = url.replace("{club_id}", "1")
        prefix = account_service.TOKEN_PREFIX
        token = prefix + "p" * (account_service.TOKEN_LENGTH - len(prefix))
    headers = {"Authorization": f"Bearer {token}"}
    body: dict[str, Any] | None = None
    if (method, path) == ("POST", "/games"):
        body = {"players": ["Ana", "Ben", "Cy"]}
    elif method in {"POST", "PUT"}:
        body = ROUND
    return client.open(url, method=method, json=body, headers=headers, **extra)


@pytest.fixture
def busy_app(
    app_config: dict[str, object], migrated_database: Path, tmp_path: Path
) -> Iterator[Flask]:
    """An app whose pool has one connection and waits 0.2 s for it: a test that holds it makes
    every request that needs the database time out in the pool, as on a swamped server."""
    path = tmp_path / "busy.sqlite"
    shutil.copyfile(migrated_database, path)
    config = {
        **app_config,
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}",
        "SQLALCHEMY_ENGINE_OPTIONS": {"pool_size": 1, "max_overflow": 0, "pool_timeout": 0.2},
        "RATELIMIT_ENABLED": False,  # the limits are the other test's
    }
    app = create_app(config)
    yield app
    with app.app_context():
        db.engine.dispose()


def made_game(client: Client) -> dict[str, Any]:
    created = client.post(f"{API}/games", json={"players": ["Ana", "Ben", "Cy"]}).get_json()
    headers = {"Authorization": f"Bearer {created['edit_token']}"}
    assert (
        client.post(f"{API}/games/{created['id']}/rounds", json=ROUND, headers=headers).status_code
        == 201
    )
    return created


def test_every_route_that_reads_the_database_documents_the_503_it_answers_when_busy(
    busy_app: Flask,
):
    client = busy_app.test_client()
    game = made_game(client)
    statuses = documented(client)
    answered: dict[tuple[str, str], int] = {}
    with busy_app.app_context():
        held = db.engine.connect()  # the pool's only connection
        try:
            for method, path in statuses:
                response = send(client, method, path, game)
                answered[method, path] = response.status_code
                if response.status_code == 503:
                    assert response.headers["Retry-After"] == "1"
                    assert response.get_json()["error"]
        finally:
            held.close()
    # Every route but the document itself needs the database: each said "busy, try again"...
    assert answered.pop(("GET", "/openapi.json")) == 200
    assert "503" not in statuses.pop(("GET", "/openapi.json"))
    assert set(answered.values()) == {503}
    # ... and each lists that answer in the document.
    assert all("503" in listed for listed in statuses.values())
    # Nothing was lost: the game is as it was once the database is free again.
    again = send(client, "GET", "/games/{game_id}", game)
    assert again.status_code == 200 and len(again.get_json()["rounds"]) == 1


@pytest.fixture
def app_config(app_config: dict[str, object]) -> dict[str, object]:
    return {
        **app_config,
        "RATELIMIT_ENABLED": True,
        "LIMIT_NEW_GAMES": "1 per minute",
        "LIMIT_ROUND_WRITES": "1 per minute",
        "LIMIT_PHOTO_READS": "1 per minute",
    }


def test_429_is_documented_exactly_where_a_limit_counts_the_route(client: Client):
    statuses = documented(client)
    created = client.post(f"{API}/games", json={"players": ["Ana", "Ben", "Cy"]}).get_json()
    headers = {"Authorization": f"Bearer {created['edit_token']}"}
    saved = client.post(f"{API}/games/{created['id']}/rounds", json=ROUND, headers=headers)
    assert saved.status_code == 201
    # Both write limits are now used up for this address (the photo reads' at the first read):
    # every request, twice, to every route.
    limited = set()
    for method, path in statuses:
        for _ in range(2):
            response = send(client, method, path, created)
            if response.status_code == 429:
                assert int(response.headers["Retry-After"]) >= 1
                limited.add((method, path))
    assert limited == {key for key, listed in statuses.items() if "429" in listed}
    assert limited == {
        ("POST", "/games"),
        ("POST", "/games/{game_id}/rounds"),
        ("PUT", "/games/{game_id}/rounds/{number}"),
        ("DELETE", "/games/{game_id}/rounds/{number}"),
        ("POST", "/games/{game_id}/leave"),
        ("POST", "/games/{game_id}/back"),
        ("POST", "/games/{game_id}/photos"),
        ("POST", "/games/{game_id}/hands"),  # a player's sent hand: under the round writes'
    }
    # Another address is not held back (a club behind one router shares one, hence the
    # generous defaults): its first new game is saved.
    other = client.post(
        f"{API}/games",
        json={"players": ["Ana", "Ben"]},
        environ_base={"REMOTE_ADDR": "198.51.100.9"},
    )
    assert other.status_code == 201
