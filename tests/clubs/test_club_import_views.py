"""Create a club from an export file on the web (/clubs/import): the uploader becomes the owner,
the games and standings are those of the source club, nobody else's account is touched, and a
refused file changes nothing and says why next to the file field."""

from __future__ import annotations

import io
import json
from html import unescape

import pytest
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.models import (
    ApiToken,
    Club,
    ClubEvent,
    ClubNight,
    Game,
    Invite,
    Membership,
    RosterPlayer,
    Round,
    Season,
    User,
    utcnow,
)
from scorekeeper.services import export_json, removals
from scorekeeper.services import games as game_service
from scorekeeper.services import season_standings as standings_service
from tests.conftest import sign_in_client
from tests.helpers import load_game
from tests.nights.test_nights_views import text_of
from tests.services.club_data import build_club

from .helpers import assert_sign_in_redirect, make_user, sign_in

# Every table an import writes to, or could: a refused file leaves each count as it was.
TABLES = (User, Club, Membership, Invite, RosterPlayer, Season, ClubNight, Game, Round, ClubEvent)


def counts() -> dict[str, int]:
    return {
        model.__tablename__: db.session.execute(
            select(func.count()).select_from(model)
        ).scalar_one()
        for model in TABLES
    }


def accounts() -> list[tuple]:
    """Every account as it stands: email, name, password hash, confirmation."""
    return db.session.execute(
        select(User.email, User.name, User.password_hash, User.email_verified_at).order_by(User.id)
    ).all()


def picture(club_id: int) -> dict[str, object]:
    """What a member sees of a club's play: each game's players and totals by token, and each
    season's standings lines."""
    club = db.session.get(Club, club_id)
    games = {}
    for game in db.session.execute(select(Game).where(Game.club_id == club_id)).scalars():
        state = game_service.state_of(game)
        games[game.view_token] = (state.rounds_played, repr(state.standings))
    seasons = {}
    for season in db.session.execute(select(Season).where(Season.club_id == club.id)).scalars():
        lines = standings_service.standings(season).lines
        seasons[season.name] = [(line.name, repr(line.line)) for line in lines]
    return {"games": games, "seasons": seasons}


@pytest.fixture
def source(app):
    """A club built here with every kind of row, its picture and export file, then deleted by
    its owner (the delete page offers the export first): the file is what they kept."""
    with app.app_context():
        club_id = build_club()
        # Its season game ended and moved to the season by hand, so there are standings.
        season_game = db.session.execute(select(Game).where(Game.season_id.is_not(None))).scalar()
        season_game.season_by_hand = True
        db.session.commit()
        game_service.end_game(load_game(season_game.id), device=None)
        before = picture(club_id)
        document = export_json.export_club_json(club_id)
        club = db.session.get(Club, club_id)
        owner = db.session.execute(select(User).where(User.email == "olga@example.org")).scalar()
        removals.delete_club(club, owner, club.name)
    return before, document


def upload(client, content: bytes, name: str = "club.json"):
    return client.post(
        "/clubs/import",
        data={"file": (io.BytesIO(content), name)},
        content_type="multipart/form-data",
    )


def as_json(document) -> bytes:
    return export_json.dumps(document).encode()


@pytest.fixture
def uploader(app, client):
    """A signed-in account with a confirmed address, not named in any file."""
    user_id = make_user(app, "Uma Uploader")
    sign_in(client, app, user_id)
    return user_id


def test_a_good_file_makes_the_uploader_owner_with_the_source_games_and_standings(
    app, client, source, uploader
):
    before, document = source
    with app.app_context():
        people = accounts()
    response = upload(client, as_json(document))
    assert response.status_code == 200
    page = text_of(response)
    assert "Thursday Trains ☕ is ready" in page
    assert "games 3, rounds 6, roster players 5, seasons 2, club nights 2" in page
    # The people the file names are listed to invite, and nobody was added.
    assert "Members are not imported: invite them" in page
    for email in ("fern@example.org", "sam@example.org", "vic@example.org"):
        assert email in page
    assert "olga@example.org" in page  # the source's owner is someone else here
    with app.app_context():
        club = db.session.execute(select(Club).where(Club.name == "Thursday Trains ☕")).scalar()
        members = db.session.execute(
            select(Membership.user_id, Membership.role).where(Membership.club_id == club.id)
        ).all()
        assert members == [(uploader, "owner")]
        assert picture(club.id) == before
        assert before["games"] and before["seasons"]["Spring"]  # a comparison worth making
        # No account made or changed; no invite link of the old club works here.
        assert accounts() == people
        assert db.session.execute(select(func.count(Invite.id))).scalar_one() == 0
        linked = db.session.execute(
            select(func.count(RosterPlayer.id)).where(RosterPlayer.user_id.is_not(None))
        ).scalar_one()
        assert linked == 0
        history = removals.history_of(club)
        assert [(e.action, e.user_id) for e in history] == [("imported", uploader)]
    assert f'href="/clubs/{club.id}/invites"' in response.get_data(as_text=True)
    # The club is the uploader's: its page opens, with the games.
    assert client.get(f"/clubs/{club.id}").status_code == 200


