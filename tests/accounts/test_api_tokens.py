"""Personal API tokens on the JSON API: club games by club role, quick games by game token."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from scorekeeper.api.contract import document
from scorekeeper.extensions import db
from scorekeeper.models import ApiToken, Club, Game, Membership, User, utcnow
from scorekeeper.services import accounts as account_service
from tests.helpers import load_game

API = "/api/v1"
ROUND = {"out": "Ana", "scores": {"Ben": 15, "Cy": 3}}

# (method, path template, body, is a write)
ROUTES = [
    ("get", "/games/{id}", None, False),
    ("get", "/games/{id}/rounds/1", None, False),
    ("post", "/games/{id}/rounds", ROUND, True),
    ("put", "/games/{id}/rounds/1", ROUND, True),
    ("delete", "/games/{id}/rounds/1", None, True),
]
IDS = [f"{method} {path}" for method, path, _, _ in ROUTES]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def call(client, method, path, body, game_id, token):
    url = API + path.format(id=game_id)
    return getattr(client, method)(url, json=body, headers=bearer(token))


def make_token(app, user_id: int, name: str = "script") -> str:
    with app.app_context():
        user = db.session.get(User, user_id)
        return account_service.create_token(user, name).secret


@pytest.fixture
def club(app, user_factory):
    """A club with an owner, a scorer and a viewer, another club's owner, and a token each."""
    people = {
        role: user_factory(name=role.title()) for role in ("owner", "scorer", "viewer", "outsider")
    }
    with app.app_context():
        tuesday, other = Club(name="Tuesday"), Club(name="Other club")
        db.session.add_all([tuesday, other])
        db.session.flush()
        for role in ("owner", "scorer", "viewer"):
            db.session.add(Membership(club_id=tuesday.id, user_id=people[role].id, role=role))
        db.session.add(Membership(club_id=other.id, user_id=people["outsider"].id, role="owner"))
        db.session.commit()
        club_id, other_id = tuesday.id, other.id
    tokens = {role: make_token(app, account.id) for role, account in people.items()}
    return {"id": club_id, "other_id": other_id, "people": people, "tokens": tokens}


@pytest.fixture
def club_game(app, client, club):
    """A game of the club (made through the API by its owner) with one round recorded."""
    response = client.post(
        f"{API}/games",
        json={"club_id": club["id"], "players": ["Ana", "Ben", "Cy"]},
        headers=bearer(club["tokens"]["owner"]),
    )
    assert response.status_code == 201, response.get_json()
    game_id = response.get_json()["id"]
    recorded = client.post(
        f"{API}/games/{game_id}/rounds", json=ROUND, headers=bearer(club["tokens"]["scorer"])
    )
    assert recorded.status_code == 201, recorded.get_json()
    with app.app_context():
        game = db.session.get(Game, game_id)
        edit_token, view_token = game.edit_token, game.view_token
    return {"id": game_id, "edit_token": edit_token, "view_token": view_token}


def version_of(app, game_id: int) -> int:
    with app.app_context():
        return db.session.get(Game, game_id).version


# Club games: the account's role decides ------------------------------------------------------


@pytest.mark.parametrize(("method", "path", "body", "write"), ROUTES, ids=IDS)
def test_club_game_matrix(app, client, club, club_game, method, path, body, write):
    ok = 201 if method == "post" else 200
    cases = {
        "viewer": (club["tokens"]["viewer"], 403 if write else 200),
        "another club's owner": (club["tokens"]["outsider"], 403),
        "the game's edit token": (club_game["edit_token"], 403),
        "the game's view token": (club_game["view_token"], 403),
        "scorer": (club["tokens"]["scorer"], ok),
    }
    for case, (token, status) in cases.items():
        response = call(client, method, path, body, club_game["id"], token)
        assert response.status_code == status, (case, response.get_json())
        assert response.is_json, case
    # Only the scorer's write (the last case) went through.
    assert version_of(app, club_game["id"]) == (3 if write else 2)


@pytest.mark.parametrize(("method", "path", "body", "write"), ROUTES, ids=IDS)
def test_club_owner_may_do_everything(client, club, club_game, method, path, body, write):
    response = call(client, method, path, body, club_game["id"], club["tokens"]["owner"])
    assert response.status_code == (201 if method == "post" else 200), response.get_json()


