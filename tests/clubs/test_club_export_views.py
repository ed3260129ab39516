"""Downloading a club's data from its settings page: owners only, JSON and CSV."""

from __future__ import annotations

import csv
import io
import json

import pytest

from scorekeeper import core
from scorekeeper.services import export_json
from scorekeeper.services import games as game_service
from tests.helpers import load_game

from .helpers import add_member, make_club, make_club_game, make_user, sign_in


def played_club(app) -> tuple[int, int]:
    owner = make_user(app, "Olga")
    club_id = make_club(app, owner, "Tuesday Trains")
    game_id = make_club_game(app, club_id, ["Ana", "Ben"])
    with app.app_context():
        game = load_game(game_id)
        entry = core.RoundEntry({"Ana": core.HandEntry(0), "Ben": core.HandEntry(17)}, "Ana")
        assert game_service.record_round(game, entry).saved
    return club_id, owner


def test_owner_downloads_the_lossless_json(app, client):
    club_id, owner = played_club(app)
    sign_in(client, app, owner)
    response = client.get(f"/clubs/{club_id}/export.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert "attachment" in response.headers["Content-Disposition"]
    document = json.loads(response.get_data(as_text=True))
    with app.app_context():
        assert document == export_json.export_club_json(club_id)
    assert document["club"]["name"] == "Tuesday Trains"


def test_owner_downloads_one_csv_row_per_player_per_round(app, client):
    club_id, owner = played_club(app)
    sign_in(client, app, owner)
    response = client.get(f"/clubs/{club_id}/export.csv")
    assert response.status_code == 200
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert len(rows) == 2
    assert sorted(row["score"] for row in rows) == ["0", "17"]
    assert {row["player"] for row in rows} == {"Ana", "Ben"}


@pytest.mark.parametrize("role", ["viewer", "scorer"])
def test_members_below_owner_cannot_download(app, client, role):
    club_id, _owner = played_club(app)
    member = make_user(app, role.title())
    add_member(app, club_id, member, role)
    sign_in(client, app, member)
    assert client.get(f"/clubs/{club_id}/export.json").status_code == 403


def test_strangers_learn_nothing(app, client):
    club_id, _owner = played_club(app)
    assert client.get(f"/clubs/{club_id}/export.csv").status_code == 302  # sign in first
    sign_in(client, app, make_user(app, "Sam"))
    assert client.get(f"/clubs/{club_id}/export.csv").status_code == 404
