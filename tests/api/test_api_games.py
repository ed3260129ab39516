"""POST /api/v1/games and GET /api/v1/games/<id>: creating games, reading state, ETags."""

from __future__ import annotations

import re

import flask_migrate
import pytest
from flask import Flask

from scorekeeper import core, create_app
from scorekeeper.services import games as game_service
from tests.helpers import count_games, game_etag, load_game

API = "/api/v1"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def record(client, created, body, status=201):
    response = client.post(
        f"{API}/games/{created['id']}/rounds", json=body, headers=bearer(created["edit_token"])
    )
    assert response.status_code == status, response.get_json()
    return response


def test_create_game_answers_201_with_tokens_links_and_headers(client, app: Flask, conforms):
    response = client.post(f"{API}/games", json={"players": ["Ana", "Ben", "Cy"]})
    assert response.status_code == 201
    body = response.get_json()
    conforms(body, "CreatedGame")
    assert set(body) == {
        *("id", "edit_token", "view_token", "engines", "edit_url", "view_url"),
        *("table_token", "table_url"),
    }
    assert response.headers["Location"] == f"http://localhost{API}/games/{body['id']}"
    assert response.headers["ETag"] == game_etag(body, 1)
    assert body["engines"] == list(range(12, -1, -1))  # RULES.md example 3.1
    assert body["edit_url"] == f"http://localhost/e/{body['edit_token']}"
    assert body["view_url"] == f"http://localhost/s/{body['view_token']}"
    assert body["edit_token"] != body["view_token"]
    with app.app_context():
        game = load_game(body["id"])
        assert game is not None
        assert game.edit_token == body["edit_token"]
        assert game.view_token == body["view_token"]
        assert game_service.snapshot_of(game).setup.players == ("Ana", "Ben", "Cy")
        assert game.created_by == "api"


def test_create_game_stores_every_option(client, make_game, conforms):
    created = make_game(
        players=["Ana", "Ben", "Cy", "Dee"],
        set=9,
        blank_scoring="blank_25",
        start_double=9,
        rounds=4,
        order="descending",
        hand_size=10,
        house_rules={"open_train_points": 10, "strategic_error": True, "adjustments": True},
    )
    assert created["engines"] == [9, 8, 7, 6]  # RULES.md example 3.2
    response = client.get(f"{API}/games/{created['id']}", headers=bearer(created["view_token"]))
    body = response.get_json()
    conforms(body, "Game")
    assert body["options"] == {
        "set": 9,
        "blank_scoring": "blank_25",
        "start_double": 9,
        "rounds": 4,
        "order": "descending",
        "hand_size": 10,
        "target": 100,
        "house_rules": core.house_rule_values(
            core.HouseRules(open_train_points=10, strategic_error=True, adjustments=True)
        ),
    }


def test_create_ascending_game(make_game):
    created = make_game(set=6, order="ascending", rounds=3)
    assert created["engines"] == [0, 1, 2]


def test_rule_errors_are_422_with_the_cores_messages(client):
    # The shape is right (a set of the list, a double no larger than 18-18): the core refuses.
    body = {"players": ["Ana", "ana"], "set": 9, "start_double": 12}
    response = client.post(f"{API}/games", json=body)
    assert response.status_code == 422
    with pytest.raises(core.RuleError) as raised:
        core.new_game(["Ana", "ana"], core.GameRules(set_size=9, start_double=12))
    expected = [
        {"player": p.player, "field": p.field, "message": p.message, "code": p.code}
        for p in raised.value.problems
    ]
    assert response.get_json() == {"errors": expected}
    assert {error["field"] for error in expected} >= {"start_double", "players-1"}
    assert {error["code"] for error in expected} >= {"start_double", "name_twice"}


def test_draw_game_dealing_the_whole_set_is_422_on_the_hand_size(client, app):
    body = {"players": ["Ana", "Ben"], "game_type": "draw", "hand_size": 14}
    response = client.post(f"{API}/games", json=body)
    assert response.status_code == 422
    assert response.get_json() == {
        "errors": [
            {
                "player": None,
                "field": "hand_size",
                "message": "With 2 players and 14 tiles each, no tile is left to draw from:"
                " deal at most 13 each.",
                "code": "hand_size_boneyard",
            }
        ]
    }
    with app.app_context():
        assert count_games() == 0


