"""POST /api/v1/games/{game_id}/photos: a photo of one hand in, the tiles found out (the round
sheet's reader, services/photos.py), as the OpenAPI document describes; refusals with their
words; the edit token or a club scorer's personal token; nothing stored."""

from __future__ import annotations

import io
import os
import tempfile
from pathlib import Path

import pytest
from clubs.helpers import make_world  # tests/ is on the path
from werkzeug.datastructures import FileStorage, MultiDict
from werkzeug.test import encode_multipart

from scorekeeper.extensions import db
from scorekeeper.models import Round, User
from scorekeeper.services import accounts as account_service
from scorekeeper.services import photo_lane
from tests.api.conftest import API, bearer
from tests.helpers import load_game
from tests.photos.hostile import cut_png, photo_as, png_header
from training.synthetic import empty_table, make_photo

HAND = [(6, 4), (12, 0), (3, 3), (9, 11)]
NOT_A_PHOTO = "That file is not a photo: choose a JPEG, PNG or HEIC picture."
CUT = "The photo file is incomplete (cut short while sending?): send it again."
PIXELS = "The photo has more than 24 megapixels: take it again at a smaller size."
SMALL = "The picture is too small to show a hand: it needs at least 32 pixels each way."
NARROW = "The picture is too long and narrow to show a hand: take a photo of the hand."


@pytest.fixture(scope="module")
def photo() -> bytes:
    return make_photo(3, tiles=HAND, arrangement="scattered", set_max="12", face="white",
                      pips="black", table="dark wood").jpeg  # fmt: skip


def send(client, game_id, token, content=None, field="photo", headers=None):
    """A multipart POST built here (the test client would spool a large body to a temporary
    file that stays open when the app refuses to read it)."""
    fields = MultiDict()
    if content is not None:
        fields.add(field, FileStorage(io.BytesIO(content), "hand.jpg", content_type="image/jpeg"))
    boundary, body = encode_multipart(fields)
    return client.post(f"{API}/games/{game_id}/photos", data=body,
                       headers={**bearer(token), **(headers or {})},
                       content_type=f"multipart/form-data; boundary={boundary}")  # fmt: skip


def test_a_synthetic_photo_is_read_exactly_as_the_document_says(client, make_game, photo,
                                                                conforms):  # fmt: skip
    game = make_game()
    response = send(client, game["id"], game["edit_token"], photo)
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    conforms(body, "PhotoReading")
    assert set(body) == {"tiles", "total", "advice"}
    assert sorted(sorted(t["pips"]) for t in body["tiles"]) == sorted(sorted(t) for t in HAND)
    assert body["total"] == 48 and body["advice"] == []
    for tile in body["tiles"]:
        assert set(tile) == {"pips", "confidence", "corners"} and 0 <= tile["confidence"] <= 1
        assert len(tile["corners"]) == 4 and all(len(point) == 2 for point in tile["corners"])


def test_nothing_is_stored(app, client, make_game, photo, tmp_path):
    shared_charts = Path(app.instance_path) / "charts"
    lane = Path(app.instance_path) / photo_lane.FOLDER

    def files() -> set[Path]:
        # Not the instance's chart files: servers of tests running beside this one (make
        # test runs two processes) may draw charts there while it runs. Nor the photo lane's
        # places: empty lock files, made on the first read.
        return {path for folder in (Path(app.instance_path), tmp_path) if folder.exists()
                for path in folder.rglob("*") if "sqlite" not in path.name
                and not (path.parent == shared_charts and path.suffix == ".svg")
                and lane not in path.parents and path != lane}  # fmt: skip

    game = make_game()
    before = files()
    assert send(client, game["id"], game["edit_token"], photo).status_code == 200
    assert files() == before
    with app.app_context():
        assert load_game(game["id"]).version == 1  # the game did not move
        assert db.session.query(Round).count() == 0


def test_an_empty_table_gives_no_tiles_and_advice_in_the_language_asked(client, make_game):
    game = make_game()
    body = send(client, game["id"], game["edit_token"], empty_table(2),
                headers={"Accept-Language": "fr"}).get_json()  # fmt: skip
    assert body["tiles"] == [] and body["total"] == 0
    assert len(body["advice"]) == 1 and body["advice"][0].startswith("Aucun")


def test_refusals_say_why(client, make_game, photo, conforms):
    game = make_game()
    token = game["edit_token"]
    cases = [
        (
            b"twelve-blank, six-four",
            415,
            "That file is not a photo: choose a JPEG, PNG or HEIC picture.",
        ),  # fmt: skip
        (photo[:2000], 422, CUT),
        # A few hundred bytes whose header claims 400 megapixels (Pillow's bomb error).
        (png_header(20_000, 20_000), 422, PIXELS),
        (
            b"\xff" * (16 * 1024 * 1024),
            413,
            "The photo is larger than 15 MB: take it again at a smaller size.",
        ),  # fmt: skip
        (None, 400, "Choose a photo of the hand first."),
        (b"", 400, "That photo file is empty: take the photo again or choose another."),
    ]
    for content, status, message in cases:
        response = send(client, game["id"], token, content)
        assert (response.status_code, response.get_json()) == (status, {"error": message})
        conforms(response.get_json(), "Error")
    # The photo in another field is no photo.
    assert send(client, game["id"], token, photo, field="picture").status_code == 400