def test_forbidden_answers_say_why(client, club, club_game):
    url = f"{API}/games/{club_game['id']}"
    messages = {
        club_game["edit_token"]: "This is a club game: use a club member's personal API token.",
        club["tokens"]["outsider"]: "Only the club's members can open this game.",
    }
    for token, message in messages.items():
        assert client.get(url, headers=bearer(token)).get_json() == {"error": message}
    viewer = client.post(f"{url}/rounds", json=ROUND, headers=bearer(club["tokens"]["viewer"]))
    assert viewer.get_json() == {"error": "Recording scores needs a scorer or owner of the club."}


def test_a_member_who_leaves_loses_access(app, client, club, club_game):
    with app.app_context():
        membership = db.session.execute(
            select(Membership).where(Membership.user_id == club["people"]["viewer"].id)
        ).scalar_one()
        db.session.delete(membership)
        db.session.commit()
    response = client.get(
        f"{API}/games/{club_game['id']}", headers=bearer(club["tokens"]["viewer"])
    )
    assert response.status_code == 403


# Dead tokens ------------------------------------------------------------------------------------


def test_revoked_token_is_401_invalid_token(app, client, club, club_game):
    owner = club["people"]["owner"]
    with app.app_context():
        user = db.session.get(User, owner.id)
        token_id = db.session.execute(
            select(ApiToken.id).where(ApiToken.user_id == owner.id)
        ).scalar_one()
        account_service.revoke_token(user, token_id)
    response = client.get(f"{API}/games/{club_game['id']}", headers=bearer(club["tokens"]["owner"]))
    assert response.status_code == 401
    assert response.get_json() == {"error": "This personal API token is unknown or was revoked."}
    assert 'error="invalid_token"' in response.headers["WWW-Authenticate"]


def test_unknown_personal_token_is_401(client, club_game):
    unknown = "sk_" + "A" * 43
    response = client.get(f"{API}/games/{club_game['id']}", headers=bearer(unknown))
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"].startswith("Bearer")


# Quick games keep their own tokens -------------------------------------------------------------


@pytest.mark.parametrize(("method", "path", "body", "write"), ROUTES, ids=IDS)
def test_personal_token_does_not_open_a_quick_game(app, client, club, method, path, body, write):
    created = client.post(f"{API}/games", json={"players": ["Ana", "Ben", "Cy"]}).get_json()
    client.post(
        f"{API}/games/{created['id']}/rounds", json=ROUND, headers=bearer(created["edit_token"])
    )
    response = call(client, method, path, body, created["id"], club["tokens"]["owner"])
    assert response.status_code == 403
    assert response.get_json() == {
        "error": "A personal API token opens club games only: use this game's token."
    }
    # ...while the game's own token still works as before.
    response = call(client, method, path, body, created["id"], created["edit_token"])
    assert response.status_code == (201 if method == "post" else 200)


# Creating club games -----------------------------------------------------------------------------


def test_scorer_creates_a_club_game_with_guest_players(app, client, club):
    response = client.post(
        f"{API}/games",
        json={"club_id": club["id"], "players": ["Ana", "Ben", "Cy"]},
        headers=bearer(club["tokens"]["scorer"]),
    )
    assert response.status_code == 201
    body = response.get_json()
    schema = document(app)["components"]["schemas"]["CreatedGame"]
    assert set(schema["required"]) <= set(body) <= set(schema["properties"])
    assert body["club_id"] == club["id"]
    assert body["edit_token"] is None and body["view_token"] is None
    assert body["edit_url"] is None and body["view_url"] is None
    assert response.headers["Location"] == f"http://localhost{API}/games/{body['id']}"
    with app.app_context():
        game = load_game(body["id"])
        assert game.club_id == club["id"]
        assert [p.name for p in game.players] == ["Ana", "Ben", "Cy"]
        assert all(p.roster_player_id is None for p in game.players)  # guests


