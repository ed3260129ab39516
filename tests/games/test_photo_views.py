"""A hand from a photo on the round sheet (games/views/photos.py): the script's JSON answer, the
refusals, and the same photo sent with the whole form when there is no script."""

from __future__ import annotations

import io
import os
import re

import pytest
from werkzeug.datastructures import FileStorage, MultiDict
from werkzeug.test import encode_multipart

from scorekeeper.services import photo_lane
from tests.games.test_views import round_data, start_game
from tests.photos.hostile import cut_png, photo_as, png_header
from training.synthetic import make_photo

HAND = [(6, 4), (12, 0), (3, 3), (9, 11)]
JSON = {"Accept": "application/json"}


@pytest.fixture(scope="module")
def photo() -> bytes:
    return make_photo(3, tiles=HAND, arrangement="scattered", set_max="12", face="white",
                      pips="black", table="dark wood").jpeg  # fmt: skip


def send(client, game_id, data, headers=JSON, **files):
    """A multipart POST, its body built here (the test client would spool a large one to a
    temporary file that stays open when the app refuses to read it)."""
    fields = MultiDict()
    for key, value in data.items():
        for item in value if isinstance(value, list) else [value]:
            fields.add(key, item)
    for field, content in files.items():
        fields.add(field, FileStorage(io.BytesIO(content), "hand.jpg", content_type="image/jpeg"))
    boundary, body = encode_multipart(fields)
    return client.post(f"/games/{game_id}/photos", data=body, headers=headers,
                       content_type=f"multipart/form-data; boundary={boundary}")  # fmt: skip


def test_the_round_sheet_offers_a_photo_of_any_hand(client):
    game_id = start_game(client)
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    # One control without the script (round.js puts a camera button on each hand instead).
    assert html.count('accept="image/*" capture="environment"') == 1
    assert re.search(r'<select id="photo-seat" name="photo_seat" form="round-form">'
                     r'<option value="0">Ana</option>', html)  # fmt: skip
    assert f'form="round-form" formaction="/games/{game_id}/photos"' in html
    assert 'data-script="/static/js/photo.js" data-style="/static/css/photos.css"' in html


def test_the_confirm_panel_comes_with_its_words(client):
    game_id = start_game(client)
    html = client.get(f"/games/{game_id}/photos/panel").get_data(as_text=True)
    assert 'id="photo-confirm"' in html and "Use these tiles" in html
    assert 'data-too-large="The photo is larger than 15 MB' in html


def test_the_script_gets_each_tile_with_its_values_corners_and_the_total(client, photo):
    game_id = start_game(client)
    response = send(client, game_id, {}, photo=photo)
    assert response.status_code == 200
    body = response.get_json()
    assert sorted(sorted(t["pips"]) for t in body["tiles"]) == sorted(sorted(t) for t in HAND)
    assert body["total"] == 48 and body["advice"] == []
    assert all(len(t["corners"]) == 4 and 0 <= t["confidence"] <= 1 for t in body["tiles"])
    assert (body["width"], body["height"]) > (0, 0)


def test_a_text_file_is_refused_with_415(client):
    game_id = start_game(client)
    response = send(client, game_id, {}, photo=b"twelve-blank, six-four")
    assert response.status_code == 415
    assert "not a photo" in response.get_json()["error"]


def test_a_20_mb_upload_is_refused_with_413(client):
    game_id = start_game(client)
    response = send(client, game_id, {}, photo=b"\xff" * (20 * 1024 * 1024))
    assert response.status_code == 413
    assert "larger than 15 MB" in response.get_json()["error"]


def test_a_broken_photo_is_422_and_no_photo_is_400(client, photo):
    game_id = start_game(client)
    assert send(client, game_id, {}, photo=photo[:2000]).status_code == 422
    assert send(client, game_id, {}).status_code == 400


def test_an_empty_file_is_called_empty_and_no_file_asks_for_a_photo(client):
    game_id = start_game(client)
    # A file the phone did not finish writing: 0 bytes, with its name.
    response = send(client, game_id, {}, photo=b"")
    assert (response.status_code, response.get_json()) == (
        400,
        {"error": "That photo file is empty: take the photo again or choose another."},
    )
    # Without the script, the round form sent with its file field left empty: the browser
    # sends the field with no file name and no bytes.
    fields = MultiDict(round_data(1, {1: 7}, photo_seat="0"))
    fields.add("photo", FileStorage(io.BytesIO(b""), "", content_type="application/octet-stream"))
    boundary, body = encode_multipart(fields)
    response = client.post(f"/games/{game_id}/photos", data=body, headers={"Accept": "text/html"},
                           content_type=f"multipart/form-data; boundary={boundary}")  # fmt: skip
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert "Choose a photo of the hand first." in html and "file is empty" not in html
    assert 'name="pips_1" pattern="[0-9]*" placeholder="pips" type="text" value="7"' in html


