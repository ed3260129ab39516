"""Limits on anonymous abuse: past its limit a client gets 429 with Retry-After (a page for pages,
{"error": ...} for the API) for game creation, round writes, sign-ups and chart drawing; another
address is not affected; a cached chart is never limited; at most CHART_RENDER_SLOTS charts are
drawn at once, and a chart that cannot get a slot in time answers 503 with Retry-After."""

from __future__ import annotations

import io
import threading

import pytest

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.services import games as game_service
from scorekeeper.web.limits import render_slot
from tests.helpers import count_games

API = "/api/v1"
DEVICE = "limits-test-device-0123456789abcdef"
ME, OTHER = "203.0.113.7", "198.51.100.9"
LIMIT = 3  # every limit below: three a minute


@pytest.fixture
def app_config(app_config):
    return {
        **app_config,
        "RATELIMIT_ENABLED": True,
        "LIMIT_NEW_GAMES": f"{LIMIT} per minute",
        "LIMIT_ROUND_WRITES": f"{LIMIT} per minute",
        "LIMIT_SIGN_UPS": f"{LIMIT} per minute",
        "LIMIT_CHART_RENDERS": f"{LIMIT} per minute",
        "LIMIT_IMPORTS": f"{LIMIT} per minute",
    }


def from_(address: str) -> dict[str, object]:
    return {"environ_base": {"REMOTE_ADDR": address}}


def setup_data(players=("Ana", "Ben", "Cy")) -> dict[str, str]:
    data = {f"players-{i}": name for i, name in enumerate(players)}
    data.update(game_type="mexican_train", set_size="12", order="descending")
    data.update(blank_scoring="face", open_train_points="0", target="100", submit="Start")
    return data


def quick_game(app, players=("Ana", "Ben", "Cy")) -> int:
    """A game this test's device scores, made through the service (not counted)."""
    with app.app_context():
        return game_service.create_game(list(players), core.GameRules(), device=DEVICE).id


def round_data(number: int) -> dict[str, str]:
    return {
        "number": str(number),
        "out": "0",
        "mode_1": "pips",
        "pips_1": str(number),
        "mode_2": "pips",
        "pips_2": "7",
    }


def assert_limited_page(response) -> None:
    assert response.status_code == 429
    assert 1 <= int(response.headers["Retry-After"]) <= 61  # the window is a minute
    page = response.get_data(as_text=True)
    assert "Too many requests from your connection" in page
    assert "Try again in" in page


def assert_limited_json(response) -> None:
    assert response.status_code == 429
    assert 1 <= int(response.headers["Retry-After"]) <= 61  # the window is a minute
    assert set(response.get_json()) == {"error"}
    assert "Too many requests" in response.get_json()["error"]


def game_count(app) -> int:
    with app.app_context():
        return count_games()


# Game creation ---------------------------------------------------------------------------------


def test_creating_games_is_limited_per_address_for_the_page_and_the_api_together(app, client):
    for _ in range(LIMIT - 1):
        assert client.post("/games/new", data=setup_data(), **from_(ME)).status_code == 302
    answer = client.post(f"{API}/games", json={"players": ["Ana", "Ben"]}, **from_(ME))
    assert answer.status_code == 201  # the third, through the API: the same counter
    assert game_count(app) == LIMIT

    assert_limited_page(client.post("/games/new", data=setup_data(), **from_(ME)))
    assert_limited_json(client.post(f"{API}/games", json={"players": ["Ana"]}, **from_(ME)))
    assert game_count(app) == LIMIT
    # Looking at the form is not creating a game.
    assert client.get("/games/new", **from_(ME)).status_code == 200
    # Another table, another address.
    assert client.post("/games/new", data=setup_data(), **from_(OTHER)).status_code == 302
    assert game_count(app) == LIMIT + 1


# Round writes ----------------------------------------------------------------------------------


def test_round_writes_are_limited_per_address_for_forms_and_the_api_together(app, client):
    game_id = quick_game(app)
    client.set_cookie("sk_device", DEVICE)
    with app.app_context():
        edit_token = db.session.get(Game, game_id).edit_token
    for number in range(1, LIMIT):
        response = client.post(f"/games/{game_id}/rounds", data=round_data(number), **from_(ME))
        assert response.status_code == 302
    api_round = {"out": "Ana", "scores": {"Ben": 5, "Cy": 9}}
    bearer = {"Authorization": f"Bearer {edit_token}"}
    answer = client.post(
        f"{API}/games/{game_id}/rounds", json=api_round, headers=bearer, **from_(ME)
    )
    assert answer.status_code == 201

    assert_limited_page(
        client.post(f"/games/{game_id}/rounds", data=round_data(LIMIT + 1), **from_(ME))
    )
    assert_limited_page(client.post(f"/games/{game_id}/undo", **from_(ME)))
    assert_limited_json(
        client.post(f"{API}/games/{game_id}/rounds", json=api_round, headers=bearer, **from_(ME))
    )
    assert_limited_json(
        client.delete(f"{API}/games/{game_id}/rounds/3", headers=bearer, **from_(ME))
    )
    with app.app_context():
        assert game_service.snapshot_of(game_service.game_row(game_id)).state.rounds_played == 3
    # The page itself still opens (reading is not writing).
    assert client.get(f"/games/{game_id}", **from_(ME)).status_code == 200
    # Another phone, on another address, saves its round.
    response = client.post(f"/games/{game_id}/rounds", data=round_data(LIMIT + 1), **from_(OTHER))
    assert response.status_code == 302


# Sign-ups --------------------------------------------------------------------------------------


