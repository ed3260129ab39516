"""GET /api/v1/clubs/{club_id}/ratings: a member's personal token, the issue's exact fields,
mu and sigma as openskill gives them, and the answer as the OpenAPI document describes it."""

from __future__ import annotations

import jsonschema
import pytest
from players.helpers import club_of, make_league  # tests/ is on the path

from scorekeeper.extensions import db
from scorekeeper.models import User
from scorekeeper.services import accounts as account_service
from scorekeeper.services import ratings as rating_service

from .test_ratings_service import LEAGUE, openskill_direct


@pytest.fixture
def league(app):
    return make_league(app)


def token_of(app, user_id: int) -> str:
    with app.app_context():
        return account_service.create_token(db.session.get(User, user_id), "ratings").secret


def url(club_id: int) -> str:
    return f"/api/v1/clubs/{club_id}/ratings"


def test_a_member_reads_the_ratings(app, client, league):
    token = token_of(app, league.world.viewer)
    response = client.get(url(league.club), headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200
    body = response.get_json()
    direct = openskill_direct(LEAGUE)
    assert [set(line) for line in body] == [
        {"player", "player_id", "mu", "sigma", "rating", "games", "provisional"}
    ] * 4
    assert {line["player"]: (line["mu"], line["sigma"]) for line in body} == direct
    with app.app_context():
        lines = rating_service.club_ratings(club_of(league.club))
    assert body == [
        {
            "player": line.name,
            "player_id": line.entry_id,
            "mu": line.mu,
            "sigma": line.sigma,
            "rating": line.rating,
            "games": line.games,
            "provisional": line.provisional,
        }
        for line in lines
    ]
    assert body[0]["player"] == "Ana" and body[0]["player_id"] == league.ana
    assert body[0]["games"] == 5 and body[0]["provisional"] is False
    components = client.get("/api/v1/openapi.json").get_json()["components"]
    schema = {"$ref": "#/components/schemas/Ratings", "components": components}
    jsonschema.Draft202012Validator(schema).validate(body)


def test_the_document_describes_the_route(client):
    document = client.get("/api/v1/openapi.json").get_json()
    operation = document["paths"]["/clubs/{club_id}/ratings"]["get"]
    assert set(operation["responses"]) == {"200", "304", "401", "403", "404", "503"}
    rating = document["components"]["schemas"]["Rating"]
    assert set(rating["required"]) == {
        "player",
        "player_id",
        "mu",
        "sigma",
        "rating",
        "games",
        "provisional",
    }


@pytest.mark.parametrize(
    ("who", "status"),
    [("owner", 200), ("scorer", 200), ("viewer", 200), ("other_owner", 404)],
)
def test_only_members(app, client, league, who, status):
    user_id = league.world.user(who)
    token = token_of(app, user_id)
    response = client.get(url(league.club), headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == status
    if status != 200:
        assert "error" in response.get_json()


def test_no_token_a_game_token_a_missing_club(app, client, league):
    assert client.get(url(league.club)).status_code == 401
    game = client.post("/api/v1/games", json={"players": ["A", "B"]}).get_json()
    headers = {"Authorization": f"Bearer {game['edit_token']}"}
    assert client.get(url(league.club), headers=headers).status_code == 403
    token = token_of(app, league.world.viewer)
    headers = {"Authorization": f"Bearer {token}"}
    assert client.get(url(999999), headers=headers).status_code == 404
