"""POST /api/v1/games/<id>/hands: each player's phone sends its own hand (the table link) and
the scorer's reads list it until the round is saved (issue 33)."""

from __future__ import annotations

import io

import pytest
from clubs.helpers import make_world  # tests/ is on the path
from werkzeug.datastructures import FileStorage, MultiDict
from werkzeug.test import encode_multipart

from scorekeeper.extensions import db
from scorekeeper.models import Club, User
from scorekeeper.services import accounts as account_service
from tests.api.conftest import API, bearer
from training.synthetic import make_photo


@pytest.fixture
def game(make_game):
    return make_game(players=["Ana", "Ben", "Cy"])


def send(client, created, body, token=None):
    token = token or created["table_token"]
    return client.post(f"{API}/games/{created['id']}/hands", json=body, headers=bearer(token))


def read(client, created, token):
    return client.get(f"{API}/games/{created['id']}", headers=bearer(token))


def test_the_create_answer_and_a_scorers_read_carry_the_table_link(client, game, conforms):
    assert game["table_token"] and game["table_url"].endswith(f"/t/{game['table_token']}")
    conforms(game, "CreatedGame")
    scorer = read(client, game, game["edit_token"])
    assert scorer.status_code == 200
    body = scorer.get_json()
    assert body["table_token"] == game["table_token"] and body["sent_hands"] == []
    conforms(body, "Game")
    # A viewer sees neither the table link nor the hands sent.
    viewer = read(client, game, game["view_token"]).get_json()
    assert "table_token" not in viewer and "sent_hands" not in viewer


def test_a_hand_sent_by_number_or_tiles_is_listed_for_the_scorer_not_counted(
    client, game, conforms
):
    by_number = send(client, game, {"round": 1, "player": "Ana", "pips": 12})
    assert by_number.status_code == 201, by_number.get_json()
    conforms(by_number.get_json(), "SentHand")
    by_tiles = send(client, game, {"round": 1, "player": "Ben", "tiles": ["3-4", "0-6"]})
    assert by_tiles.status_code == 201
    assert by_tiles.get_json()["pips"] == 13 and by_tiles.get_json()["tiles"] == ["4-3", "6-0"]
    sent = read(client, game, game["edit_token"]).get_json()
    assert [(h["player"], h["pips"], h["round"]) for h in sent["sent_hands"]] == [
        ("Ana", 12, 1),
        ("Ben", 13, 1),
    ]
    assert sent["rounds"] == [] and sent["next_round"] == 1  # nothing counts before the save
    # The edit token may send a hand too; sending again replaces the first.
    again = send(client, game, {"round": 1, "player": "Ana", "pips": 7}, game["edit_token"])
    assert again.status_code == 201
    hands = read(client, game, game["edit_token"]).get_json()["sent_hands"]
    assert [(h["player"], h["pips"]) for h in hands] == [("Ana", 7), ("Ben", 13)]


def test_a_hand_the_rules_refuse_is_422_with_the_field(client, game):
    engine = send(client, game, {"round": 1, "player": "Ana", "tiles": ["12-12"]})
    assert engine.status_code == 422
    [problem] = engine.get_json()["errors"]
    assert problem["code"] == "tile_engine" and problem["field"] == "tiles"
    assert problem["player"] == "Ana"
    assert send(client, game, {"round": 1, "player": "Ben", "tiles": ["6-5"]}).status_code == 201
    twice = send(client, game, {"round": 1, "player": "Cy", "tiles": ["5-6"]})
    assert twice.status_code == 422
    assert twice.get_json()["errors"][0]["code"] == "tile_two_hands"
    too_big = send(client, game, {"round": 1, "player": "Cy", "pips": 9999})
    assert too_big.get_json()["errors"][0]["code"] == "hand_too_big"
    unknown = send(client, game, {"round": 1, "player": "Zed", "pips": 3})
    assert unknown.status_code == 422
    both = send(client, game, {"round": 1, "player": "Cy", "pips": 3, "tiles": ["1-1"]})
    assert both.status_code == 422
    hands = read(client, game, game["edit_token"]).get_json()["sent_hands"]
    assert [h["player"] for h in hands] == ["Ben"]