def test_the_view_token_and_other_games_tokens_are_refused(client, make_game, photo):
    game, other = make_game(), make_game()
    assert send(client, game["id"], game["view_token"], photo).status_code == 403
    assert send(client, game["id"], other["edit_token"], photo).status_code == 403
    # Without a token, or a malformed one: 401 before the photo is looked at (even a large one).
    big = b"\xff" * (16 * 1024 * 1024)
    response = send(client, game["id"], "", big)
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert send(client, 987654, game["edit_token"], photo).status_code == 404


def test_a_club_scorer_may_send_a_photo_a_viewer_may_not(app, client, photo):
    world = make_world(app)
    with app.app_context():
        scorer, viewer = (account_service.create_token(db.session.get(User, user), "photos").secret
                          for user in (world.scorer, world.viewer))  # fmt: skip
    created = client.post(f"{API}/games", json={"club_id": world.club, "players": ["Ana", "Ben"]},
                          headers=bearer(scorer))  # fmt: skip
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["id"]
    assert send(client, game_id, scorer, photo).get_json()["total"] == 48
    refused = send(client, game_id, viewer, photo)
    assert refused.status_code == 403
    assert refused.get_json() == {"error": "Recording scores needs a scorer or owner of the club."}


@pytest.mark.parametrize(
    ("content", "status", "message"),
    [
        # 170 bytes of a 4000 x 3000 PNG: refused, not read as a blank picture.
        (cut_png(), 422, CUT),
        # Under Pillow's own bomb size, over a phone photo's: refused before it is decoded.
        (png_header(7745, 7745), 422, PIXELS),
        (png_header(40_000, 16), 422, SMALL),
        (png_header(4000, 40), 422, NARROW),
        (photo_as("GIF"), 415, NOT_A_PHOTO),
        (photo_as("BMP"), 415, NOT_A_PHOTO),
        (photo_as("TIFF"), 415, NOT_A_PHOTO),
        (photo_as("EPS"), 415, NOT_A_PHOTO),
    ],
    ids=["cut-png", "7745-square", "40000x16", "4000x40", "gif", "bmp", "tiff", "eps"],
)
def test_a_picture_no_phone_takes_is_refused_with_its_reason(client, make_game, conforms,
                                                             content, status, message):  # fmt: skip
    game = make_game()
    response = send(client, game["id"], game["edit_token"], content)
    assert (response.status_code, response.get_json()) == (status, {"error": message})
    conforms(response.get_json(), "Error")


def test_webp_and_heic_are_read(client, make_game):
    game = make_game()
    for kind in ("WEBP", "HEIF"):
        response = send(client, game["id"], game["edit_token"], photo_as(kind))
        assert response.status_code == 200, (kind, response.get_json())


@pytest.fixture
def own_lane(app, tmp_path):
    """One place in the photo lane, this test's own (tests beside it must not take it)."""
    app.instance_path = str(tmp_path / "instance")
    app.config["PHOTO_QUEUE"] = 1
    return app


def test_when_the_lane_is_full_a_photo_is_told_to_come_back(own_lane, client, make_game, photo):
    game = make_game()
    place = photo_lane.take_place(own_lane)  # another request's read, still running
    assert place is not None
    try:
        refused = send(client, game["id"], game["edit_token"], photo)
        assert refused.status_code == 503
        assert refused.headers["Retry-After"] == "2"
        assert refused.get_json() == {
            "error": "Many photos are being read right now: wait a few seconds and send this "
            "one again."
        }
    finally:
        os.close(place)
    assert send(client, game["id"], game["edit_token"], photo).get_json()["total"] == 48


def test_a_large_photo_is_never_written_to_a_temporary_file(client, make_game, monkeypatch):
    made = []
    real = tempfile.TemporaryFile

    def recorded(*args, **kwargs):
        made.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(tempfile, "TemporaryFile", recorded)
    large = photo_as("PNG")
    assert 500 * 1024 < len(large) < 15 * 1024 * 1024  # Werkzeug spools past 500 KB
    game = make_game()
    assert send(client, game["id"], game["edit_token"], large).status_code == 200
    assert made == []


def test_a_full_lane_answers_before_the_photo_is_read(own_lane, client, make_game, monkeypatch):
    """With every place taken, a phone is told to come back before its upload is parsed: a
    crowd of phones costs the request workers nothing but the answer (bench/README.md)."""
    game = make_game()
    parsed: list[bool] = []
    monkeypatch.setattr(
        "werkzeug.formparser.MultiPartParser.parse",
        lambda *args, **kwargs: parsed.append(True) or (MultiDict(), MultiDict()),
    )
    place = photo_lane.take_place(own_lane)
    try:
        refused = client.post(
            f"{API}/games/{game['id']}/photos",
            data={"photo": (io.BytesIO(b"x" * 100_000), "hand.jpg")},
            headers=bearer(game["edit_token"]),
        )
        assert refused.status_code == 503 and refused.headers["Retry-After"] == "2"
        assert parsed == []
    finally:
        os.close(place)
