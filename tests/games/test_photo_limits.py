"""Photo reads are limited per client (LIMIT_PHOTO_READS), as chart drawing is."""

from __future__ import annotations

import pytest

from tests.games.test_photo_views import send
from tests.games.test_views import start_game
from training.synthetic import empty_table


@pytest.fixture
def app_config(app_config):
    return {**app_config, "RATELIMIT_ENABLED": True, "LIMIT_PHOTO_READS": "2 per minute"}


def test_past_the_limit_a_client_is_told_to_wait(app, client):
    game_id = start_game(client)
    photo = empty_table(4)
    assert [send(client, game_id, {}, photo=photo).status_code for _ in range(2)] == [200, 200]
    refused = send(client, game_id, {}, photo=photo)
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) > 0
    assert "Too many requests" in refused.get_data(as_text=True)


def test_the_api_counts_with_the_page(app, client):
    """One counter for the round sheet's reads and the API's (POST /api/v1/games/{id}/photos)."""
    from tests.api.test_api_photos import send as send_to_api

    game_id = start_game(client)
    created = client.post("/api/v1/games", json={"players": ["Ana", "Ben"]}).get_json()
    photo = empty_table(4)
    assert send(client, game_id, {}, photo=photo).status_code == 200
    assert send_to_api(client, created["id"], created["edit_token"], photo).status_code == 200
    refused = send_to_api(client, created["id"], created["edit_token"], photo)
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) > 0
    assert "error" in refused.get_json()


def test_one_games_reads_are_limited_whatever_address_sends_them(app, client):
    """40 addresses sharing one game's token are not all served (LIMIT_PHOTO_READS_PER_GAME);
    another game, and requests refused for their token, are not held back by it."""
    from tests.api.test_api_photos import send as send_to_api

    app.config.update(LIMIT_PHOTO_READS="100 per minute", LIMIT_PHOTO_READS_PER_GAME="2 per minute")
    game = client.post("/api/v1/games", json={"players": ["Ana", "Ben"]}).get_json()
    other = client.post("/api/v1/games", json={"players": ["Cy", "Di"]}).get_json()
    photo = empty_table(4)

    def from_address(number: int):
        other_client = app.test_client()
        other_client.environ_base["REMOTE_ADDR"] = f"10.0.0.{number}"
        return other_client

    # Guesses without the edit token use up nothing.
    for number in range(3):
        assert send_to_api(from_address(number), game["id"], "x" * 32, photo).status_code in (
            401,
            403,
        )
    codes = [send_to_api(from_address(n), game["id"], game["edit_token"], photo).status_code
             for n in range(10, 13)]  # fmt: skip
    assert codes == [200, 200, 429]
    refused = send_to_api(from_address(20), game["id"], game["edit_token"], photo)
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert "error" in refused.get_json()
    assert send_to_api(from_address(21), other["id"], other["edit_token"], photo).status_code == 200


def test_the_round_sheet_counts_with_the_api_for_one_game(app, client):
    app.config.update(LIMIT_PHOTO_READS="100 per minute", LIMIT_PHOTO_READS_PER_GAME="2 per minute")
    game_id = start_game(client)
    photo = empty_table(4)
    assert [send(client, game_id, {}, photo=photo).status_code for _ in range(2)] == [200, 200]
    refused = send(client, game_id, {}, photo=photo, headers={"Accept": "text/html"})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert "Too many requests" in refused.get_data(as_text=True)