def test_the_uploaders_own_roster_player_stays_linked_to_them(app, client, source):
    """Olga uploads her own club's file: her roster player is hers again; the others are not."""
    _before, document = source
    with app.app_context():
        olga = db.session.execute(select(User).where(User.email == "olga@example.org")).scalar()
        olga.email_verified_at = utcnow()
        db.session.commit()
        olga_id = olga.id
    sign_in(client, app, olga_id)
    response = upload(client, as_json(document))
    assert response.status_code == 200
    assert "olga@example.org" not in text_of(response)
    with app.app_context():
        linked = db.session.execute(
            select(RosterPlayer.display_name, RosterPlayer.user_id).where(
                RosterPlayer.user_id.is_not(None)
            )
        ).all()
        assert linked == [("Ana", olga_id)]


def test_existing_accounts_named_in_the_file_are_not_touched(app, client, uploader):
    """Sam has an account here: the file names him as scorer; he joins nothing, keeps his
    clubs, name and password, and no API token or account appears."""
    with app.app_context():
        document = export_json.export_club_json(build_club())
        sam = db.session.execute(select(User).where(User.email == "sam@example.org")).scalar()
        sams_clubs = [m.club_id for m in sam.memberships]
        # Another instance's copy: its own tokens (this club stays here too).
        document["club"]["public_token"] = "x" * 22
        for index, game in enumerate(document["games"]):
            game["edit_token"], game["view_token"] = f"e{index:021d}", f"v{index:021d}"
        people, tokens = accounts(), db.session.execute(select(ApiToken.id)).all()
    response = upload(client, as_json(document))
    assert response.status_code == 200, text_of(response)[:500]
    with app.app_context():
        sam = db.session.execute(select(User).where(User.email == "sam@example.org")).scalar()
        assert [m.club_id for m in sam.memberships] == sams_clubs
        assert accounts() == people
        assert db.session.execute(select(ApiToken.id)).all() == tokens


def _deep(document) -> bytes:
    return b"[" * 50 + b"]" * 50


REFUSED = [
    ("not JSON", lambda doc: b"{not json", "This is not a JSON file"),
    ("not UTF-8", lambda doc: b"\xff\xfe\x00junk", "not UTF-8 text"),
    ("too deep", _deep, "nests lists and objects more than 20 deep"),
    (
        "schema",
        lambda doc: as_json({**doc, "version": 99}),
        "version",
    ),
    (
        "references",
        lambda doc: as_json(_set(doc, ("games", 0, "players", 0, "roster"), 99)),
        "games[0].players[0].roster: 99 is not a ref",
    ),
    (
        "a round the rules refuse",
        lambda doc: as_json(_set(doc, ("games", 0, "rounds", 1, "hands", 1, "pips"), -5)),
        "a hand cannot be worth less than 0",
    ),
]


def _set(doc, path, value):
    doc = json.loads(export_json.dumps(doc))
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return doc


@pytest.mark.parametrize(("kind", "make", "reason"), REFUSED, ids=[r[0] for r in REFUSED])
def test_a_refused_file_changes_nothing_and_says_why_next_to_the_field(
    app, client, source, uploader, kind, make, reason
):
    _before, document = source
    with app.app_context():
        before, people = counts(), accounts()
    response = upload(client, make(document))
    assert response.status_code == 422
    error = _field_error(response)
    assert error.startswith("This file was refused:")
    assert reason in error
    with app.app_context():
        assert counts() == before
        assert accounts() == people


# A French organiser's refusals: the reason in French, the place in the file as the file writes
# it, the player's name as typed; the English reason is gone.
REFUSED_IN_FRENCH = [
    (
        "version",
        lambda doc: as_json({**doc, "version": 99}),
        ["Version d’export 99 non prise en charge\u00a0: ce serveur lit la version 1."],
        "Unsupported",
    ),
    (
        "wrong kind of value",
        lambda doc: as_json(_set(doc, ("games", 0, "rounds", 0, "hands", 0, "pips"), "12")),
        ["games[0].rounds[0].hands[0].pips\u00a0: il faut un nombre entier"],
        "expected",
    ),
    (
        "references",
        lambda doc: as_json(_set(doc, ("games", 0, "players", 0, "roster"), 99)),
        ["games[0].players[0].roster\u00a0: 99 ne correspond à aucune ref"],
        "is not a ref",
    ),
    (
        "a round the rules refuse",
        lambda doc: as_json(_set(doc, ("games", 0, "rounds", 1, "hands", 1, "pips"), -5)),
        [
            "games[0].rounds[1].hands[1].pips (partie 1, manche 2, ",
            "une main ne peut pas valoir moins de 0 (vous avez saisi -5).",
        ],
        "cannot be worth",
    ),
]


