"""POST/PUT/DELETE /api/v1/games/<id>/rounds: recording, correcting, undoing, and races."""

from __future__ import annotations

import pytest
from sqlalchemy import update

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.services import games as game_service
from tests.helpers import game_etag, load_game

API = "/api/v1"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def game(make_game):
    return make_game(
        players=["Ana", "Ben", "Cy"],
        house_rules={"open_train_points": 10, "strategic_error": True, "adjustments": True},
    )


def rounds_url(created, number=None):
    url = f"{API}/games/{created['id']}/rounds"
    return url if number is None else f"{url}/{number}"


def post(client, created, body, **headers):
    return client.post(
        rounds_url(created), json=body, headers={**bearer(created["edit_token"]), **headers}
    )


def put(client, created, number, body, **headers):
    return client.put(
        rounds_url(created, number),
        json=body,
        headers={**bearer(created["edit_token"]), **headers},
    )


def stored(app, created):
    """The game's rounds and version as the services see them."""
    with app.app_context():
        found = load_game(created["id"])
        return [r.scores for r in game_service.snapshot_of(found).results], found.version


def test_record_round_answers_201_with_the_round_and_headers(client, app, game, conforms):
    response = post(client, game, {"out": "Ana", "scores": {"Ben": 15, "Cy": 0}})
    assert response.status_code == 201
    assert response.headers["Location"] == f"http://localhost{rounds_url(game, 1)}"
    assert response.headers["ETag"] == game_etag(game, 2)
    body = response.get_json()
    conforms(body, "Round")
    assert (body["number"], body["engine"], body["out"], body["blocked"]) == (1, 12, "Ana", False)
    assert [(h["player"], h["pips"], h["score"], h["went_out"]) for h in body["hands"]] == [
        ("Ana", 0, 0, True),
        ("Ben", 15, 15, False),
        ("Cy", 0, 0, False),
    ]
    assert stored(app, game) == ([{"Ana": 0, "Ben": 15, "Cy": 0}], 2)
    again = client.get(rounds_url(game, 1), headers=bearer(game["view_token"]))
    assert again.get_json() == body


def test_scores_and_penalties_match_check_round(client, app, game):
    body = {
        "out": "Cy",
        "scores": {"Ana": 12},
        "hands": {"Ben": ["11-10", "5-0"]},
        "penalties": [
            {"player": "Ana", "kind": "strategic_error"},
            {"player": "Ben", "kind": "open_train", "reason": "left open"},
            {"player": "Cy", "kind": "adjustment", "points": -5, "reason": "misdeal"},
        ],
    }
    response = post(client, game, body)
    assert response.status_code == 201, response.get_json()
    with app.app_context():
        setup = game_service.snapshot_of(load_game(game["id"])).setup
    check = core.check_round(
        setup,
        1,
        core.RoundEntry(
            {"Ana": core.HandEntry(pips=12), "Ben": core.HandEntry(tiles=["11-10", "5-0"])},
            out="Cy",
            penalties=[
                core.PenaltyEntry("Ana", "strategic_error"),
                core.PenaltyEntry("Ben", "open_train", reason="left open"),
                core.PenaltyEntry("Cy", "adjustment", -5, "misdeal"),
            ],
        ),
    )
    assert check.result is not None
    answer = response.get_json()
    assert {h["player"]: h["score"] for h in answer["hands"]} == check.result.scores
    # Ana: 12 + the round's highest hand (Ben's 26); Ben: 26 + 10 open train; Cy: out, -5.
    assert check.result.scores == {"Ana": 38, "Ben": 36, "Cy": -5}
    assert answer["hands"][1]["tiles"] == ["11-10", "5-0"]
    assert answer["penalties"] == [
        {"player": "Ana", "kind": "strategic_error", "points": 26, "reason": ""},
        {"player": "Ben", "kind": "open_train", "points": 10, "reason": "left open"},
        {"player": "Cy", "kind": "adjustment", "points": -5, "reason": "misdeal"},
    ]
    assert stored(app, game)[0] == [check.result.scores]


