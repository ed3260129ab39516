"""Bearer tokens on every game route: 401 without a usable header, 403 with the wrong token."""

from __future__ import annotations

import pytest

from tests.helpers import load_game

API = "/api/v1"
ROUND = {"out": "Ana", "scores": {"Ben": 15, "Cy": 3}}

# (method, path template, body, needs the edit token)
ROUTES = [
    ("get", "/games/{id}", None, False),
    ("get", "/games/{id}/rounds/1", None, False),
    ("post", "/games/{id}/rounds", ROUND, True),
    ("put", "/games/{id}/rounds/1", ROUND, True),
    ("delete", "/games/{id}/rounds/1", None, True),
    ("post", "/games/{id}/leave", {"player": "Cy"}, True),
]
IDS = [f"{method} {path}" for method, path, _, _ in ROUTES]


@pytest.fixture
def games(client, make_game):
    """Two games, the first with one round recorded."""
    mine, other = make_game(), make_game()
    response = client.post(
        f"{API}/games/{mine['id']}/rounds",
        json=ROUND,
        headers={"Authorization": f"Bearer {mine['edit_token']}"},
    )
    assert response.status_code == 201
    return mine, other


def call(client, method, path, body, game_id, authorization=None):
    headers = {} if authorization is None else {"Authorization": authorization}
    url = API + path.format(id=game_id)
    return getattr(client, method)(url, json=body, headers=headers)


MALFORMED = [
    None,
    "",
    "Bearer",
    "Bearer ",
    "Basic QW5hOnNlY3JldA==",
    "Token abc",
    "Bearer two tokens",
    "Bearer bad\u00e9token",
    "Bearer " + "a" * 300,
    "Bearer {not-a-token}",
]


@pytest.mark.parametrize(("method", "path", "body", "edit"), ROUTES, ids=IDS)
def test_missing_or_malformed_header_is_401(client, app, games, method, path, body, edit):
    mine, _ = games
    for authorization in MALFORMED:
        response = call(client, method, path, body, mine["id"], authorization)
        assert response.status_code == 401, authorization
        assert response.headers["WWW-Authenticate"].startswith("Bearer"), authorization
        assert response.get_json() == {
            "error": "Send the game's token in an Authorization: Bearer header."
        }, authorization
    with app.app_context():
        assert load_game(mine["id"]).version == 2  # nothing was written


@pytest.mark.parametrize(("method", "path", "body", "edit"), ROUTES, ids=IDS)
def test_token_matrix(client, app, games, method, path, body, edit):
    mine, other = games
    cases = {
        "another game's edit token": (other["edit_token"], 403),
        "another game's view token": (other["view_token"], 403),
        "an unknown token": ("x" * 22, 403),
        "this game's view token": (mine["view_token"], 403 if edit else 200),
        "this game's edit token": (
            mine["edit_token"],
            201 if (method, path) == ("post", "/games/{id}/rounds") else 200,
        ),
    }
    for case, (token, status) in cases.items():
        response = call(client, method, path, body, mine["id"], f"Bearer {token}")
        assert response.status_code == status, case
        assert response.is_json, case
        if status == 403:
            expected = (
                "Recording scores needs this game's edit token."
                if edit
                else "That token does not open this game."
            )
            assert response.get_json() == {"error": expected}, case
    # The edit token's write went through once (the loop ends with it); nothing else did.
    with app.app_context():
        found = load_game(mine["id"])
        assert found.version == (3 if edit else 2)


def test_scheme_is_case_insensitive(client, games):
    mine, _ = games
    response = client.get(
        f"{API}/games/{mine['id']}", headers={"Authorization": f"bearer {mine['view_token']}"}
    )
    assert response.status_code == 200


@pytest.mark.parametrize(("method", "path", "body", "edit"), ROUTES, ids=IDS)
def test_unknown_game_is_404_with_a_well_formed_token(client, games, method, path, body, edit):
    mine, _ = games
    response = call(client, method, path, body, 9999, f"Bearer {mine['edit_token']}")
    assert response.status_code == 404
    assert response.get_json() == {"error": "There is no game 9999."}


def test_creating_a_game_and_reading_the_document_need_no_token(client):
    assert client.get(f"{API}/openapi.json").status_code == 200
    assert client.post(f"{API}/games", json={"players": ["Ana", "Ben"]}).status_code == 201