def test_no_game_is_stored_when_the_setup_is_refused(client, app):
    client.post(f"{API}/games", json={"players": ["Ana"]})
    with app.app_context():
        assert count_games() == 0


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "players"),
        ({"players": None}, "players"),
        ({"players": "Ana, Ben"}, "players"),
        ({"players": ["Ana", 2]}, "players"),
        ({"players": ["Ana", "Ben"], "set": "12"}, "set"),
        ({"players": ["Ana", "Ben"], "set": True}, "set"),
        ({"players": ["Ana", "Ben"], "set": 12.5}, "set"),
        ({"players": ["Ana", "Ben"], "set": 10**30}, "set"),
        ({"players": ["Ana", "Ben"], "target": 10**12}, "target"),
        ({"players": ["Ana", "Ben"], "rounds": [3]}, "rounds"),
        ({"players": ["Ana", "Ben"], "game_type": "poker"}, "game_type"),
        ({"players": ["Ana", "Ben"], "blank_scoring": 25}, "blank_scoring"),
        ({"players": ["Ana", "Ben"], "order": {"up": 1}}, "order"),
        ({"players": ["Ana", "Ben"], "teams": "AB"}, "teams"),
        ({"players": ["Ana", "Ben"], "teams": ["AB"]}, "teams"),
        ({"players": ["Ana", "Ben"], "house_rules": [10]}, "house_rules"),
        (
            {"players": ["Ana", "Ben"], "house_rules": {"open_train_points": "10"}},
            "open_train_points",
        ),
        (
            {"players": ["Ana", "Ben"], "house_rules": {"strategic_error": "yes"}},
            "strategic_error",
        ),
        ({"players": ["Ana", "Ben"], "house_rules": {"bonus": 1}}, "house_rules.bonus"),
        ({"players": ["Ana", "Ben"], "rounds_count": 3}, "rounds_count"),
    ],
)
def test_wrong_types_are_422_naming_the_field(client, app, body, field):
    response = client.post(f"{API}/games", json=body)
    assert response.status_code == 422
    errors = response.get_json()["errors"]
    assert field in [error["field"] for error in errors]
    assert all(error["message"] for error in errors)
    with app.app_context():
        assert count_games() == 0