def sign_up(client, number: int, address: str):
    data = {
        "name": f"Player {number}",
        "email": f"player{number}@example.com",
        "password": "correct horse battery staple",
        "confirm": "correct horse battery staple",
    }
    fresh = client.application.test_client()  # each sign-up from a signed-out browser
    return fresh.post("/sign-up", data=data, **from_(address))


def test_sign_ups_are_limited_per_address(client):
    for number in range(LIMIT):
        assert sign_up(client, number, ME).status_code == 302
    assert_limited_page(sign_up(client, LIMIT, ME))
    assert client.get("/sign-up", **from_(ME)).status_code == 200
    assert sign_up(client, LIMIT + 1, OTHER).status_code == 302


def test_club_imports_from_a_file_are_limited_per_address(client, user_factory, sign_in):
    """Each upload is checked round by round (CPU): past LIMIT_IMPORTS it is answered 429,
    refused files included; reading the page is not counted."""
    account = user_factory()
    sign_in(client, account.email, account.password)

    def upload(address: str):
        data = {"file": (io.BytesIO(b"{not json"), "club.json")}
        return client.post("/clubs/import", data=data, **from_(address))

    for _ in range(LIMIT):
        assert upload(ME).status_code == 422
    assert_limited_page(upload(ME))
    assert client.get("/clubs/import", **from_(ME)).status_code == 200
    assert upload(OTHER).status_code == 422


def test_behind_a_trusted_proxy_each_client_is_counted_on_its_own(app, app_config):
    from scorekeeper import create_app

    proxied = create_app({**app_config, "TRUSTED_PROXIES": 1})  # the same database
    client = proxied.test_client()
    proxy = {"REMOTE_ADDR": "10.0.0.2"}  # every request comes through the one proxy

    def new_game(address: str):
        return client.post(
            "/games/new",
            data=setup_data(),
            environ_base=proxy,
            headers={"X-Forwarded-For": address},
        )

    for _ in range(LIMIT):
        assert new_game(ME).status_code == 302
    assert_limited_page(new_game(ME))
    assert new_game(OTHER).status_code == 302


# Charts ----------------------------------------------------------------------------------------


def test_drawing_charts_is_limited_per_address_but_a_drawn_chart_is_not(app, client, renders):
    client.set_cookie("sk_device", DEVICE)
    games = [quick_game(app, ("Ana", f"Ben{i}")) for i in range(3)]
    charts = [f"/games/{g}/chart/{kind}.svg" for g in games for kind in ("race", "rounds")]
    for url in charts[:LIMIT]:
        assert client.get(url, **from_(ME)).status_code == 200
    assert len(renders) == LIMIT

    limited = client.get(charts[LIMIT], **from_(ME))
    assert limited.status_code == 429
    assert 1 <= int(limited.headers["Retry-After"]) <= 61  # the window is a minute
    assert len(renders) == LIMIT  # not drawn
    # Charts already drawn cost a file read: always served.
    for _ in range(10):
        assert client.get(charts[0], **from_(ME)).status_code == 200
    # Another address may have the server draw.
    assert client.get(charts[LIMIT], **from_(OTHER)).status_code == 200
    assert len(renders) == LIMIT + 1
    # ...and then the chart is drawn for everyone, so this address gets it too.
    assert client.get(charts[LIMIT], **from_(ME)).status_code == 200


def test_a_chart_that_cannot_get_a_drawing_slot_in_time_answers_503(app, client, renders):
    client.set_cookie("sk_device", DEVICE)
    url = f"/games/{quick_game(app)}/chart/race.svg"
    app.config["CHART_RENDER_WAIT"] = 0.2
    with app.app_context(), render_slot(), render_slot():  # both of the process's slots taken
        busy = client.get(url, **from_(ME))
    assert busy.status_code == 503
    assert busy.headers["Retry-After"] == "1"
    assert "The server is busy right now" in busy.get_data(as_text=True)
    assert renders == []
    assert client.get(url, **from_(ME)).status_code == 200  # slots free again
    assert renders == ["race_chart"]


def test_at_most_the_configured_number_of_charts_are_drawn_at_once(app, monkeypatch):
    from scorekeeper.charts import draw

    app.config["LIMIT_CHART_RENDERS"] = "100 per minute"
    games = [quick_game(app, ("Ana", f"Ben{i}")) for i in range(6)]
    drawing, most = [0], [0]
    lock = threading.Lock()
    real = draw.race_chart

    def slow(*args, **kwargs):
        with lock:
            drawing[0] += 1
            most[0] = max(most[0], drawing[0])
        try:
            threading.Event().wait(0.15)
            return real(*args, **kwargs)
        finally:
            with lock:
                drawing[0] -= 1

    monkeypatch.setattr(draw, "race_chart", slow)
    statuses: list[int] = []

    def fetch(game_id: int) -> None:
        phone = app.test_client()
        phone.set_cookie("sk_device", DEVICE)
        statuses.append(phone.get(f"/games/{game_id}/chart/race.svg", **from_(ME)).status_code)

    threads = [threading.Thread(target=fetch, args=(g,)) for g in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [200] * len(games)
    assert most[0] == app.config["CHART_RENDER_SLOTS"] == 2


@pytest.mark.parametrize(
    ("name", "value"),
    [("LIMIT_NEW_GAMES", "lots"), ("LIMIT_CHART_RENDERS", ""), ("CHART_RENDER_SLOTS", 0)],
)
def test_a_setting_that_cannot_be_read_stops_the_app_at_start(app_config, name, value):
    from scorekeeper import create_app

    with pytest.raises(ValueError, match=name):
        create_app({**app_config, name: value})
