"""The API for a player who leaves and comes back (RULES.md section 11), the draw game's first
opener (section 9), house rules refused with a draw game, and the set warning (section 7)."""

from __future__ import annotations

from tests.api.conftest import API, bearer


def _round(client, created, body):
    response = client.post(
        f"{API}/games/{created['id']}/rounds", json=body, headers=bearer(created["edit_token"])
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def _seat(client, created, action, player, **headers):
    return client.post(
        f"{API}/games/{created['id']}/{action}",
        json={"player": player},
        headers={**bearer(created["edit_token"]), **headers},
    )


def test_example_11_1_through_the_api(client, make_game, conforms):
    created = make_game(rounds=3)
    _round(client, created, {"out": "Ana", "scores": {"Ben": 20, "Cy": 15}})
    response = _seat(client, created, "leave", "Cy")
    assert response.status_code == 200
    conforms(response.get_json(), "Game")
    assert response.headers["ETag"]
    line = {s["name"]: s for s in response.get_json()["standings"]}["Cy"]
    assert line["left_after"] == 1
    second = _round(client, created, {"out": "Ana", "scores": {"Ben": 12}})
    conforms(second, "Round")
    assert {h["player"]: (h["score"], h.get("away", False)) for h in second["hands"]} == {
        "Ana": (0, False),
        "Ben": (12, False),
        "Cy": (12, True),
    }
    _round(client, created, {"out": "Ben", "scores": {"Ana": 30}})
    game = client.get(f"{API}/games/{created['id']}", headers=bearer(created["view_token"]))
    body = game.get_json()
    assert [(s["name"], s["total"], s["place"], s["zero_rounds"]) for s in body["standings"]] == [
        ("Ana", 30, 1, 2),
        ("Ben", 32, 2, 1),
        ("Cy", 57, 3, 0),
    ]
    assert "left_after" not in body["standings"][0]


def test_leaving_and_coming_back_is_refused_with_the_rules_reason(client, make_game):
    created = make_game()
    response = _seat(client, created, "leave", "Cy")
    assert response.status_code == 422
    assert [(p["code"], p["field"]) for p in response.get_json()["errors"]] == [
        ("leave_before_start", "player")
    ]
    _round(client, created, {"out": "Ana", "scores": {"Ben": 20, "Cy": 15}})
    response = _seat(client, created, "back", "Cy")
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["code"] == "back_not_left"
    assert _seat(client, created, "leave", "Cy", **{"If-Match": '"g1v1"'}).status_code == 412
    assert _seat(client, created, "leave", "Cy").status_code == 200
    assert _seat(client, created, "back", "Cy").status_code == 200


def test_with_one_player_left_the_game_can_only_be_ended(client, make_game):
    created = make_game()
    _round(client, created, {"out": "Ana", "scores": {"Ben": 20, "Cy": 15}})
    _seat(client, created, "leave", "Cy")
    body = _seat(client, created, "leave", "Ben").get_json()
    assert body["can_play"] is False
    response = client.post(
        f"{API}/games/{created['id']}/rounds",
        json={"out": "Ana"},
        headers=bearer(created["edit_token"]),
    )
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["code"] == "only_one_left"


def test_the_draw_games_first_hand_has_no_opener_to_name(client, make_game):
    created = make_game(game_type="draw")
    body = client.get(f"{API}/games/{created['id']}", headers=bearer(created["view_token"]))
    assert body.get_json()["next_opener"] is None
    _round(client, created, {"out": "Ana", "scores": {"Ben": 20, "Cy": 15}})
    body = client.get(f"{API}/games/{created['id']}", headers=bearer(created["view_token"]))
    assert body.get_json()["next_opener"] == "Ben"


def test_house_rules_with_a_draw_game_are_refused_not_dropped(client):
    response = client.post(
        f"{API}/games",
        json={"players": ["Ana", "Ben"], "game_type": "draw", "house_rules": {"adjustments": True}},
    )
    assert response.status_code == 422
    assert [(p["code"], p["field"]) for p in response.get_json()["errors"]] == [
        ("house_rules_draw", "house_rules")
    ]


def test_a_set_too_small_for_the_table_is_saved_with_a_warning(client, make_game, conforms):
    players = [f"P{n}" for n in range(14)]
    created = make_game(players=players, set=6)
    conforms(created, "CreatedGame")
    assert [(w["code"], w["field"]) for w in created["warnings"]] == [("set_too_small", "set")]
    assert "double-18" in created["warnings"][0]["message"]
    assert "warnings" not in make_game()