def test_a_hand_for_a_round_already_saved_is_409(client, game):
    saved = client.post(
        f"{API}/games/{game['id']}/rounds",
        json={"out": "Ana", "scores": {"Ben": 5, "Cy": 6}},
        headers=bearer(game["edit_token"]),
    )
    assert saved.status_code == 201
    late = send(client, game, {"round": 1, "player": "Ben", "pips": 5})
    assert late.status_code == 409
    assert "Round 1 is already saved" in late.get_json()["error"]
    assert send(client, game, {"round": 2, "player": "Ben", "pips": 5}).status_code == 201


def test_a_view_token_may_not_send_and_the_table_token_reads_nothing(client, game):
    viewer = send(client, game, {"round": 1, "player": "Ana", "pips": 3}, game["view_token"])
    assert viewer.status_code == 403
    assert read(client, game, game["table_token"]).status_code == 403
    saving = client.post(
        f"{API}/games/{game['id']}/rounds",
        json={"out": "Ana", "scores": {"Ben": 5, "Cy": 6}},
        headers=bearer(game["table_token"]),
    )
    assert saving.status_code == 403
    no_token = client.post(f"{API}/games/{game['id']}/hands", json={"round": 1})
    assert no_token.status_code == 401
    other = client.post(f"{API}/games/999999/hands", json={}, headers=bearer(game["table_token"]))
    assert other.status_code == 404


def test_sending_a_hand_leaves_the_games_version_alone(client, game):
    before = read(client, game, game["view_token"]).headers["ETag"]
    send(client, game, {"round": 1, "player": "Ana", "pips": 3})
    after = read(client, game, game["view_token"])
    assert after.headers["ETag"] == before
    # So a save pinned to the version read before the hand came still goes through.
    saved = client.post(
        f"{API}/games/{game['id']}/rounds",
        json={"out": "Ana", "scores": {"Ben": 5, "Cy": 6}},
        headers={**bearer(game["edit_token"]), "If-Match": before},
    )
    assert saved.status_code == 201


def test_the_photo_endpoint_takes_the_table_token(client, game):
    photo = make_photo(3, tiles=[(6, 4), (12, 0), (3, 3), (9, 11)], arrangement="scattered",
                       set_max="12", face="white", pips="black", table="dark wood")  # fmt: skip
    fields = MultiDict()
    fields.add("photo", FileStorage(io.BytesIO(photo.jpeg), "hand.jpg", content_type="image/jpeg"))
    boundary, body = encode_multipart(fields)
    read_photo = client.post(
        f"{API}/games/{game['id']}/photos",
        data=body,
        headers=bearer(game["table_token"]),
        content_type=f"multipart/form-data; boundary={boundary}",
    )
    assert read_photo.status_code == 200 and read_photo.get_json()["total"] == 48


def test_club_games_have_table_links_until_the_club_turns_them_off(app, client):
    world = make_world(app)
    with app.app_context():
        scorer, viewer = (
            account_service.create_token(db.session.get(User, user), "hands").secret
            for user in (world.scorer, world.viewer)
        )
    created = client.post(
        f"{API}/games",
        json={"club_id": world.club, "players": ["Ana", "Ben"]},
        headers=bearer(scorer),
    ).get_json()
    assert created["edit_token"] is None and created["table_token"]
    assert send(client, created, {"round": 1, "player": "Ben", "pips": 4}).status_code == 201
    as_scorer = read(client, created, scorer).get_json()
    assert as_scorer["table_url"] == created["table_url"]
    assert [h["player"] for h in as_scorer["sent_hands"]] == ["Ben"]
    assert "sent_hands" not in read(client, created, viewer).get_json()
    with app.app_context():
        db.session.get(Club, world.club).table_links = False
        db.session.commit()
    off = send(client, created, {"round": 1, "player": "Ben", "pips": 4})
    assert off.status_code == 403
    assert "table_token" not in read(client, created, scorer).get_json()
    assert client.get(created["table_url"]).status_code == 404
