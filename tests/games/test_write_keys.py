"""A write's key belongs to the round it first sent (issue 23): the same key with the same round
is a repeat (saved once), with another round it is refused, nothing lost and nothing saved."""

from __future__ import annotations

import re
from html import unescape

from scorekeeper import core
from scorekeeper.models import Round, RoundWrite
from scorekeeper.services.games.mapping import entry_digest
from tests.games.test_table_offline import API, api_game, count, form_key
from tests.games.test_views import round_data, start_game


def hands(**pips: object) -> dict[str, core.HandEntry]:
    return {name: core.HandEntry(pips=value) for name, value in pips.items()}


def test_the_same_round_has_the_same_digest_however_it_is_spelled():
    one = core.RoundEntry(hands(Ana=0, Ben="12 ", Cy=3), "Ana")
    same = core.RoundEntry(hands(Cy="3", Ben=12, Ana="0"), "Ana")
    assert entry_digest(one) == entry_digest(same)
    tiles = core.RoundEntry({"Ana": core.HandEntry(tiles=["6-4", "3-2"])}, "Ben")
    shuffled = core.RoundEntry({"Ana": core.HandEntry(tiles=["3-2", "6-4"])}, "Ben")
    assert entry_digest(tiles) == entry_digest(shuffled)


def test_another_round_has_another_digest():
    one = core.RoundEntry(hands(Ana=0, Ben=12, Cy=3), "Ana")
    assert entry_digest(one) != entry_digest(core.RoundEntry(hands(Ana=0, Ben=12, Cy=4), "Ana"))
    assert entry_digest(one) != entry_digest(core.RoundEntry(hands(Ana=0, Ben=12, Cy=3), "Ben"))
    assert entry_digest(one) != entry_digest(
        core.RoundEntry(
            hands(Ana=0, Ben=12, Cy=3), "Ana", penalties=[core.PenaltyEntry("Ben", "open_train")]
        )
    )


def test_a_form_key_sent_again_with_another_round_is_refused_and_the_round_kept(app, client):
    game_id = start_game(client)
    first = round_data(1, {1: 12, 2: 3, 3: 8}, out=0, idempotency_key="cached-page-key")
    assert client.post(f"/games/{game_id}/rounds", data=first).status_code == 302
    # An old copy of the page (offline reload) sends another round with the same key.
    other = round_data(1, {0: 5, 2: 9, 3: 21}, out=1, idempotency_key="cached-page-key")
    response = client.post(f"/games/{game_id}/rounds", data=other)
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "This round was not saved: the page it was typed on had already sent round 1" in (
        unescape(html)
    )
    # What was typed is on the page, as the next round, with a key of its own.
    assert re.search(r'name="pips_3"[^>]*value="21"', html)
    assert 'id="number" name="number" type="hidden" value="2"' in html
    assert form_key(html) != "cached-page-key"
    assert count(app, Round, game_id) == 1
    # Saved with its new key, it is round 2.
    again = {**other, "number": "2", "idempotency_key": form_key(html)}
    assert client.post(f"/games/{game_id}/rounds", data=again).status_code == 302
    assert count(app, Round, game_id) == 2
    assert count(app, RoundWrite, game_id) == 2


def test_an_api_key_sent_again_with_another_body_is_refused(app, client):
    game = api_game(client)
    headers = {"Authorization": f"Bearer {game['edit_token']}", "Idempotency-Key": "api-key-body"}
    url = f"{API}/games/{game['id']}/rounds"
    assert (
        client.post(
            url, json={"out": "Ana", "scores": {"Ben": 15, "Cy": 4}}, headers=headers
        ).status_code
        == 201
    )
    other = client.post(url, json={"out": "Ben", "scores": {"Ana": 2, "Cy": 4}}, headers=headers)
    assert other.status_code == 422
    assert "already used for round 1, with another body" in other.get_json()["error"]
    assert count(app, Round, game["id"]) == 1