def test_hard_errors_are_422_with_the_cores_problems_and_nothing_saved(client, app, game):
    # Well-formed (whole pips, known fields) but not a round: nobody out, Cy missing, Ana's
    # hand worth more than the set. The core's problems come back as they are, with their codes.
    body = {"out": None, "blocked": False, "scores": {"Ana": 100_000, "Ben": 3}}
    response = post(client, game, body)
    assert response.status_code == 422
    with app.app_context():
        setup = game_service.snapshot_of(load_game(game["id"])).setup
    check = core.check_round(
        setup,
        1,
        core.RoundEntry({"Ana": core.HandEntry(pips=100_000), "Ben": core.HandEntry(pips=3)}),
    )
    assert len(check.errors) >= 3
    assert response.get_json() == {
        "errors": [
            {"player": p.player, "field": p.field, "message": p.message, "code": p.code}
            for p in check.errors
        ]
    }
    assert "ETag" not in response.headers
    assert stored(app, game) == ([], 1)


def test_tile_errors_name_the_player(client, game):
    response = post(client, game, {"out": "Ana", "hands": {"Ben": ["6-4", "6-4"], "Cy": ["x"]}})
    errors = response.get_json()["errors"]
    assert [(e["player"], e["field"]) for e in errors] == [("Ben", "tiles"), ("Cy", "tiles")]
    assert errors[0]["message"] == "Ben: 6-4 is entered twice (there is only one)."


def test_unconfirmed_warnings_are_422_without_errors_then_confirm_saves(client, app, game):
    body = {"out": "Ana", "scores": {"Ben": 300, "Cy": 4}}
    response = post(client, game, body)
    assert response.status_code == 422
    answer = response.get_json()
    assert set(answer) == {"warnings"}
    assert [(w["player"], w["field"]) for w in answer["warnings"]] == [("Ben", "pips")]
    assert "Ben: 300 is more than the" in answer["warnings"][0]["message"]
    assert stored(app, game) == ([], 1)
    confirmed = post(client, game, {**body, "confirm": True})
    assert confirmed.status_code == 201
    assert stored(app, game) == ([{"Ana": 0, "Ben": 300, "Cy": 4}], 2)


def test_penalty_for_a_house_rule_the_game_does_not_use(client, make_game):
    created = make_game()
    body = {
        "out": "Ana",
        "scores": {"Ben": 1, "Cy": 2},
        "penalties": [{"player": "Ben", "kind": "open_train"}],
    }
    response = post(client, created, body)
    assert response.status_code == 422
    assert response.get_json()["errors"] == [
        {
            "player": "Ben",
            "field": "penalty",
            "message": "Ben: this game does not use the open-train house rule.",
            "code": "penalty_off",
        }
    ]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"out": 3, "scores": {}}, "out"),
        ({"out": ["Ana"], "scores": {}}, "out"),
        ({"out": "Ana", "blocked": "no"}, "blocked"),
        ({"out": "Ana", "confirm": 1}, "confirm"),
        ({"out": "Ana", "scores": [15, 3]}, "scores"),
        ({"out": "Ana", "hands": {"Ben": "6-4"}}, "tiles"),
        ({"out": "Ana", "hands": ["6-4"]}, "hands"),
        ({"out": "Ana", "penalties": {"player": "Ben"}}, "penalties"),
        ({"out": "Ana", "penalties": ["Ben"]}, "penalty"),
        ({"out": "Ana", "penalties": [{"player": 1, "kind": "open_train"}]}, "penalty"),
        ({"out": "Ana", "penalties": [{"kind": "open_train"}]}, "penalty"),
        ({"out": "Ana", "penalties": [{"player": "Ben", "kind": "x", "who": 1}]}, "penalties.who"),
        ({"out": "Ana", "number": "1"}, "number"),
        ({"out": "Ana", "winner": "Ana"}, "winner"),
    ],
)
def test_wrong_types_are_422(client, app, game, body, field):
    response = post(client, game, body)
    assert response.status_code == 422
    errors = response.get_json()["errors"]
    assert field in [e["field"] for e in errors]
    assert stored(app, game) == ([], 1)


