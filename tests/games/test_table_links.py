"""The table link (issue 33) through the test client: a player's phone sends its hand from the
"My hand" panel, the scorer's page lists it, and nothing counts until the scorer saves."""

from __future__ import annotations

import re
from html import unescape

from tests.clubs.helpers import as_, make_club_game, make_world
from tests.games.test_views import round_data, start_game
from tests.helpers import load_game


def table_path(client, game_id: int) -> str:
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    found = re.search(r'id="table-url" href="https?://[^/]+(/t/[A-Za-z0-9_-]+)"', page)
    assert found, "the scorer's page shows the table link"
    return found.group(1)


def test_a_player_sends_a_hand_and_the_scorer_sees_it_before_saving(app, client):
    game_id = start_game(client)
    path = table_path(client, game_id)
    player = app.test_client()  # another phone: no right to the game but the link
    page = player.get(path)
    assert page.status_code == 200 and "My hand" in page.get_data(as_text=True)
    sent = player.post(f"{path}/hand", data={"round": "1", "player": "Ben", "pips": "14"})
    assert sent.status_code == 302
    shown = player.get(sent.headers["Location"]).get_data(as_text=True)
    assert "Sent: 14 pips for Ben, round 1." in unescape(shown)
    by_tiles = player.post(
        f"{path}/hand",
        data={"round": "1", "player": "Cy", "mode": "tiles", "tiles": ["6-5", "2-1"]},
        headers={"Accept": "application/json"},
    )
    assert by_tiles.status_code == 201 and by_tiles.get_json()["pips"] == 14
    hands = client.get(f"/games/{game_id}/sent").get_json()
    assert hands["round"] == 1
    assert [(h["player"], h["pips"], h["note"]) for h in hands["hands"]] == [
        ("Ben", 14, "from Ben's phone"),
        ("Cy", 14, "from Cy's phone: 6-5, 2-1"),
    ]
    # Nothing counted, and the scorer's form (read before the hands came) still saves.
    with app.app_context():
        assert load_game(game_id).round_rows == []
    saved = client.post(
        f"/games/{game_id}/rounds", data=round_data(1, {0: 0, 1: 14, 2: 14, 3: 9}, out=0)
    )
    assert saved.status_code == 302
    assert client.get(f"/games/{game_id}/sent").get_json() == {"round": 2, "hands": []}
    # A hand for the round just saved is refused, with the words on the player's phone.
    late = player.post(f"{path}/hand", data={"round": "1", "player": "Di", "pips": "3"})
    assert late.status_code == 409
    assert "Round 1 is already saved" in unescape(late.get_data(as_text=True))


def test_a_hand_the_rules_refuse_shows_the_message_beside_the_field(app, client):
    game_id = start_game(client)
    path = table_path(client, game_id)
    player = app.test_client()
    engine = player.post(
        f"{path}/hand",
        data={"round": "1", "player": "Ana", "mode": "tiles", "tiles": ["12-12", "3-1"]},
    )
    assert engine.status_code == 422
    html = unescape(engine.get_data(as_text=True))
    assert re.search(r'id="hand-tiles-error">Ana: 12-12 is this round.s engine', html)
    assert re.search(r'value="3-1" checked', html)  # what was ticked is kept
    not_a_number = player.post(f"{path}/hand", data={"round": "1", "player": "Ana", "pips": "x"})
    assert not_a_number.status_code == 422
    assert 'id="hand-pips-error"' in not_a_number.get_data(as_text=True)
    nobody = player.post(f"{path}/hand", data={"round": "1", "player": "", "pips": "3"})
    assert nobody.status_code == 422
    assert client.get(f"/games/{game_id}/sent").get_json()["hands"] == []


def test_the_table_link_opens_nothing_else(app, client):
    game_id = start_game(client)
    path = table_path(client, game_id)
    player = app.test_client()
    player.get(path)
    assert player.get(f"/games/{game_id}").status_code == 404
    assert player.get(f"/games/{game_id}/sent").status_code == 404
    saving = player.post(f"/games/{game_id}/rounds", data=round_data(1, {1: 3}, out=0))
    assert saving.status_code == 404
    assert player.get("/t/not-a-real-token").status_code == 404
    # The print view of the scorer carries the table link and its QR code.
    printed = client.get(f"/games/{game_id}/print").get_data(as_text=True)
    assert path in printed and f"/games/{game_id}/table-qr.svg" in printed
    assert client.get(f"/games/{game_id}/table-qr.svg").status_code == 200


def test_a_club_turns_table_links_off_in_its_settings(app, client):
    world = make_world(app)
    game_id = make_club_game(app, world.club, ["Ana", "Ben"])
    owner = as_(client, app, world, "owner")
    path = table_path(owner, game_id)  # the club's scorers see the table link
    saved = owner.post(f"/games/{game_id}/rounds", data=round_data(1, {0: 0, 1: 5}, out=0))
    assert saved.status_code == 302
    player = app.test_client().get(path)
    assert player.status_code == 200
    with app.app_context():
        view_token = load_game(game_id).view_token
    # A private club's game: its share link (which charts are drawn from) is not given away.
    assert view_token not in player.get_data(as_text=True)
    settings = owner.get(f"/clubs/{world.club}/settings").get_data(as_text=True)
    assert "Table links: players send their own hands" in settings
    form = {"name": "Yard", "set_size": "12", "blank_scoring": "face", "order": "descending"}
    assert owner.post(f"/clubs/{world.club}/settings", data=form).status_code == 302
    assert 'id="table-url"' not in owner.get(f"/games/{game_id}").get_data(as_text=True)
    assert app.test_client().get(path).status_code == 404
    turned_on = {**form, "table_links": "y"}
    assert owner.post(f"/clubs/{world.club}/settings", data=turned_on).status_code == 302
    assert app.test_client().get(path).status_code == 200


def test_a_players_photo_is_told_to_come_back_before_it_is_read_when_the_lane_is_full(
    app, client, tmp_path, monkeypatch
):
    """The table link's photo route refuses as the scorer's does: a full photo lane answers 503
    with Retry-After before the upload is parsed (web/uploads.hand_photo)."""
    import io
    import os

    from scorekeeper.services import photo_lane

    app.instance_path = str(tmp_path / "instance")
    app.config["PHOTO_QUEUE"] = 1
    path = table_path(client, start_game(client))
    parsed: list[bool] = []
    monkeypatch.setattr(
        "werkzeug.formparser.MultiPartParser.parse",
        lambda *args, **kwargs: parsed.append(True) or ({}, {}),
    )
    place = photo_lane.take_place(app)
    try:
        refused = app.test_client().post(
            f"{path}/photo",
            data={"photo": (io.BytesIO(b"x" * 1000), "hand.jpg")},
            headers={"Accept": "application/json"},
        )
    finally:
        os.close(place)
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "2"
    assert "Many photos are being read right now" in refused.get_json()["error"]
    assert parsed == []
