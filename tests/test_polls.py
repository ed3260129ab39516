"""scorekeeper.web.polls: an unchanged live poll is answered 304 before Flask, with the ETag and
headers the views give; every change the live part shows (a round, the language, the phone's
right) still gets the new part, and a reader this layer cannot judge goes on to the views."""

from __future__ import annotations

import shutil

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.models import Game, User
from scorekeeper.services import accounts as account_service
from tests.games.test_views import round_data, start_game


def _game(app: Flask, client: FlaskClient) -> tuple[int, str]:
    game_id = start_game(client)
    with app.app_context():
        return game_id, db.session.get(Game, game_id).view_token


def _url(kind: str, game_id: int, token: str) -> str:
    return f"/s/{token}/live" if kind == "share" else f"/games/{game_id}/live"


def _headers(response) -> dict[str, str]:
    return dict(response.headers.items())


READERS = {
    "no language": ({}, None),
    "a phone in Hindi": ({"Accept-Language": "hi-IN,en;q=0.5"}, None),
    "the switcher's French": ({"Accept-Language": "es"}, "fr"),
}


@pytest.mark.parametrize("kind", ["share", "game"])
@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("session", [False, True], ids=["no session", "anonymous session"])
def test_an_unchanged_poll_is_a_304_before_flask_with_the_views_headers(
    app, client, reached, kind, reader, session
):
    game_id, token = _game(app, client)
    headers, language = READERS[reader]
    if language:
        client.set_cookie("lang", language)
    if session:
        with client.session_transaction() as kept:
            kept["seen"] = 1
    url = _url(kind, game_id, token)
    first = client.get(url, headers=headers)
    assert first.status_code == 200
    etag = first.headers["ETag"]
    reached.clear()
    poll = client.get(url, headers={**headers, "If-None-Match": etag})
    assert poll.status_code == 304 and reached == []
    # The same poll through the view (a query string goes on to Flask): the same answer.
    viewed = client.get(url + "?again=1", headers={**headers, "If-None-Match": etag})
    assert viewed.status_code == 304 and reached == [url]
    assert _headers(poll) == _headers(viewed)


@pytest.mark.parametrize("kind", ["share", "game"])
def test_every_change_the_live_part_shows_gets_the_new_part(app, client, reached, kind):
    game_id, token = _game(app, client)
    url = _url(kind, game_id, token)
    english = client.get(url, headers={"Accept-Language": "en"}).headers["ETag"]
    # Another language: another ETag, so the poll is answered with the part in that language.
    french = client.get(url, headers={"Accept-Language": "fr", "If-None-Match": english})
    assert french.status_code == 200 and french.headers["ETag"] != english
    assert "Manche 1 sur" in french.get_data(as_text=True)
    client.set_cookie("lang", "es")
    spanish = client.get(url, headers={"Accept-Language": "en", "If-None-Match": english})
    assert spanish.status_code == 200 and spanish.headers["ETag"] != english
    client.delete_cookie("lang")
    # A round saved: the next poll gets the sheet with it.
    client.post(f"/games/{game_id}/rounds", data=round_data(1, {1: 15, 2: 7, 3: 22}, out=0))
    fresh = client.get(url, headers={"Accept-Language": "en", "If-None-Match": english})
    assert fresh.status_code == 200 and fresh.headers["ETag"] != english
    assert ">22<" in fresh.get_data(as_text=True).replace("\n", "").replace(" ", "")


def test_the_game_poll_follows_the_phones_right(app, client, reached):
    game_id, token = _game(app, client)
    url = f"/games/{game_id}/live"
    scorer = client.get(url).headers["ETag"]
    watcher = app.test_client()
    watcher.get(f"/s/{token}")
    watcher.post(f"/s/{token}/keep")  # on this phone's list, to watch only
    watching = watcher.get(url, headers={"If-None-Match": scorer})
    assert watching.status_code == 200 and watching.headers["ETag"] != scorer
    assert "Undo round" not in watching.get_data(as_text=True)
    # A phone that never opened the game: the view's answer (404), not a 304.
    stranger = app.test_client()
    stranger.set_cookie("sk_device", "x" * 30)
    assert stranger.get(url, headers={"If-None-Match": scorer}).status_code == 404