@pytest.mark.parametrize("points", [{"a": 1}, [5], 10**40, 1e300, "5.5", True], ids=repr)
def test_odd_penalty_points_are_the_cores_to_refuse(client, game, points):
    penalty = {"player": "Ben", "kind": "adjustment", "points": points, "reason": "why"}
    response = post(
        client, game, {"out": "Ana", "scores": {"Ben": 1, "Cy": 2}, "penalties": [penalty]}
    )
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["player"] == "Ben"


@pytest.mark.parametrize("pips", [{"a": 1}, [5], 10**40, 1e300, "x" * 5000, True, -1], ids=repr)
def test_odd_pips_are_the_cores_to_refuse(client, game, pips):
    response = post(client, game, {"out": "Ana", "scores": {"Ben": pips, "Cy": 2}})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["player"] == "Ben"


def test_a_hand_of_many_tiles_fits_the_history(client, app, make_game):
    created = make_game(set=18)
    tiles = [f"{high}-{low}" for high in range(14) for low in range(high + 1)]  # 105 tiles
    body = {"out": "Ana", "hands": {"Ben": tiles}, "scores": {"Cy": 3}, "confirm": True}
    response = post(client, created, body)
    assert response.status_code == 201, response.get_json()
    assert len(response.get_json()["hands"][1]["tiles"]) == 105
    with app.app_context():
        history = game_service.history_of(load_game(created["id"]))
        ben = next(change for change in history if change.player == "Ben")
        assert ben.new_value.startswith("1365 (0-0 1-0 1-1")
        assert len(ben.new_value) <= 400  # the column's size on PostgreSQL


def test_edit_round(client, app, game, conforms):
    post(client, game, {"out": "Ana", "scores": {"Ben": 15, "Cy": 3}})
    response = put(client, game, 1, {"out": "Ben", "scores": {"Ana": 8, "Cy": 3}})
    assert response.status_code == 200
    assert response.headers["ETag"] == game_etag(game, 3)
    conforms(response.get_json(), "Round")
    assert response.get_json()["out"] == "Ben"
    assert stored(app, game) == ([{"Ana": 8, "Ben": 0, "Cy": 3}], 3)
    with app.app_context():
        history = game_service.history_of(load_game(game["id"]))
        assert {(c.action, c.player, c.device) for c in history if c.action == "edited"} == {
            ("edited", "Ana", "api"),
            ("edited", "Ben", "api"),
        }


def test_a_correction_answers_with_the_late_arrivals_hand_it_scored_again(client, app, game):
    """Dee joined after round 1 (highest rule): correcting round 1 changes her missed round
    too, and the answer says so, as a GET of the round does."""
    post(client, game, {"out": "Ana", "scores": {"Ben": 15, "Cy": 3}})
    with app.app_context():
        game_service.join_late(load_game(game["id"]), "Dee", core.LateRule.HIGHEST)
    response = put(client, game, 1, {"out": "Ana", "scores": {"Ben": 20, "Cy": 3}})
    assert response.status_code == 200
    hands = {hand["player"]: hand["score"] for hand in response.get_json()["hands"]}
    assert hands == {"Ana": 0, "Ben": 20, "Cy": 3, "Dee": 20}
    fetched = client.get(rounds_url(game, 1), headers=bearer(game["edit_token"])).get_json()
    assert fetched["hands"] == response.get_json()["hands"]


def test_edit_round_refused_and_unknown(client, app, game):
    post(client, game, {"out": "Ana", "scores": {"Ben": 15, "Cy": 3}})
    refused = put(client, game, 1, {"scores": {"Ana": 8, "Cy": 3}})
    assert refused.status_code == 422
    assert refused.get_json()["errors"][0]["field"] == "out"
    assert stored(app, game) == ([{"Ana": 0, "Ben": 15, "Cy": 3}], 2)
    missing = put(client, game, 2, {"out": "Ben", "scores": {"Ana": 8, "Cy": 3}})
    assert missing.status_code == 404
    assert missing.get_json() == {"error": "Round 2 is not recorded."}
    mismatch = put(client, game, 1, {"number": 2, "out": "Ben", "scores": {"Ana": 8, "Cy": 3}})
    assert mismatch.status_code == 422
    assert mismatch.get_json()["errors"][0]["field"] == "number"