def test_an_empty_table_gives_no_tiles_and_advice_in_words(client):
    from training.synthetic import empty_table

    game_id = start_game(client)
    body = send(client, game_id, {}, photo=empty_table(2)).get_json()
    assert body["tiles"] == [] and body["total"] == 0
    assert body["advice"] == [
        "No tile was found. Lay the tiles face up on a plain table and fill the frame."
    ]


def test_without_the_script_the_hand_comes_back_ticked_and_the_rest_kept(client, photo):
    game_id = start_game(client)
    data = round_data(1, {1: 7, 2: 20}, out=3, photo_seat="0")
    response = send(client, game_id, data, headers={"Accept": "text/html"}, photo=photo)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    ticked = re.findall(r'name="tiles_0" type="checkbox" value="([0-9-]+)" checked', html)
    assert sorted(ticked) == sorted(f"{max(t)}-{min(t)}" for t in HAND)
    assert "Read from the photo" in html and "(48 pips)" in html
    assert 'name="pips_1" pattern="[0-9]*" placeholder="pips" type="text" value="7"' in html
    # Saved as any hand of tiles: 48 for Ana.
    saved = client.post(f"/games/{game_id}/rounds", data={**data, "tiles_0": ticked,
                                                          "mode_0": "tiles"})  # fmt: skip
    assert saved.status_code == 302


def test_only_the_games_scorers_may_send_a_photo(app, client, photo):
    game_id = start_game(client)
    other = app.test_client()
    assert send(other, game_id, {}, photo=photo).status_code in (403, 404)


@pytest.mark.parametrize("seat", ["99", "-1", "abc", ""])
def test_a_junk_hand_number_keeps_the_form_and_ticks_nothing(client, photo, seat):
    game_id = start_game(client)
    data = round_data(1, {1: 7}, photo_seat=seat)
    response = send(client, game_id, data, headers={"Accept": "text/html"}, photo=photo)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert " checked" not in "".join(re.findall(r'<input class="tile-check"[^>]*>', html))
    assert 'name="pips_1" pattern="[0-9]*" placeholder="pips" type="text" value="7"' in html
    assert "Choose whose hand the photo shows" in html


@pytest.mark.parametrize(
    ("content", "status", "words"),
    [
        (cut_png(), 422, "The photo file is incomplete"),
        (png_header(7745, 7745), 422, "more than 24 megapixels"),
        (png_header(40_000, 16), 422, "at least 32 pixels each way"),
        (photo_as("GIF"), 415, "choose a JPEG, PNG or HEIC picture"),
        (photo_as("EPS"), 415, "choose a JPEG, PNG or HEIC picture"),
    ],
    ids=["cut-png", "7745-square", "40000x16", "gif", "eps"],
)
def test_a_picture_no_phone_takes_is_refused_with_its_reason(client, content, status, words):
    game_id = start_game(client)
    response = send(client, game_id, {}, photo=content)
    assert response.status_code == status
    assert words in response.get_json()["error"]
    # Without the script: the page, what was typed kept, the reason shown.
    data = round_data(1, {1: 7}, photo_seat="0")
    page = send(client, game_id, data, headers={"Accept": "text/html"}, photo=content)
    assert page.status_code == status
    html = page.get_data(as_text=True)
    assert words in html
    assert 'name="pips_1" pattern="[0-9]*" placeholder="pips" type="text" value="7"' in html


def test_when_the_lane_is_full_the_page_says_to_send_it_again(app, client, photo, tmp_path):
    app.instance_path = str(tmp_path / "instance")  # this test's own places in the lane
    app.config["PHOTO_QUEUE"] = 1
    game_id = start_game(client)
    place = photo_lane.take_place(app)  # another table's photo, still being read
    try:
        refused = send(client, game_id, {}, photo=photo)
        assert refused.status_code == 503 and refused.headers["Retry-After"] == "2"
        assert "wait a few seconds and send this one again" in refused.get_json()["error"]
        data = round_data(1, {1: 7}, photo_seat="0")
        page = send(client, game_id, data, headers={"Accept": "text/html"}, photo=photo)
        assert page.status_code == 503 and page.headers["Retry-After"] == "2"
        html = page.get_data(as_text=True)
        assert "wait a few seconds and send this one again" in html
        assert 'name="pips_1" pattern="[0-9]*" placeholder="pips" type="text" value="7"' in html
    finally:
        os.close(place)
    assert send(client, game_id, {}, photo=photo).get_json()["total"] == 48