def test_a_signed_in_reader_is_answered_by_the_view_in_their_accounts_language(
    app, client, reached, signed_in_client
):
    game_id, token = _game(app, client)
    with app.app_context():
        user = db.session.get(User, signed_in_client.account.id)
        account_service.set_locale(user, "fr")
        db.session.commit()
    url = f"/s/{token}/live"
    english = client.get(url, headers={"Accept-Language": "en"}).headers["ETag"]
    theirs = signed_in_client.get(url, headers={"Accept-Language": "en", "If-None-Match": english})
    assert theirs.status_code == 200 and "Manche 1 sur" in theirs.get_data(as_text=True)
    reached.clear()
    again = signed_in_client.get(url, headers={"If-None-Match": theirs.headers["ETag"]})
    assert again.status_code == 304 and reached == [url]


def test_a_club_game_and_a_bad_token_go_on_to_the_view(app, client, reached):
    reached.clear()
    assert client.get("/s/no-such-token/live", headers={"If-None-Match": '"x"'}).status_code == 404
    assert reached == ["/s/no-such-token/live"]


def test_a_poll_while_the_database_is_busy_gets_the_views_503(
    app_config, migrated_database, tmp_path
):
    path = tmp_path / "busy.sqlite"
    shutil.copyfile(migrated_database, path)
    busy = create_app(
        {
            **app_config,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}",
            "SQLALCHEMY_ENGINE_OPTIONS": {"pool_size": 1, "max_overflow": 0, "pool_timeout": 0.2},
        }
    )
    client = busy.test_client()
    game_id, token = _game(busy, client)
    etag = client.get(f"/s/{token}/live").headers["ETag"]
    with busy.app_context():
        held = db.engine.connect()  # the pool's only connection
        try:
            answer = client.get(f"/s/{token}/live", headers={"If-None-Match": etag})
        finally:
            held.close()
        db.engine.dispose()
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "1"


def test_each_phones_language_is_its_own_after_many_others(app, client, reached):
    # The poller keeps the language each (cookie, Accept-Language) gives; a flood of other
    # headers starts that over, and every poll still gets the part in its reader's language.
    game_id, token = _game(app, client)
    url = f"/s/{token}/live"
    hindi = {"Accept-Language": "hi-IN,en;q=0.5"}
    etag = client.get(url, headers=hindi).headers["ETag"]
    for number in range(300):
        other = {"Accept-Language": f"x{number}, fr;q=0.8", "If-None-Match": etag}
        assert client.get(url, headers=other).status_code == 200  # French, not the Hindi part
    reached.clear()
    assert client.get(url, headers={**hindi, "If-None-Match": etag}).status_code == 304
    french = client.get(url, headers={"Accept-Language": "fr", "If-None-Match": etag})
    assert french.status_code == 200 and "Manche 1 sur" in french.get_data(as_text=True)
    assert reached == [url]


def test_a_repeated_cookie_is_read_as_the_views_read_it(app, client, reached):
    # Two language cookies (a path's and the site's): the first one counts, before Flask and in it.
    game_id, token = _game(app, client)
    url = f"/s/{token}/live"
    both = {"Cookie": "lang=es; lang=fr", "Accept-Language": "en"}
    reader = app.test_client(use_cookies=False)  # sends the header as written
    spanish = reader.get(url + "?view=1", headers=both)
    assert "Ronda 1 de" in spanish.get_data(as_text=True)
    reached.clear()
    poll = reader.get(url, headers={**both, "If-None-Match": spanish.headers["ETag"]})
    assert poll.status_code == 304 and reached == []