def test_delete_only_the_last_round(client, app, game, conforms):
    post(client, game, {"out": "Ana", "scores": {"Ben": 15, "Cy": 3}})
    post(client, game, {"out": "Ben", "scores": {"Ana": 5, "Cy": 3}})
    headers = bearer(game["edit_token"])
    first = client.delete(rounds_url(game, 1), headers=headers)
    assert first.status_code == 409
    assert first.get_json() == {"error": "Only the last round (round 2) can be deleted."}
    assert client.delete(rounds_url(game, 3), headers=headers).status_code == 404
    response = client.delete(rounds_url(game, 2), headers=headers)
    assert response.status_code == 200
    assert response.headers["ETag"] == game_etag(game, 4)
    body = response.get_json()
    conforms(body, "Game")
    assert [r["number"] for r in body["rounds"]] == [1]
    assert body["next_round"] == 2
    assert stored(app, game) == ([{"Ana": 0, "Ben": 15, "Cy": 3}], 4)
    assert client.delete(rounds_url(game, 1), headers=headers).status_code == 200
    assert client.delete(rounds_url(game, 1), headers=headers).status_code == 404


def test_game_over_is_409(client, make_game):
    created = make_game(rounds=1)
    assert post(client, created, {"out": "Ana", "scores": {"Ben": 1, "Cy": 2}}).status_code == 201
    response = post(client, created, {"out": "Ana", "scores": {"Ben": 1, "Cy": 2}})
    assert response.status_code == 409
    assert response.get_json() == {"error": "This game is over: no more rounds can be recorded."}


# ETags, If-Match and two clients saving at once -------------------------------------------


def test_if_match_with_the_current_etag_saves(client, game):
    etag = client.get(f"{API}/games/{game['id']}", headers=bearer(game["view_token"])).headers[
        "ETag"
    ]
    response = post(
        client, game, {"out": "Ana", "scores": {"Ben": 1, "Cy": 2}}, **{"If-Match": etag}
    )
    assert response.status_code == 201
    star = post(client, game, {"out": "Ana", "scores": {"Ben": 1, "Cy": 2}}, **{"If-Match": "*"})
    assert star.status_code == 201


@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_stale_if_match_is_412_with_the_current_game(client, app, game, conforms, method):
    post(client, game, {"out": "Ana", "scores": {"Ben": 15, "Cy": 3}})
    stale = game_etag(game, 1)
    headers = {**bearer(game["edit_token"]), "If-Match": stale}
    body = {"out": "Ben", "scores": {"Ana": 1, "Cy": 1}}
    if method == "post":
        response = client.post(rounds_url(game), json=body, headers=headers)
    elif method == "put":
        response = client.put(rounds_url(game, 1), json=body, headers=headers)
    else:
        response = client.delete(rounds_url(game, 1), headers=headers)
    assert response.status_code == 412
    assert response.headers["ETag"] == game_etag(game, 2)
    answer = response.get_json()
    conforms(answer, "Stale")
    assert answer["error"] == "The game changed since you read it: nothing was saved."
    assert answer["game"]["rounds"][0]["scores"] == {"Ana": 0, "Ben": 15, "Cy": 3}
    assert stored(app, game) == ([{"Ana": 0, "Ben": 15, "Cy": 3}], 2)


@pytest.mark.parametrize("if_match", [True, False])
def test_a_stale_answer_is_revalidated_like_the_game_it_carries(client, game, if_match):
    """The game as it is now (412 with If-Match, 409 without) carries the game's ETag and the
    same Cache-Control as a read of the game: a client or a proxy keeps neither unchecked."""
    url = f"{API}/games/{game['id']}"
    post(client, game, {"out": "Ana", "scores": {"Ben": 15, "Cy": 3}})
    read = client.get(url, headers=bearer(game["view_token"]))
    # Another client saved round 2 meanwhile: this one's round 2 is stale.
    post(client, game, {"out": "Ben", "scores": {"Ana": 4, "Cy": 4}, "number": 2})
    pinned = {"If-Match": read.headers["ETag"]} if if_match else {}
    body = {"out": "Cy", "scores": {"Ana": 1, "Ben": 1}, "number": 2}
    response = post(client, game, body, **pinned)
    assert response.status_code == (412 if if_match else 409)
    now = client.get(url, headers=bearer(game["view_token"]))
    assert response.headers["ETag"] == now.headers["ETag"]
    assert response.headers["ETag"].startswith(f'"g{game["id"]}v3-')
    assert response.headers["Cache-Control"] == now.headers["Cache-Control"]
    assert response.headers["Cache-Control"] == "private, no-cache"