@pytest.mark.parametrize(
    ("kind", "make", "french", "english"), REFUSED_IN_FRENCH, ids=[r[0] for r in REFUSED_IN_FRENCH]
)
def test_a_refused_file_says_why_in_the_readers_language(
    app, client, source, uploader, kind, make, french, english
):
    _before, document = source
    client.set_cookie("lang", "fr")
    response = upload(client, make(document))
    assert response.status_code == 422
    error = _field_error(response)
    assert error.startswith("Ce fichier a été refusé\u00a0: ")
    for words in french:
        assert words in error
    assert english not in error


def test_a_file_already_imported_is_refused_in_the_readers_language(app, client, source, uploader):
    """The links' tokens the file would reuse are listed in French, each with its kind."""
    _before, document = source
    assert upload(client, as_json(document)).status_code == 200
    client.set_cookie("lang", "fr")
    error = _field_error(upload(client, as_json(document)))
    assert "Ce serveur utilise déjà le jeton de la page publique du club '" in error
    assert "; le jeton de partie '" in error
    assert (
        "de plus\u00a0: ce club a-t-il déjà été importé ici\u00a0? Rien n’a été importé." in error
    )


def test_a_file_already_imported_is_refused_the_second_time(app, client, source, uploader):
    _before, document = source
    assert upload(client, as_json(document)).status_code == 200
    with app.app_context():
        before = counts()
    response = upload(client, as_json(document))
    assert response.status_code == 422
    assert "was this club imported here before?" in _field_error(response)
    with app.app_context():
        assert counts() == before


@pytest.mark.parametrize(
    ("size", "status"), [(6_000, 422), (200_000, 413)], ids=["over the import limit", "huge body"]
)
def test_a_file_too_big_is_refused_next_to_the_field(app, client, uploader, size, status):
    """Over IMPORT_MAX_BYTES (the importer reads no more), or so large the request itself is
    cut off: either way the page says so next to the field, never a bare 413 page or a 500."""
    app.config["IMPORT_MAX_BYTES"] = 5_000
    with app.app_context():
        before = counts()
    response = upload(client, b" " * size + b"{}")
    assert response.status_code == status
    assert "larger than 5,000 bytes" in _field_error(response)
    with app.app_context():
        assert counts() == before


def test_no_file_chosen_says_so_next_to_the_field(app, client, uploader):
    response = client.post("/clubs/import", data={}, content_type="multipart/form-data")
    assert response.status_code == 400
    assert "Choose the export file (.json) to upload." in _field_error(response)


def test_signed_out_visitors_are_sent_to_sign_in(app, client, source):
    _before, document = source
    assert_sign_in_redirect(app, client.get("/clubs/import"), "/clubs/import")
    with app.app_context():
        before = counts()
    assert_sign_in_redirect(app, upload(client, as_json(document)), "/clubs/import")
    with app.app_context():
        assert counts() == before


def test_an_unconfirmed_address_may_not_import(app, client, source, user_factory):
    _before, document = source
    account = user_factory("Newbie", verified=False)
    sign_in_client(client, account.email, account.password)
    page = client.get("/clubs/import")
    assert "Confirm your email address first" in text_of(page)
    with app.app_context():
        before = counts()
    response = upload(client, as_json(document))
    assert response.status_code == 403
    assert "Confirm your email address first" in _field_error(response)
    with app.app_context():
        assert counts() == before


def test_the_clubs_page_links_to_the_import(app, client, uploader):
    page = client.get("/clubs").get_data(as_text=True)
    assert 'href="/clubs/import"' in page
    assert "Create a club from an export file" in page
    form = client.get("/clubs/import").get_data(as_text=True)
    assert 'enctype="multipart/form-data"' in form
    assert "Members are not imported: invite them" in form


def _field_error(response) -> str:
    """The error shown under the file field."""
    html = response.get_data(as_text=True)
    marker = 'id="file-error">'
    assert marker in html, html[:3000]
    start = html.index(marker) + len(marker)
    return unescape(html[start : html.index("</p>", start)]).strip()


def test_an_upload_without_the_forms_csrf_token_is_refused(app, client, source, uploader):
    """The view checks CSRF itself (after raising the size limit): no token, no club."""
    _before, document = source
    app.config["WTF_CSRF_ENABLED"] = True
    with app.app_context():
        before = counts()
    response = upload(client, as_json(document))
    assert response.status_code == 400
    with app.app_context():
        assert counts() == before
    page = client.get("/clubs/import").get_data(as_text=True)
    token = page.split('name="csrf_token" type="hidden" value="', 1)[1].split('"', 1)[0]
    response = client.post(
        "/clubs/import",
        data={"csrf_token": token, "file": (io.BytesIO(as_json(document)), "club.json")},
    )
    assert response.status_code == 200, text_of(response)[:500]