@pytest.mark.parametrize("who", ["viewer", "outsider"])
def test_only_scorers_and_owners_create_club_games(app, client, club, who):
    response = client.post(
        f"{API}/games",
        json={"club_id": club["id"], "players": ["Ana", "Ben"]},
        headers=bearer(club["tokens"][who]),
    )
    assert response.status_code == 403
    assert response.get_json() == {
        "error": "Only the club's scorers and owners can create its games."
    }
    with app.app_context():
        assert db.session.execute(select(Game.id)).first() is None


def test_creating_in_an_unknown_club_is_403(client, club):
    response = client.post(
        f"{API}/games",
        json={"club_id": 99999, "players": ["Ana", "Ben"]},
        headers=bearer(club["tokens"]["owner"]),
    )
    assert response.status_code == 403


@pytest.mark.parametrize("authorization", [None, "Bearer abcdefghijklmnopqrstuv", "Basic eDp5"])
def test_creating_a_club_game_needs_a_personal_token(client, club, authorization):
    headers = {} if authorization is None else {"Authorization": authorization}
    response = client.post(
        f"{API}/games", json={"club_id": club["id"], "players": ["Ana", "Ben"]}, headers=headers
    )
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert response.get_json() == {
        "error": "A club game is created with a personal API token: send it as Bearer token."
    }


def test_club_id_must_be_a_whole_number(client, club):
    response = client.post(
        f"{API}/games",
        json={"club_id": "Tuesday", "players": ["Ana", "Ben"]},
        headers=bearer(club["tokens"]["owner"]),
    )
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["field"] == "club_id"


def test_a_personal_token_may_still_create_a_quick_game(client, club):
    response = client.post(
        f"{API}/games", json={"players": ["Ana", "Ben"]}, headers=bearer(club["tokens"]["owner"])
    )
    assert response.status_code == 201
    body = response.get_json()
    assert body["edit_token"] and "club_id" not in body


# Last used ---------------------------------------------------------------------------------------


def _last_used(app, user_id: int):
    with app.app_context():
        return db.session.execute(
            select(ApiToken.last_used_at).where(ApiToken.user_id == user_id)
        ).scalar_one()


def test_reads_never_note_a_tokens_use(app, client, club, club_game):
    """A GET never writes: the viewer's token, used only to read, stays "not used to save"."""
    viewer = club["people"]["viewer"]
    url = f"{API}/games/{club_game['id']}"
    for path in (url, f"{url}/rounds/1"):
        assert client.get(path, headers=bearer(club["tokens"]["viewer"])).status_code == 200
    assert _last_used(app, viewer.id) is None


def test_writes_note_a_tokens_use_at_most_once_a_minute(app, client, club, club_game):
    scorer = club["people"]["scorer"]
    url = f"{API}/games/{club_game['id']}"
    first = _last_used(app, scorer.id)  # its save of round 1 (club_game) noted it
    assert first is not None
    edited = client.put(f"{url}/rounds/1", json=ROUND, headers=bearer(club["tokens"]["scorer"]))
    assert edited.status_code == 200
    assert _last_used(app, scorer.id) == first  # within the minute: not written again
    with app.app_context():
        token = db.session.execute(
            select(ApiToken).where(ApiToken.user_id == scorer.id)
        ).scalar_one()
        token.last_used_at = utcnow() - timedelta(minutes=2)
        db.session.commit()
    assert client.get(url, headers=bearer(club["tokens"]["scorer"])).status_code == 200
    assert _last_used(app, scorer.id) < utcnow() - timedelta(minutes=1)  # a read: not noted
    saved = client.post(f"{url}/rounds", json=ROUND, headers=bearer(club["tokens"]["scorer"]))
    assert saved.status_code == 201
    assert _last_used(app, scorer.id) >= utcnow() - timedelta(minutes=1)


# The OpenAPI document ----------------------------------------------------------------------------


def test_document_describes_the_personal_token_scheme(app):
    doc = document(app)
    scheme = doc["components"]["securitySchemes"]["personalToken"]
    assert scheme["type"] == "http" and scheme["scheme"] == "bearer"
    assert "sk_" in scheme["bearerFormat"]
    create = doc["paths"]["/games"]["post"]
    assert create["security"] == [{}, {"personalToken": []}]
    assert {"401", "403"} <= set(create["responses"])
    assert "club_id" in doc["components"]["schemas"]["NewGame"]["properties"]