def test_two_clients_record_the_same_round_with_if_match(client, app, game):
    url = f"{API}/games/{game['id']}"
    etag_a = client.get(url, headers=bearer(game["edit_token"])).headers["ETag"]
    etag_b = client.get(url, headers=bearer(game["edit_token"])).headers["ETag"]
    first = post(
        client, game, {"out": "Ana", "scores": {"Ben": 15, "Cy": 3}}, **{"If-Match": etag_a}
    )
    second = post(
        client, game, {"out": "Cy", "scores": {"Ana": 9, "Ben": 9}}, **{"If-Match": etag_b}
    )
    assert first.status_code == 201
    assert second.status_code == 412
    assert second.get_json()["game"]["rounds"][0]["scores"] == {"Ana": 0, "Ben": 15, "Cy": 3}
    assert second.headers["ETag"] == first.headers["ETag"]
    assert stored(app, game) == ([{"Ana": 0, "Ben": 15, "Cy": 3}], 2)


def test_two_clients_record_the_same_round_by_number(client, app, game):
    first = post(client, game, {"number": 1, "out": "Ana", "scores": {"Ben": 15, "Cy": 3}})
    second = post(client, game, {"number": 1, "out": "Cy", "scores": {"Ana": 9, "Ben": 9}})
    assert first.status_code == 201
    assert second.status_code == 409
    answer = second.get_json()
    assert answer["game"]["rounds"][0]["scores"] == {"Ana": 0, "Ben": 15, "Cy": 3}
    assert second.headers["ETag"] == first.headers["ETag"]
    assert stored(app, game) == ([{"Ana": 0, "Ben": 15, "Cy": 3}], 2)


def test_two_clients_correct_the_same_round(client, app, game):
    post(client, game, {"out": "Ana", "scores": {"Ben": 15, "Cy": 3}})
    etag = client.get(f"{API}/games/{game['id']}", headers=bearer(game["edit_token"])).headers[
        "ETag"
    ]
    first = put(
        client, game, 1, {"out": "Ana", "scores": {"Ben": 16, "Cy": 3}}, **{"If-Match": etag}
    )
    second = put(
        client, game, 1, {"out": "Ana", "scores": {"Ben": 51, "Cy": 3}}, **{"If-Match": etag}
    )
    assert (first.status_code, second.status_code) == (200, 412)
    assert second.get_json()["game"]["rounds"][0]["scores"]["Ben"] == 16
    assert stored(app, game) == ([{"Ana": 0, "Ben": 16, "Cy": 3}], 3)


def test_a_save_that_loses_the_race_inside_the_service_saves_nothing(app, game):
    """Another phone commits between the If-Match check and the save (possible on PostgreSQL;
    on SQLite a writing request holds the write lock from its first statement): the save is
    pinned to the version it read, finds the game moved on, and saves nothing."""
    entry = core.RoundEntry({"Ben": core.HandEntry(pips=1), "Cy": core.HandEntry(pips=2)}, "Ana")
    with app.app_context():
        found = game_service.game_row(game["id"])
        game_service.snapshot_of(found)  # this request has read version 1...
        with db.engine.begin() as other_phone:  # ...and another phone commits version 2
            other_phone.execute(
                update(Game.__table__).where(Game.id == found.id).values(version=Game.version + 1)
            )
        with pytest.raises(game_service.StaleGame):
            game_service.record_round(found, entry, expected_version=1)
    assert stored(app, game) == ([], 2)
