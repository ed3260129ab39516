"""The chart and QR code routes of a game: by device and by share link, ETags and 304s."""

import threading
import xml.etree.ElementTree as ET

import pytest
from charts.helpers import DEVICE, make_game, play  # tests/ is on the path

from scorekeeper.games.views import charts as chart_views
from scorekeeper.web.devices import COOKIE
from tests.helpers import load_game

OTHER_DEVICE = "otherdevice-0123456789abcdefghij"


@pytest.fixture
def game_ids(app):
    """(id, view token) of a 4-player game with 2 rounds."""
    with app.app_context():
        game = make_game()
        return game.id, game.view_token


@pytest.fixture
def device_client(client):
    client.set_cookie(COOKIE, DEVICE)
    return client


def test_chart_route_answers_with_etag_then_304(device_client, game_ids):
    game_id, _ = game_ids
    url = f"/games/{game_id}/chart/race.svg"
    response = device_client.get(url)
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    etag = response.headers["ETag"]
    assert etag.startswith('"') and not etag.startswith("W/")
    assert response.headers["Cache-Control"] == "private, no-cache"
    assert "Accept-Language" in response.headers["Vary"]
    # Opened on its own, the SVG may load and run nothing.
    assert response.headers["Content-Security-Policy"].startswith("default-src 'none'")
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    ET.fromstring(response.data)
    again = device_client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.data == b""
    assert again.headers["ETag"] == etag


def test_phones_asking_at_once_for_a_new_chart_have_it_drawn_once(app, game_ids, renders):
    """After a round every phone at the table asks for the new chart: one request draws it,
    the others wait for it and get the same image."""
    _game_id, token = game_ids
    start = threading.Barrier(6)
    answers = []

    def phone() -> None:
        client = app.test_client()
        start.wait()
        answers.append(client.get(f"/s/{token}/chart/race.svg"))

    threads = [threading.Thread(target=phone) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert [answer.status_code for answer in answers] == [200] * 6
    assert len({answer.data for answer in answers}) == 1
    assert len({answer.headers["ETag"] for answer in answers}) == 1
    assert renders == ["race_chart"]


def test_chart_route_after_a_new_round_has_a_new_etag(app, device_client, game_ids):
    game_id, _ = game_ids
    url = f"/games/{game_id}/chart/rounds.svg"
    first = device_client.get(url)
    with app.app_context():
        play(load_game(game_id), 3)
    second = device_client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert second.status_code == 200
    assert second.headers["ETag"] != first.headers["ETag"]
    assert second.data != first.data


def test_another_device_gets_404(client, game_ids):
    game_id, _ = game_ids
    assert client.get(f"/games/{game_id}/chart/race.svg").status_code == 404
    client.set_cookie(COOKIE, OTHER_DEVICE)
    assert client.get(f"/games/{game_id}/chart/race.svg").status_code == 404
    assert client.get(f"/games/{game_id}/qr.svg").status_code == 404
    assert client.get("/games/999999/chart/race.svg").status_code == 404


def test_share_link_chart_needs_no_device(client, game_ids):
    _, token = game_ids
    response = client.get(f"/s/{token}/chart/rounds.svg")
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    assert b"Cleo" in response.data
    assert client.get("/s/not-a-token/chart/rounds.svg").status_code == 404


def test_unknown_kind_is_404(device_client, game_ids):
    game_id, token = game_ids
    assert device_client.get(f"/games/{game_id}/chart/pie.svg").status_code == 404
    assert device_client.get(f"/s/{token}/chart/pie.svg").status_code == 404


def test_qr_codes_are_svg_of_the_share_link(app, device_client, game_ids):
    game_id, token = game_ids
    response = device_client.get(f"/games/{game_id}/qr.svg")
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    root = ET.fromstring(response.data)
    assert root.tag.endswith("svg")
    assert response.headers["ETag"]
    shared = device_client.get(f"/s/{token}/qr.svg")
    assert shared.status_code == 200
    assert shared.data == response.data
    assert (
        device_client.get(
            f"/s/{token}/qr.svg", headers={"If-None-Match": shared.headers["ETag"]}
        ).status_code
        == 304
    )
    with app.test_request_context():
        game = load_game(game_id)
        assert chart_views.share_url(game) == f"http://localhost/s/{token}"


def test_a_qr_code_is_drawn_once_for_every_phone(app, game_ids, monkeypatch):
    drawn = []
    real = chart_views._draw_qr

    def counting(url: str, title: str) -> bytes:
        drawn.append(url)
        return real(url, title)

    monkeypatch.setattr(chart_views, "_draw_qr", counting)
    _game_id, token = game_ids
    answers = [app.test_client().get(f"/s/{token}/qr.svg") for _phone in range(3)]
    assert [answer.status_code for answer in answers] == [200] * 3
    assert len({answer.data for answer in answers}) == 1
    assert drawn == [f"http://localhost/s/{token}"]