@pytest.mark.parametrize(
    "data",
    [b"", b"[]", b'["Ana", "Ben"]', b"null", b"12", b'"players"', b"{", b"\xff\xfe\x00", b"NaN"],
)
def test_a_body_that_is_not_a_json_object_is_400(client, data):
    response = client.post(f"{API}/games", data=data, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json() == {"error": "The request body must be a JSON object."}


def test_a_body_nested_too_deep_is_400(client):
    response = client.post(f"{API}/games", data=b'{"players": ' + b"[" * 100_000)
    assert response.status_code == 400


@pytest.mark.parametrize("name", [r"\ud800", r"Ana\u0000", r"\udfff Ben"])
def test_text_no_database_can_store_is_400(client, app, name):
    data = f'{{"players": ["{name}", "Cy"]}}'.encode()
    response = client.post(f"{API}/games", data=data)
    assert response.status_code == 400
    assert response.get_json() == {
        "error": "Text in the request must be Unicode without NUL characters."
    }
    with app.app_context():
        assert count_games() == 0


def test_nan_in_json_is_refused(client):
    response = client.post(
        f"{API}/games", data=b'{"players": ["Ana", "Ben"], "set": NaN}', content_type="text/plain"
    )
    assert response.status_code == 400


def test_json_without_content_type_is_read(client):
    response = client.post(f"{API}/games", data=b'{"players": ["Ana", "Ben"]}')
    assert response.status_code == 201


def test_api_needs_no_csrf_token(app_config):
    app = create_app({**app_config, "WTF_CSRF_ENABLED": True})
    with app.app_context():
        flask_migrate.upgrade()
    response = app.test_client().post(f"{API}/games", json={"players": ["Ana", "Ben"]})
    assert response.status_code == 201


def test_get_game_with_either_token(client, make_game, conforms):
    created = make_game()
    for token in (created["edit_token"], created["view_token"]):
        response = client.get(f"{API}/games/{created['id']}", headers=bearer(token))
        assert response.status_code == 200
        assert response.headers["ETag"] == game_etag(created, 1)
        body = response.get_json()
        conforms(body, "Game")
    assert body["id"] == created["id"]
    assert body["game_type"] == "mexican_train"
    assert body["players"] == ["Ana", "Ben", "Cy"]
    assert body["teams"] == []
    assert body["rounds"] == []
    assert body["finished"] is False
    assert (body["next_round"], body["next_engine"], body["next_opener"]) == (1, 12, "Ana")
    assert body["winner"] is None
    assert [line["place"] for line in body["standings"]] == [1, 1, 1]


def test_get_game_after_rounds_shows_standings_and_tie_breakers(client, make_game):
    # RULES.md example 5.1: A and B total 40, A has two zero rounds, B one; C has 55.
    created = make_game(players=["A", "B", "C"])
    record(client, created, {"out": "A", "scores": {"B": 0, "C": 20}})
    record(client, created, {"out": "C", "scores": {"A": 0, "B": 20}})
    record(client, created, {"blocked": True, "scores": {"A": 40, "B": 20, "C": 35}})
    response = client.get(f"{API}/games/{created['id']}", headers=bearer(created["view_token"]))
    body = response.get_json()
    assert response.headers["ETag"] == game_etag(created, 4)
    assert [(s["name"], s["place"], s["total"], s["decided_by"]) for s in body["standings"]] == [
        ("A", 1, 40, "zero_rounds"),
        ("B", 2, 40, "zero_rounds"),
        ("C", 3, 55, "total"),
    ]
    assert body["rounds"][2] == {
        "number": 3,
        "engine": 10,
        "out": None,
        "blocked": True,
        "scores": {"A": 40, "B": 20, "C": 35},
        "pips": {"A": 40, "B": 20, "C": 35},
        "penalties": [],
    }
    assert (body["next_round"], body["next_engine"], body["next_opener"]) == (4, 9, "A")


def test_partnership_standings_rank_teams(client, make_game, conforms):
    # RULES.md example 6.1.
    created = make_game(players=["A", "B", "C", "D"], teams=[["A", "C"], ["B", "D"]])
    record(client, created, {"out": "A", "scores": {"C": 30, "B": 10, "D": 5}})
    body = client.get(
        f"{API}/games/{created['id']}", headers=bearer(created["view_token"])
    ).get_json()
    conforms(body, "Game")
    assert body["teams"] == [["A", "C"], ["B", "D"]]
    assert [(s["name"], s["total"]) for s in body["standings"]] == [("A & C", 0), ("B & D", 15)]
    assert [(s["name"], s["total"]) for s in body["player_standings"]] == [
        ("A", 0),
        ("D", 5),
        ("B", 10),
        ("C", 30),
    ]


def test_draw_game_ranks_by_points_and_names_the_winner(client, make_game):
    created = make_game(game_type="draw", target=50)
    assert created["engines"] == []
    record(client, created, {"out": "Ana", "scores": {"Ben": 12, "Cy": 9}})  # example 9.2
    body = client.get(
        f"{API}/games/{created['id']}", headers=bearer(created["view_token"])
    ).get_json()
    assert (body["finished"], body["winner"], body["next_opener"]) == (False, None, "Ben")
    record(client, created, {"out": "Ana", "scores": {"Ben": 20, "Cy": 15}})
    body = client.get(
        f"{API}/games/{created['id']}", headers=bearer(created["view_token"])
    ).get_json()
    assert body["standings"][0] == {
        "place": 1,
        "shared": False,
        "name": "Ana",
        "total": 56,
        "zero_rounds": 0,
        "decided_by": "total",
    }
    assert (body["finished"], body["winner"], body["winners"]) == (True, "Ana", ["Ana"])
    assert body["next_round"] is None
    response = record(client, created, {"out": "Ben", "scores": {"Ana": 1, "Cy": 2}}, 409)
    assert response.get_json() == {"error": "This game is over: no more rounds can be recorded."}


def test_if_none_match_answers_304_until_the_game_changes(client, make_game):
    created = make_game()
    url = f"{API}/games/{created['id']}"
    first = client.get(url, headers=bearer(created["view_token"]))
    etag = first.headers["ETag"]
    again = client.get(url, headers={**bearer(created["view_token"]), "If-None-Match": etag})
    assert again.status_code == 304
    assert again.headers["ETag"] == etag
    assert again.data == b""
    record(client, created, {"out": "Ana", "scores": {"Ben": 5, "Cy": 6}})
    changed = client.get(url, headers={**bearer(created["view_token"]), "If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] != etag
    assert len(changed.get_json()["rounds"]) == 1


def test_unknown_game_is_404(client, make_game):
    created = make_game()
    response = client.get(f"{API}/games/999", headers=bearer(created["edit_token"]))
    assert response.status_code == 404
    assert response.get_json() == {"error": "There is no game 999."}
    huge = client.get(f"{API}/games/{10**30}", headers=bearer(created["edit_token"]))
    assert huge.status_code == 404
    assert huge.is_json


def test_get_one_round(client, make_game, conforms):
    created = make_game()
    record(client, created, {"out": "Ana", "hands": {"Ben": ["6-4", "3-2"]}, "scores": {"Cy": 7}})
    response = client.get(
        f"{API}/games/{created['id']}/rounds/1", headers=bearer(created["view_token"])
    )
    assert response.status_code == 200
    assert response.headers["ETag"] == game_etag(created, 2)
    body = response.get_json()
    conforms(body, "Round")
    assert body["hands"][1] == {
        "player": "Ben",
        "pips": 15,
        "penalty": 0,
        "score": 15,
        "went_out": False,
        "tiles": ["6-4", "3-2"],
    }
    missing = client.get(
        f"{API}/games/{created['id']}/rounds/2", headers=bearer(created["view_token"])
    )
    assert missing.status_code == 404
    assert missing.get_json() == {"error": "Round 2 is not recorded."}


def _patterns(node) -> list[str]:
    """Every pattern in a schema (nested)."""
    if isinstance(node, list):
        return [p for item in node for p in _patterns(item)]
    if not isinstance(node, dict):
        return []
    own = [node["pattern"]] if isinstance(node.get("pattern"), str) else []
    return own + [p for value in node.values() for p in _patterns(value)]


def test_the_document_says_what_the_server_refuses_for_its_shape(client):
    schemas = client.get(f"{API}/openapi.json").get_json()["components"]["schemas"]
    assert schemas["NewGame"]["properties"]["players"]["uniqueItems"] is True
    twice = client.post(f"{API}/games", json={"players": ["Ana", "Ana"]})
    assert twice.status_code == 422
    assert not [e for e in twice.get_json()["errors"] if e["code"].startswith("request.")]
    # Every text of a request has a pattern, and no pattern lets NUL through; nor does the server.
    requests = [schemas[name] for name in ("NewGame", "RoundEntry", "PenaltyEntry")]
    patterns = set(_patterns(requests))
    assert patterns and all(re.fullmatch(p, "Ana\x00") is None for p in patterns)
    assert all(re.fullmatch(p, "Ana") for p in patterns)
    nul = client.post(f"{API}/games", json={"players": ["Ana\x00", "Ben"]})
    assert nul.status_code == 400


def test_the_games_json_written_once_per_version_shows_every_change(client):
    """The GET's body is kept per version under its ETag: each write gets a new body."""
    created = client.post(f"{API}/games", json={"players": ["Ana", "Ben", "Cy"]}).get_json()
    url, headers = f"{API}/games/{created['id']}", bearer(created["view_token"])
    first = client.get(url, headers=headers)
    assert client.get(url, headers=headers).data == first.data
    record(client, created, {"number": 1, "out": "Ana", "scores": {"Ben": 5, "Cy": 8}})
    second = client.get(url, headers=headers)
    assert second.headers["ETag"] != first.headers["ETag"]
    assert [line["total"] for line in second.get_json()["player_standings"]] == [0, 5, 8]
    edit = bearer(created["edit_token"]) | {"If-Match": second.headers["ETag"]}
    body = {"out": "Ana", "scores": {"Ben": 6, "Cy": 8}}
    assert client.put(f"{url}/rounds/1", json=body, headers=edit).status_code == 200
    third = client.get(url, headers=headers).get_json()
    assert [line["total"] for line in third["player_standings"]] == [0, 6, 8]
