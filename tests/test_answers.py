"""scorekeeper.web.answers: a game's page, share page, charts and API JSON, once made for a version,
are sent again before Flask; what is sent is what the views send (a round sheet with a new
write key each time), and every change a page shows (a round, the language, the phone's right,
the session's CSRF token, the address) gets a newly made answer. What this layer cannot judge
goes on to the views."""

from __future__ import annotations

import gzip
import re
import zlib

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text

from scorekeeper.extensions import db
from scorekeeper.models import Game
from tests.games.test_views import round_data, start_game

GZIP = {"Accept-Encoding": "gzip"}
WRITE_KEY = re.compile(r'name="idempotency_key" type="hidden" value="([^"]+)"')
CSRF = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')


def _game(app: Flask, client: FlaskClient, rounds: int = 1) -> tuple[int, str, str]:
    game_id = start_game(client)
    for number in range(1, rounds + 1):
        client.post(f"/games/{game_id}/rounds", data=round_data(number, {1: 5, 2: 9, 3: 0}, out=0))
    client.get(f"/games/{game_id}")  # as the browser follows the save: its message shown
    with app.app_context():
        game = db.session.get(Game, game_id)
        return game_id, game.view_token, game.edit_token


def _text(response) -> str:
    data = response.get_data()
    if response.headers.get("Content-Encoding") == "gzip":
        # As a browser reads it: a stream, block by block.
        data = zlib.decompressobj(31).decompress(data)
        assert gzip.decompress(response.get_data()) == data
    return data.decode()


def _same_but_keys(first: str, second: str) -> None:
    assert WRITE_KEY.sub("KEY", first) == WRITE_KEY.sub("KEY", second)


@pytest.mark.parametrize("headers", [{}, GZIP], ids=["plain", "gzip"])
def test_the_game_page_is_sent_again_before_flask_as_the_view_makes_it(
    app, client, reached, headers
):
    game_id, _view, _edit = _game(app, client)
    app.config["WTF_CSRF_ENABLED"] = True  # the form sent below must carry a valid token
    url = f"/games/{game_id}"
    client.get(url, headers=headers)  # the session gets its CSRF token: that answer sets it
    made = client.get(url, headers=headers)
    assert made.status_code == 200
    reached.clear()
    again = [client.get(url, headers=headers) for _ in range(3)]
    assert reached == []
    # The view's headers, and its page but for the round sheet's write key: a new one each time.
    for answer in again:
        assert answer.status_code == 200
        assert dict(answer.headers) | {"Content-Length": "-"} == dict(made.headers) | {
            "Content-Length": "-"
        }
        _same_but_keys(_text(answer), _text(made))
    keys = [WRITE_KEY.search(_text(answer)).group(1) for answer in [made, *again]]
    assert len(set(keys)) == 4
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{22}", key) for key in keys)
    # The form sent from a page answered so saves the round.
    page = _text(again[-1])
    data = round_data(2, {1: 3, 2: 4, 3: 1}, out=0)
    data |= {"idempotency_key": keys[-1], "csrf_token": CSRF.search(page).group(1)}
    saved = client.post(f"/games/{game_id}/rounds", data=data)
    assert saved.status_code == 302 and saved.headers["Location"].split("#")[0].endswith(url)
    assert "Round 3" in _text(client.get(url, headers=headers))


def test_every_change_the_page_shows_gets_a_new_answer(app, client, reached):
    game_id, token, _edit = _game(app, client)
    url = f"/games/{game_id}"
    client.get(url)
    client.get(url)
    reached.clear()
    assert client.get(url, headers={"Accept-Language": "en"}).status_code == 200
    # Another language, from the phone or the switcher's cookie: made by the view.
    french = client.get(url, headers={"Accept-Language": "fr"})
    assert "Manche 2" in _text(french) and reached == [url]
    client.set_cookie("lang", "es")
    assert "Ronda 2" in _text(client.get(url)) and reached == [url, url]
    client.delete_cookie("lang")
    # Another address: its absolute links (the share link) follow.
    reached.clear()
    client.set_cookie("sk_device", client.get_cookie("sk_device").value, domain="127.0.0.1")
    elsewhere = client.get(f"http://127.0.0.1{url}")
    assert reached == [url] and "http://127.0.0.1/s/" in _text(elsewhere)
    # A round saved (another version): the page made again shows it.
    client.post(f"/games/{game_id}/rounds", data=round_data(2, {1: 11, 2: 4, 3: 2}, out=0))
    reached.clear()
    assert "Round 3" in _text(client.get(url)) and reached == [url]
    # Another phone with the game to watch: its own page (no round sheet).
    watcher = app.test_client()
    watcher.get(f"/s/{token}")
    watcher.post(f"/s/{token}/keep")
    for _ in range(3):
        watching = watcher.get(url)
        assert watching.status_code == 200 and "idempotency_key" not in _text(watching)


