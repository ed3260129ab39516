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
