"""scorekeeper.web.etags: an answer's ETag changes with everything it shows, and only then is a 304
given (the night page used to stay 304 after the owner changed the late-arrival rule)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from clubs.helpers import as_, make_world
from flask import Flask
from nights.helpers import record, start

from scorekeeper.extensions import db
from scorekeeper.models import Club, ClubNight, User
from scorekeeper.services import clubs as club_service
from scorekeeper.services import nights as night_service
from scorekeeper.web.etags import etag_for

TABLES = (("Ana", "Ben", "Cy"), ("Di", "Eve", "Finn"))


def test_the_etag_names_the_version_and_changes_with_each_thing_shown(app):
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        french = etag_for("g1v2", role="owner")
        assert french.startswith("g1v2-")
        assert french == etag_for("g1v2", role="owner")
        assert french != etag_for("g1v3", role="owner")
        assert french != etag_for("g1v2", role="viewer")
        assert french != etag_for("g1v2", role="owner", rule="zero")
        # The API's JSON has no words: its ETag is the game's version, as documented.
        assert etag_for("g1v2", language=False) == "g1v2"
    with app.test_request_context(headers={"Accept-Language": "es"}):
        assert etag_for("g1v2", role="owner") != french


# The night page: every setting it shows ---------------------------------------------------------


def _club(app: Flask, world) -> Club:
    return db.session.get(Club, world.club)


def _rule(app, world, night_id, games):
    night_service.set_late_rule(_club(app, world), "zero")


def _rename_club(app, world, night_id, games):
    club = _club(app, world)
    rules = club_service.default_rules(club)
    club_service.update_club(club, name="The Train Yard", rules=rules, public=club.public)


def _rename_night(app, world, night_id, games):
    db.session.get(ClubNight, night_id).name = "Grand final"
    db.session.commit()


def _demote(app, world, night_id, games):
    club_service.change_role(_club(app, world), world.scorer, "viewer")


def _a_round(app, world, night_id, games):
    record(app, games[0], "Ana", Ben=5, Cy=8)


def _rename_account(app, world, night_id, games):
    # The page's header does not name the account: its ETag need not move (control case).
    db.session.get(User, world.scorer).name = "Sam"
    db.session.commit()


CHANGES: dict[str, tuple[Callable[..., None], str | None]] = {
    "late-arrival rule": (_rule, "A late arrival scores zero for each round they missed."),
    "club name": (_rename_club, "The Train Yard"),
    "night name": (_rename_night, "Grand final"),
    "role": (_demote, None),
    "a table's round": (_a_round, None),
}


@pytest.mark.parametrize("url_end", ["", "/live"])
@pytest.mark.parametrize("change", CHANGES)
def test_every_change_the_night_page_shows_gives_a_new_etag(app, client, change, url_end):
    world = make_world(app)
    night_id, games = start(app, world.club, TABLES)
    url = f"/clubs/{world.club}/nights/{night_id}{url_end}"
    as_(client, app, world, "scorer")
    first = client.get(url)
    assert first.status_code == 200
    etag = first.headers["ETag"]
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    apply, shown = CHANGES[change]
    with app.app_context():
        apply(app, world, night_id, games)
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 200, change
    assert again.headers["ETag"] != etag
    if shown is not None and not url_end:
        assert shown in again.text


def test_the_night_page_changes_with_the_language(app, client):
    world = make_world(app)
    night_id, _games = start(app, world.club, TABLES)
    url = f"/clubs/{world.club}/nights/{night_id}"
    as_(client, app, world, "owner")
    etag = client.get(url).headers["ETag"]
    client.set_cookie("lang", "fr")
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 200
    assert '<html lang="fr"' in again.text


def test_a_change_the_page_does_not_show_keeps_the_304(app, client):
    world = make_world(app)
    night_id, games = start(app, world.club, TABLES)
    url = f"/clubs/{world.club}/nights/{night_id}"
    as_(client, app, world, "scorer")
    etag = client.get(url).headers["ETag"]
    with app.app_context():
        _rename_account(app, world, night_id, games)
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304


def test_a_waiting_message_is_shown_not_kept_behind_a_304(app, client):
    world = make_world(app)
    night_id, _games = start(app, world.club, TABLES)
    url = f"/clubs/{world.club}/nights/{night_id}"
    as_(client, app, world, "owner")
    etag = client.get(url).headers["ETag"]
    with client.session_transaction() as session:
        session["_flashes"] = [("success", "Saved for the test.")]
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 200
    assert "Saved for the test." in again.text


# Game pages: access, sign-in, "keep this game" ----------------------------------------------------


def test_the_game_live_part_changes_with_access_and_language(app, client):
    created = client.post("/api/v1/games", json={"players": ["Ana", "Ben", "Cy"]}).get_json()
    url = f"/games/{created['id']}/live"
    client.get(f"/s/{created['view_token']}")
    client.post(f"/s/{created['view_token']}/keep")
    watching = client.get(url)
    assert watching.status_code == 200
    etag = watching.headers["ETag"]
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    client.set_cookie("lang", "es")
    spanish = client.get(url, headers={"If-None-Match": etag})
    assert spanish.status_code == 200
    assert spanish.headers["ETag"] != etag
    # The edit link makes this phone a scorer: its live part has the scorer's links.
    client.post(f"/e/{created['edit_token']}")
    scoring = client.get(url, headers={"If-None-Match": spanish.headers["ETag"]})
    assert scoring.status_code == 200
    assert scoring.headers["ETag"] not in (etag, spanish.headers["ETag"])


def test_the_share_page_changes_when_the_game_is_kept_or_the_visitor_signs_in(
    app, client, signed_in_client
):
    created = client.post("/api/v1/games", json={"players": ["Ana", "Ben", "Cy"]}).get_json()
    url = f"/s/{created['view_token']}"
    first = client.get(url)
    assert "Keep this game on my phone" in first.text
    etag = first.headers["ETag"]
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    client.post(f"{url}/keep")
    kept = client.get(url, headers={"If-None-Match": etag})
    assert kept.status_code == 200
    assert "Keep this game on my phone" not in kept.text
    # Another visitor, signed in: the header shows their account links, not the same page.
    signed = signed_in_client.get(url, headers={"If-None-Match": etag})
    assert signed.status_code == 200
    assert "Sign out" in signed.text


# Kept parts: the sheet is rendered once per version, language and access -----------------------


def test_a_kept_sheet_is_only_shown_to_readers_it_was_rendered_for(app, client):
    created = client.post("/api/v1/games", json={"players": ["Ana", "Ben", "Cy"]}).get_json()
    client.post(
        f"/api/v1/games/{created['id']}/rounds",
        json={"out": "Ana", "scores": {"Ben": 5, "Cy": 8}},
        headers={"Authorization": f"Bearer {created['edit_token']}"},
    )
    page = f"/games/{created['id']}"
    scorer = app.test_client()
    scorer.post(f"/e/{created['edit_token']}")
    assert 'class="edit-round"' in scorer.get(page).text
    watcher = app.test_client()
    watcher.post(f"/s/{created['view_token']}/keep")
    watching = watcher.get(page).text
    assert "Ben" in watching and 'class="edit-round"' not in watching
    assert 'class="edit-round"' not in watcher.get(f"/games/{created['id']}/live").text
    watcher.set_cookie("lang", "fr")
    assert '<html lang="fr"' in (french := watcher.get(page).text)
    assert "Feuille de marque" in french.split('id="game-results"')[1]
    # A new round: every kept part of the old version is left behind.
    client.post(
        f"/api/v1/games/{created['id']}/rounds",
        json={"out": "Ben", "scores": {"Ana": 11, "Cy": 13}},
        headers={"Authorization": f"Bearer {created['edit_token']}"},
    )
    assert "13" in scorer.get(page).text.split('id="game-results"')[1]
    assert "13" in watcher.get(f"/s/{created['view_token']}").text.split('id="live"')[1]