def test_each_session_gets_its_own_csrf_token(app, client, reached):
    game_id, _view, _edit = _game(app, client)
    url = f"/games/{game_id}"
    client.get(url)
    mine = CSRF.search(_text(client.get(url))).group(1)
    assert CSRF.search(_text(client.get(url))).group(1) == mine
    # The same phone with a new session (another browser profile): not the first one's token.
    other = app.test_client()
    other.set_cookie("sk_device", client.get_cookie("sk_device").value)
    other.get(url)
    theirs = CSRF.search(_text(other.get(url))).group(1)
    assert theirs != mine


def test_a_message_waiting_is_shown_once_by_the_view(app, client, reached):
    game_id, _view, _edit = _game(app, client)
    url = f"/games/{game_id}"
    for _ in range(2):
        client.get(url)
    with client.session_transaction() as session:
        session["_flashes"] = [("info", "A word for the table")]
    reached.clear()
    assert "A word for the table" in _text(client.get(url)) and reached == [url]
    assert "A word for the table" not in _text(client.get(url))


def test_keeping_a_game_is_shown_by_the_view(app, client, reached):
    game_id, token, _edit = _game(app, client)
    watcher = app.test_client()
    # The first answers set the session (its CSRF token, then Flask-Login's mark): made each.
    for _ in range(3):
        watcher.get(f"/s/{token}")
    reached.clear()
    watcher.get(f"/s/{token}")
    assert reached == []
    # "Keep this game" flashes a message: the next page shows it, then stops offering to keep.
    watcher.post(f"/s/{token}/keep")
    shown = _text(watcher.get(f"/s/{token}"))
    assert "This game is now on your phone" in shown
    after = [_text(watcher.get(f"/s/{token}")) for _ in range(2)]
    assert all("This game is now on your phone" not in page for page in after)
    assert all(f"/s/{token}/keep" not in page for page in after)


@pytest.mark.parametrize("kind", ["race", "rounds"])
def test_charts_are_sent_again_in_the_readers_language(app, client, reached, kind):
    game_id, token, _edit = _game(app, client, rounds=2)
    for url in (f"/games/{game_id}/chart/{kind}.svg", f"/s/{token}/chart/{kind}.svg"):
        made = client.get(url, headers=GZIP)
        reached.clear()
        again = client.get(url, headers=GZIP)
        assert reached == [] and again.get_data() == made.get_data()
        assert again.headers["ETag"] == made.headers["ETag"]
        french = client.get(url, headers={"Accept-Language": "fr"})
        assert reached == [url] and _text(french) != _text(made)
        # As a page links it (its version in the address): the same answer, before Flask.
        reached.clear()
        linked = client.get(f"{url}?v=3", headers=GZIP)
        assert reached == [] and linked.get_data() == made.get_data()
        # A print page's chart in the page's language: the view reads ?lang=.
        client.get(f"{url}?v=3&lang=es", headers=GZIP)
        assert reached == [url]


def test_the_api_json_is_sent_again_to_the_games_own_tokens(app, client, reached):
    game_id, view, edit = _game(app, client)
    url = f"/api/v1/games/{game_id}"
    made = client.get(url, headers={"Authorization": f"Bearer {view}"})
    assert made.status_code == 200
    reached.clear()
    again = client.get(url, headers={"Authorization": f"Bearer {view}"})
    assert reached == [] and again.get_json() == made.get_json()
    # The edit token's answer lists the hands players sent, which move without the game's
    # version (issue 33): the view writes it every time.
    for _ in range(2):
        scorer = client.get(url, headers={"Authorization": f"Bearer {edit}"})
        assert scorer.status_code == 200 and "sent_hands" in scorer.get_json()
    assert reached == [url, url]
    # A token that does not open the game, or none: the view's refusal, every time.
    for headers in ({"Authorization": "Bearer nope"}, {}):
        for _ in range(2):
            assert client.get(url, headers=headers).status_code in (401, 403)
    # A round saved: the JSON made again has it.
    client.post(f"/games/{game_id}/rounds", data=round_data(2, {1: 1, 2: 2, 3: 3}, out=0))
    fresh = client.get(url, headers={"Authorization": f"Bearer {view}"})
    assert len(fresh.get_json()["rounds"]) == 2


