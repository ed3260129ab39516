"""A club game made through the API (issue 34): the roster's players by name (any case) or by id
are those players, as on the club's form, so the game counts in the club's ratings and player
pages; the answer says which seats are guests; an id that is not an active roster player's, or
an id in a quick game, is refused and nothing is saved."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from clubs.helpers import add_roster, as_, make_world

from scorekeeper.extensions import db
from scorekeeper.models import Game, RosterPlayer, User
from scorekeeper.services import accounts as account_service

API = "/api/v1"


@pytest.fixture
def world(app):
    return make_world(app)


@pytest.fixture
def roster(app, world) -> dict[str, int]:
    names = ("Ana", "Ben", "Cy")
    return dict(zip(names, add_roster(app, world.club, *names), strict=True))


def bearer(app, user_id: int) -> dict[str, str]:
    with app.app_context():
        token = account_service.create_token(db.session.get(User, user_id), "script").secret
    return {"Authorization": f"Bearer {token}"}


def create(client, headers, **body: Any):
    return client.post(f"{API}/games", json=body, headers=headers)


def games_saved(app) -> int:
    with app.app_context():
        return db.session.query(Game).count()


def test_roster_players_by_name_or_id_are_rated_and_guests_are_said(app, client, world, roster):
    scorer = bearer(app, world.scorer)
    created = create(
        client,
        scorer,
        club_id=world.club,
        players=["ana", {"id": roster["Ben"]}, "Zed"],
        rounds=1,
    )
    assert created.status_code == 201, created.get_json()
    body = created.get_json()
    assert body["seats"] == [
        {"name": "Ana", "player_id": roster["Ana"], "guest": False},
        {"name": "Ben", "player_id": roster["Ben"], "guest": False},
        {"name": "Zed", "player_id": None, "guest": True},
    ]
    document = client.get(f"{API}/openapi.json").get_json()
    schema = {"$ref": "#/components/schemas/CreatedGame", "components": document["components"]}
    jsonschema.Draft202012Validator(schema).validate(body)

    round_ = {"out": "Ana", "scores": {"Ben": 12, "Zed": 30}}
    saved = client.post(f"{API}/games/{body['id']}/rounds", json=round_, headers=scorer)
    assert saved.status_code == 201, saved.get_json()

    ratings = client.get(f"{API}/clubs/{world.club}/ratings", headers=scorer).get_json()
    assert {(line["player"], line["player_id"], line["games"]) for line in ratings} == {
        ("Ana", roster["Ana"], 1),
        ("Ben", roster["Ben"], 1),
    }
    as_(client, app, world, "viewer")
    page = client.get(f"/clubs/{world.club}/players/{roster['Ana']}").text
    assert "No finished games yet" not in page


def test_the_form_and_the_api_seat_the_same_names_alike(app, client, world, roster):
    create(client, bearer(app, world.scorer), club_id=world.club, players=["ANA", " ben ", "Zed"])
    as_(client, app, world, "scorer")
    form = {"players-0": "ANA", "players-1": " ben ", "players-2": "Zed"}
    form["game_type"] = "mexican_train"
    made = client.post(f"/clubs/{world.club}/games/new", data=form)
    assert made.status_code == 302
    with app.app_context():
        games = db.session.query(Game).order_by(Game.id).all()
        seats = [[(p.name, p.roster_player_id) for p in game.players] for game in games]
    assert seats[0] == seats[1] == [("Ana", roster["Ana"]), ("Ben", roster["Ben"]), ("Zed", None)]


def test_partners_given_by_id_are_named_as_the_roster_has_them(app, client, world, roster):
    created = create(
        client,
        bearer(app, world.scorer),
        club_id=world.club,
        players=[{"id": roster["Ana"]}, {"id": roster["Ben"]}, "cy", "Dee"],
        teams=[["Ana", "cy"], ["Ben", "Dee"]],
    )
    assert created.status_code == 201, created.get_json()
    game = client.get(f"{API}/games/{created.get_json()['id']}", headers=bearer(app, world.viewer))
    assert game.get_json()["players"] == ["Ana", "Ben", "Cy", "Dee"]
    assert {line["name"] for line in game.get_json()["standings"]} == {"Ana & Cy", "Ben & Dee"}


def test_an_id_that_is_not_an_active_roster_player_is_refused(app, client, world, roster):
    with app.app_context():
        db.session.get(RosterPlayer, roster["Cy"]).archived = True
        db.session.commit()
    other = add_roster(app, world.other_club, "Oz")[0]
    scorer = bearer(app, world.scorer)
    for wrong in (roster["Cy"], other, 99999):
        refused = create(client, scorer, club_id=world.club, players=["Ana", {"id": wrong}])
        assert refused.status_code == 422, refused.get_json()
        (error,) = refused.get_json()["errors"]
        assert (error["code"], error["field"]) == ("not_on_roster", "players")
        assert str(wrong) in error["message"]
    assert games_saved(app) == 0


def test_a_quick_game_takes_names_only(app, client, world, roster):
    refused = client.post(f"{API}/games", json={"players": ["Ana", {"id": roster["Ben"]}]})
    assert refused.status_code == 422
    (error,) = refused.get_json()["errors"]
    assert (error["code"], error["field"]) == ("roster_id_without_club", "players")
    assert games_saved(app) == 0
    quick = client.post(f"{API}/games", json={"players": ["Ana", "Ben"]}).get_json()
    assert "seats" not in quick and quick["edit_token"]


def test_the_document_offers_roster_ids(client):
    schemas = client.get(f"{API}/openapi.json").get_json()["components"]["schemas"]
    items = schemas["NewGame"]["properties"]["players"]["items"]["anyOf"]
    assert {"$ref": "#/components/schemas/RosterRef"} in items
    assert schemas["RosterRef"]["properties"]["id"]["minimum"] == 1
    assert "seats" in schemas["CreatedGame"]["properties"]
