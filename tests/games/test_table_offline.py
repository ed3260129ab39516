"""At the table (issue 11): a round sent twice with one key is saved once, the game page's
live part, the share page's link preview, and the installable app's fixed addresses."""

from __future__ import annotations

import gzip
import re

from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.models import Change, Round, RoundWrite
from scorekeeper.web.devices import COOKIE
from tests.games.test_views import round_data, start_game
from tests.helpers import load_game

API = "/api/v1"


def count(app, model, game_id: int) -> int:
    with app.app_context():
        return db.session.execute(
            select(func.count()).select_from(model).where(model.game_id == game_id)
        ).scalar_one()


def fetch(client, path: str, **headers):
    """GET `path`, read and close it (a static file stays open until its answer is closed)."""
    response = client.get(path, headers=headers)
    response.get_data()
    response.close()
    return response


def form_key(html: str) -> str:
    return re.search(r'name="idempotency_key" type="hidden" value="([^"]+)"', html).group(1)


# A round sent twice ----------------------------------------------------------------------------


def test_the_round_form_carries_a_fresh_key_per_round(client):
    game_id = start_game(client)
    first = form_key(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert len(first) >= 16
    assert form_key(client.get(f"/games/{game_id}").get_data(as_text=True)) != first


def test_a_form_round_sent_twice_with_its_key_is_saved_once(app, client):
    game_id = start_game(client)
    data = round_data(1, {1: 12, 2: 3, 3: 8}, out=0, idempotency_key="queued-on-phone-1")
    first = client.post(f"/games/{game_id}/rounds", data=data)
    assert "Round 1 saved." in client.get(first.headers["Location"]).get_data(as_text=True)
    again = client.post(f"/games/{game_id}/rounds", data=data)
    assert first.status_code == again.status_code == 302
    assert again.headers["Location"] == first.headers["Location"]
    # The repeat says what the first said; the round and its history lines are there once.
    assert "Round 1 saved." in client.get(again.headers["Location"]).get_data(as_text=True)
    assert count(app, Round, game_id) == 1
    assert count(app, RoundWrite, game_id) == 1
    with app.app_context():
        lines = db.session.execute(
            select(func.count()).select_from(Change).where(Change.action == "recorded")
        ).scalar_one()
    assert lines == 4


def test_a_repeat_after_the_next_round_still_saves_nothing(app, client):
    game_id = start_game(client)
    first = round_data(1, {1: 12, 2: 3, 3: 8}, out=0, idempotency_key="round-one-key")
    client.post(f"/games/{game_id}/rounds", data=first)
    client.post(
        f"/games/{game_id}/rounds",
        data=round_data(2, {0: 4, 2: 5, 3: 6}, out=1, idempotency_key="round-two-key"),
    )
    response = client.post(f"/games/{game_id}/rounds", data=first)
    assert response.status_code == 302
    assert count(app, Round, game_id) == 2


def test_without_a_key_the_form_works_as_before(app, client):
    game_id = start_game(client)
    data = round_data(1, {1: 12, 2: 3, 3: 8}, out=0)
    assert client.post(f"/games/{game_id}/rounds", data=data).status_code == 302
    # The same round again is another phone's round 1: refused, not saved twice.
    assert client.post(f"/games/{game_id}/rounds", data=data).status_code == 409
    assert count(app, Round, game_id) == 1
    assert count(app, RoundWrite, game_id) == 0


def test_a_junk_key_is_ignored_by_the_form(app, client):
    game_id = start_game(client)
    data = round_data(1, {1: 12, 2: 3, 3: 8}, out=0, idempotency_key="<script>" * 20)
    assert client.post(f"/games/{game_id}/rounds", data=data).status_code == 302
    assert count(app, RoundWrite, game_id) == 0


def api_game(client) -> dict:
    response = client.post(f"{API}/games", json={"players": ["Ana", "Ben", "Cy"]})
    return response.get_json()


def test_an_api_round_sent_twice_with_one_key_is_saved_once(app, client):
    game = api_game(client)
    headers = {"Authorization": f"Bearer {game['edit_token']}", "Idempotency-Key": "api-key-0001"}
    body = {"out": "Ana", "scores": {"Ben": 15, "Cy": 4}}
    url = f"{API}/games/{game['id']}/rounds"
    first = client.post(url, json=body, headers=headers)
    again = client.post(url, json=body, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json()
    assert again.headers["Location"] == first.headers["Location"]
    assert again.headers["ETag"] == first.headers["ETag"]
    assert count(app, Round, game["id"]) == 1
    # Another key is another round.
    other = client.post(url, json=body, headers={**headers, "Idempotency-Key": "api-key-0002"})
    assert other.status_code == 201
    assert other.headers["Location"].endswith("/rounds/2")


def test_an_api_repeat_of_an_undone_round_says_so(app, client):
    game = api_game(client)
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    url = f"{API}/games/{game['id']}/rounds"
    body = {"out": "Ana", "scores": {"Ben": 15, "Cy": 4}}
    client.post(url, json=body, headers={**auth, "Idempotency-Key": "api-key-undo"})
    assert client.delete(f"{url}/1", headers=auth).status_code == 200
    again = client.post(url, json=body, headers={**auth, "Idempotency-Key": "api-key-undo"})
    assert again.status_code == 409
    assert "undone" in again.get_json()["error"]
    assert count(app, Round, game["id"]) == 0


def test_an_api_key_that_is_not_a_key_is_refused(client):
    game = api_game(client)
    response = client.post(
        f"{API}/games/{game['id']}/rounds",
        json={"out": "Ana", "scores": {"Ben": 15, "Cy": 4}},
        headers={"Authorization": f"Bearer {game['edit_token']}", "Idempotency-Key": "a b"},
    )
    assert response.status_code == 400
    assert "Idempotency-Key" in response.get_json()["error"]


def test_a_lost_race_between_two_copies_of_one_write_is_a_repeat(app, client):
    """Both copies pass the first look-up; the second loses the race and answers as a repeat."""
    from scorekeeper import core
    from scorekeeper.services import games as game_service
    from scorekeeper.services.games import mapping, writes

    game_id = start_game(client)
    entry = core.RoundEntry(
        {"Ana": core.HandEntry(pips=0), "Ben": core.HandEntry(pips=5)}
        | {"Cy": core.HandEntry(pips=6), "Di": core.HandEntry(pips=7)},
        "Ana",
        False,
        [],
    )
    with app.app_context():
        game = load_game(game_id)
        real = writes.repeat_of
        calls = []

        def first_miss(game, key, digest=None):
            calls.append(key)
            return None if len(calls) == 1 else real(game, key, digest)

        writes.repeat_of = first_miss
        try:
            writes._record_round(  # the other copy, saved meanwhile
                game,
                entry,
                number=1,
                confirm=True,
                device=None,
                expected_version=None,
                key="same-write-key",
                digest=mapping.entry_digest(entry),
            )
            db.session.remove()
            game = load_game(game_id)
            outcome = game_service.record_round(game, entry, number=1, key="same-write-key")
        finally:
            writes.repeat_of = real
    assert outcome.repeated and outcome.number == 1
    assert count(app, Round, game_id) == 1


# The game page keeps itself current -------------------------------------------------------------


def test_the_live_part_answers_304_until_another_phone_saves(client):
    game_id = start_game(client)
    first = client.get(f"/games/{game_id}/live")
    assert first.status_code == 200
    assert 'id="game-results"' in first.get_data(as_text=True)
    etag = first.headers["ETag"]
    assert client.get(f"/games/{game_id}/live", headers={"If-None-Match": etag}).status_code == 304
    client.post(f"/games/{game_id}/rounds", data=round_data(1, {1: 12, 2: 3, 3: 8}, out=0))
    changed = client.get(f"/games/{game_id}/live", headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert 'data-next-round="2"' in changed.get_data(as_text=True)


def test_the_live_part_is_only_for_phones_that_may_see_the_game(app, client):
    game_id = start_game(client)
    stranger = app.test_client()
    stranger.set_cookie(COOKIE, "another-phone-000000000000")
    assert stranger.get(f"/games/{game_id}/live").status_code in (403, 404)
    assert stranger.get("/games/999999/live").status_code == 404


# Share ------------------------------------------------------------------------------------------


def share_path(client, game_id: int) -> str:
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    return re.search(r'id="view-link" href="http://localhost(/s/[^"]+)"', page).group(1)


def test_the_game_page_offers_a_share_button_beside_the_link_and_the_qr_code(client):
    game_id = start_game(client)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'id="share-button"' in page
    assert 'class="qr"' in page


def test_the_share_page_has_a_link_preview_naming_only_its_own_link(client):
    game_id = start_game(client)
    client.post(f"/games/{game_id}/rounds", data=round_data(1, {1: 12, 2: 3, 3: 8}, out=0))
    path = share_path(client, game_id)
    page = client.get(path).get_data(as_text=True)
    assert '<meta property="og:title" content="Mexican Train · Ana, Ben, Cy, Di">' in page
    description = re.search(r'property="og:description" content="([^"]+)"', page).group(1)
    assert description == "After 1 round: 1. Ana 0, 2. Cy 3, 3. Di 8, 4. Ben 12"
    head = page.split("</head>")[0]
    token = path.rsplit("/", 1)[1]
    # The read-only link is named once, as og:url; the edit link never.
    assert f'<meta property="og:url" content="http://localhost/s/{token}">' in head
    assert head.count(token) == 1
    assert "/e/" not in page
    # A viewer can pass the link on: the same Share button as the scorer's.
    assert 'id="share-button"' in page and f'data-url="http://localhost/s/{token}"' in page
    # Nothing in the preview comes from another site.
    assert not re.search(r'(content|src|href)="https?://(?!localhost)', head)


# The installable app and light pages -----------------------------------------------------------


def test_the_app_can_be_installed(client):
    manifest = client.get("/manifest.webmanifest")
    assert manifest.status_code == 200
    assert manifest.mimetype == "application/manifest+json"
    body = manifest.get_json()
    assert body["name"] == "Scorekeeper" and body["display"] == "standalone"
    for icon in body["icons"]:
        image = fetch(client, icon["src"])
        assert image.status_code == 200 and image.data
    worker = fetch(client, "/sw.js")
    assert worker.status_code == 200 and "javascript" in worker.mimetype
    assert worker.headers["Service-Worker-Allowed"] == "/"
    assert 'addEventListener("fetch"' in worker.get_data(as_text=True)
    favicon = fetch(client, "/favicon.ico")
    assert favicon.status_code == 200 and favicon.data[:4] == b"\x00\x00\x01\x00"
    home = client.get("/").get_data(as_text=True)
    assert 'rel="manifest"' in home and "js/app.js" in home


def test_text_answers_are_gzipped_when_the_browser_takes_gzip(client):
    page = client.get("/", headers={"Accept-Encoding": "gzip, deflate, br"})
    assert page.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in page.headers["Vary"]
    assert b"Scorekeeper" in gzip.decompress(page.data)
    css = fetch(client, "/static/css/app.css", **{"Accept-Encoding": "gzip"})
    assert css.headers["Content-Encoding"] == "gzip"
    # The validator still works: a phone revalidating its copy gets 304.
    again = fetch(
        client,
        "/static/css/app.css",
        **{"Accept-Encoding": "gzip", "If-None-Match": css.headers["ETag"]},
    )
    assert again.status_code == 304
    plain = client.get("/", headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers
    assert client.get("/healthz", headers={"Accept-Encoding": "gzip"}).data == b"ok"


# The weight budget (bytes on the wire, headers included) is a browser test:
# tests/browser/test_weight.py.


def test_the_manifest_and_service_worker_never_set_the_session_cookie(app):
    # Fetched while the sign-in form is being sent, such an answer would sign the phone out.
    client = app.test_client()
    with client.session_transaction() as session:
        session["csrf_token"] = "a form token"  # as the sign-in page leaves a new session
    for path in ("/manifest.webmanifest", "/sw.js", "/favicon.ico"):
        answer = client.get(path)
        answer.close()  # a file answer (the icon)
        assert answer.status_code == 200, path
        assert not any(c.startswith("session=") for c in answer.headers.getlist("Set-Cookie")), path