def test_what_this_layer_cannot_judge_goes_on_to_the_views(app, client, reached, signed_in_client):
    game_id, token, _edit = _game(app, client)
    url = f"/games/{game_id}"
    for _ in range(2):
        client.get(url)
    reached.clear()
    client.get(f"{url}?x=1")
    assert reached == [url]
    # A phone with no right to the game: the view's 404, every time.
    stranger = app.test_client()
    stranger.set_cookie("sk_device", "s" * 30)
    assert [stranger.get(url).status_code for _ in range(2)] == [404, 404]
    # Signed in: the view answers (the account's links and language).
    for _ in range(2):
        reached.clear()
        signed_in_client.get(f"/s/{token}")
        assert reached == [f"/s/{token}"]


def test_a_browser_asking_again_gets_the_views_304_before_flask(app, client, reached):
    game_id, token, _edit = _game(app, client, rounds=2)
    api = {"Authorization": f"Bearer {token}"}
    for url, headers in (
        (f"/games/{game_id}/chart/race.svg", {}),
        (f"/s/{token}/chart/rounds.svg", {}),
        (f"/s/{token}", {}),
        (f"/api/v1/games/{game_id}", api),
    ):
        for _ in range(3):
            made = client.get(url, headers={**GZIP, **headers})
        etag = made.headers["ETag"]
        reached.clear()
        again = client.get(url, headers={**GZIP, **headers, "If-None-Match": etag})
        assert again.status_code == 304 and reached == [] and again.get_data() == b""
        # The same question through the view (a query string goes on to Flask): the same 304.
        viewed = client.get(url + "?x=1", headers={**GZIP, **headers, "If-None-Match": etag})
        assert viewed.status_code == 304 and reached == [url]
        assert dict(again.headers) == dict(viewed.headers)
        # An ETag of another version: the answer itself.
        other = client.get(url, headers={**GZIP, **headers, "If-None-Match": '"g1v1"'})
        assert other.status_code == 200 and other.get_data() == made.get_data()


def _hand_out_again(app: Flask, game_id: int) -> None:
    """Delete a game with all its rows, and hand its id out again: as SQLite did with the
    newest game's before migration 0013, and as a database made again from nothing does."""
    rounds = "SELECT id FROM rounds WHERE game_id = :id"
    tables = ("rounds", "players", "changes", "device_games", "round_writes")
    statements = [
        f"DELETE FROM hands WHERE round_id IN ({rounds})",
        f"DELETE FROM penalties WHERE round_id IN ({rounds})",
        *(f"DELETE FROM {table} WHERE game_id = :id" for table in tables),
        "DELETE FROM games WHERE id = :id",
    ]
    sequence = "SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'"
    with app.app_context(), db.engine.begin() as connection:
        for statement in statements:
            connection.execute(text(statement), {"id": game_id})
        if connection.execute(text(sequence)).first() is not None:
            rewind = "UPDATE sqlite_sequence SET seq = :id - 1 WHERE name = 'games'"
            connection.execute(text(rewind), {"id": game_id})


def test_a_game_given_a_deleted_games_id_gets_nothing_kept_of_that_game(app, client):
    """What was kept of a game (its page, charts, API JSON and live part, made once per
    version, and the ETags browsers hold) is never sent for another game with its id and
    version: each is named by the game's own key too."""
    old_id, _view, old_token = _game(app, client)
    api = {"Authorization": f"Bearer {old_token}"}
    urls = ("", "/live", "/chart/race.svg")
    old = {url: [client.get(f"/games/{old_id}{url}") for _ in range(2)][-1] for url in urls}
    old_api = [client.get(f"/api/v1/games/{old_id}", headers=api) for _ in range(2)][-1]
    with app.app_context():
        old_version = db.session.get(Game, old_id).version
    _hand_out_again(app, old_id)

    game_id = start_game(client, players=["Jo", "Kim", "Lu"])
    client.post(f"/games/{game_id}/rounds", data=round_data(1, {1: 4, 2: 7}, out=0))
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert (game.id, game.version) == (old_id, old_version)
        api = {"Authorization": f"Bearer {game.edit_token}"}
    page = _text(client.get(f"/games/{game_id}"))
    assert "Kim" in page and "Ana" not in page
    answer = client.get(f"/api/v1/games/{game_id}", headers=api)
    assert answer.get_json()["players"] == ["Jo", "Kim", "Lu"]
    # A browser asking again with what it holds of the old game: the new game's answers.
    held = {"If-None-Match": old_api.headers["ETag"]}
    assert client.get(f"/api/v1/games/{game_id}", headers={**api, **held}).status_code == 200
    for url in urls:
        etag = old[url].headers.get("ETag")  # the page itself has none
        again = client.get(
            f"/games/{game_id}{url}", headers={"If-None-Match": etag} if etag else {}
        )
        assert again.status_code == 200, url
        assert again.get_data() != old[url].get_data(), url
