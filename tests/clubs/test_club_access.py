"""The authorization matrix (access): every club route that changes something, and the
pages, for anonymous, viewer, scorer, owner and another club's owner.

Signed out: sent to sign in. Not a member (another club's owner): 404, so a club's existence
does not leak. A member whose role is too low: 403. The right role: the change is made.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

import pytest
from sqlalchemy import func, select

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import (
    Club,
    ClubNight,
    Game,
    Invite,
    Membership,
    Player,
    RosterPlayer,
    Round,
    Season,
)
from scorekeeper.services import clubs as club_service
from scorekeeper.services import export_json
from scorekeeper.services import games as game_service

from .helpers import (
    World,
    add_roster,
    as_,
    assert_sign_in_redirect,
    make_club_game,
    make_world,
    role_of,
)

WHO = ["anonymous", "viewer", "scorer", "owner", "other_owner"]
RANK = {"viewer": 0, "scorer": 1, "owner": 2}


def expected(who: str, needed: str) -> str | int:
    """What `who` gets from a route that needs `needed`."""
    if who == "anonymous":
        return "sign in"
    if who == "other_owner":
        return 404
    return "done" if RANK[who] >= RANK[needed] else 403


@dataclass
class Setup:
    """The world plus what the routes act on: roster entries, an archived one, an invite, a game."""

    world: World
    ana: int
    ben: int
    gone: int
    invite: int
    game: int
    season: int
    empty_night: int  # no round recorded at its table
    played_night: int  # a round recorded at its table
    cy_seats: str = ""  # guest seats named as a roster player added after the games (Cy)


def build(app) -> Setup:
    world = make_world(app)
    ana, ben, gone = add_roster(app, world.club, "Ana", "Ben", "Gus")
    game = make_club_game(app, world.club, ["Ana", "Cy"])
    empty_game = make_club_game(app, world.club, ["Ana", "Dot"])
    played_game = make_club_game(app, world.club, ["Ben", "Cy"])
    with app.app_context():
        db.session.get(RosterPlayer, gone).archived = True
        club = db.session.get(Club, world.club)
        invite = club_service.create_invite(club, club.memberships[0].user, "viewer", 7).id
        day = date(2025, 6, 3)
        season = Season(club_id=club.id, name="Summer", starts_on=day, ends_on=day)
        nights = [ClubNight(club_id=club.id, played_on=day) for _ in range(2)]
        db.session.add_all([season, *nights])
        db.session.flush()
        db.session.get(Game, empty_game).club_night_id = nights[0].id
        db.session.get(Game, played_game).club_night_id = nights[1].id
        db.session.commit()
        hands = {"Ben": core.HandEntry(0), "Cy": core.HandEntry(12)}
        game_service.record_round(
            db.session.get(Game, played_game), core.RoundEntry(hands, out="Ben")
        )
        ids = season.id, nights[0].id, nights[1].id
    add_roster(app, world.club, "Cy")  # after the games: their Cy seats are guests to link
    with app.app_context():
        guests = select(Player.id).where(Player.name == "Cy").order_by(Player.id)
        cy_seats = ",".join(str(seat) for seat in db.session.execute(guests).scalars())
    return Setup(world, ana, ben, gone, invite, game, *ids, cy_seats)


def gone(app, model, row_id: int) -> bool:
    return scalar(app, select(model.id).where(model.id == row_id)) is None


def scalar(app, query):
    with app.app_context():
        return db.session.execute(query).scalar_one_or_none()


@dataclass
class Case:
    """A POST route: who may use it, what to send, and how to tell it was done."""

    name: str
    needed: str
    request: Callable[[Setup], tuple[str, dict]]
    done: Callable[[object, Setup], bool]


CASES = [
    Case(
        "settings",
        "owner",
        lambda s: (
            f"/clubs/{s.world.club}/settings",
            {
                "name": "Renamed",
                "set_size": "9",
                "blank_scoring": "face",
                "order": "descending",
                "open_train_points": "0",
                "public": "y",
            },
        ),
        lambda app, s: scalar(app, select(Club.name).where(Club.id == s.world.club)) == "Renamed",
    ),
    Case(
        "change_role",
        "owner",
        lambda s: (f"/clubs/{s.world.club}/members/{s.world.viewer}/role", {"role": "scorer"}),
        lambda app, s: role_of(app, s.world.club, s.world.viewer) == "scorer",
    ),
    Case(
        "remove_member",
        "owner",
        lambda s: (f"/clubs/{s.world.club}/members/{s.world.viewer}/remove", {}),
        lambda app, s: role_of(app, s.world.club, s.world.viewer) is None,
    ),
    Case(
        "transfer",
        "owner",
        lambda s: (f"/clubs/{s.world.club}/transfer", {"user_id": str(s.world.scorer)}),
        lambda app, s: role_of(app, s.world.club, s.world.scorer) == "owner",
    ),
    Case(
        "create_invite",
        "owner",
        lambda s: (f"/clubs/{s.world.club}/invites", {"role": "scorer", "days": "1"}),
        lambda app, s: scalar(app, select(func.count(Invite.id))) == 2,
    ),
    Case(
        "revoke_invite",
        "owner",
        lambda s: (f"/clubs/{s.world.club}/invites/{s.invite}/revoke", {}),
        lambda app, s: (
            scalar(app, select(Invite.revoked_at).where(Invite.id == s.invite)) is not None
        ),
    ),
    Case(
        "add_player",
        "scorer",
        lambda s: (f"/clubs/{s.world.club}/roster", {"display_name": "Dot", "user_id": ""}),
        lambda app, s: (
            scalar(app, select(RosterPlayer.id).where(RosterPlayer.display_name == "Dot"))
            is not None
        ),
    ),
    Case(
        "edit_player",
        "scorer",
        lambda s: (f"/clubs/{s.world.club}/roster/{s.ana}", {"display_name": "Anna"}),
        lambda app, s: (
            scalar(app, select(RosterPlayer.display_name).where(RosterPlayer.id == s.ana)) == "Anna"
        ),
    ),
    Case(
        "archive_player",
        "scorer",
        lambda s: (f"/clubs/{s.world.club}/roster/{s.ben}/archive", {}),
        lambda app, s: scalar(app, select(RosterPlayer.archived).where(RosterPlayer.id == s.ben)),
    ),
    Case(
        "unarchive_player",
        "scorer",
        lambda s: (f"/clubs/{s.world.club}/roster/{s.gone}/unarchive", {}),
        lambda app, s: (
            not scalar(app, select(RosterPlayer.archived).where(RosterPlayer.id == s.gone))
        ),
    ),
    Case(
        "merge_players",
        "scorer",
        lambda s: (
            f"/clubs/{s.world.club}/roster/merge",
            {"keep": str(s.ana), "drop": str(s.ben)},
        ),
        lambda app, s: (
            scalar(app, select(RosterPlayer.merged_into_id).where(RosterPlayer.id == s.ben))
            == s.ana
        ),
    ),
    Case(
        "new_game",
        "scorer",
        lambda s: (
            f"/clubs/{s.world.club}/games/new",
            {"players-0": "Ana", "players-1": "Ben", "game_type": "mexican_train"},
        ),
        lambda app, s: (
            scalar(app, select(func.count(Game.id)).where(Game.club_night_id.is_(None))) == 2
        ),
    ),
    Case(
        "link_guests",
        "owner",
        lambda s: (f"/clubs/{s.world.club}/guests", {"seats": s.cy_seats}),
        lambda app, s: (
            scalar(
                app,
                select(Player.roster_player_id).where(
                    Player.game_id == s.game, Player.name == "Cy"
                ),
            )
            is not None
        ),
    ),
    Case(
        "leave",
        "viewer",
        lambda s: (f"/clubs/{s.world.club}/leave", {}),
        lambda app, s: scalar(app, select(func.count(Membership.id))) == 4 - 1,
    ),
    Case(
        "record_round (games)",
        "scorer",
        lambda s: (
            f"/games/{s.game}/rounds",
            {
                "number": "1",
                "mode_0": "pips",
                "pips_0": "",
                "mode_1": "pips",
                "pips_1": "12",
                "out": "0",
            },
        ),
        lambda app, s: (
            scalar(app, select(func.count(Round.id)).where(Round.game_id == s.game)) == 1
        ),
    ),
    Case(
        "delete_season (seasons)",
        "scorer",
        lambda s: (f"/clubs/{s.world.club}/seasons/{s.season}/delete", {}),
        lambda app, s: gone(app, Season, s.season),
    ),
    Case(
        "delete_night, no round (nights)",
        "scorer",
        lambda s: (f"/clubs/{s.world.club}/nights/{s.empty_night}/delete", {}),
        lambda app, s: gone(app, ClubNight, s.empty_night),
    ),
    Case(
        "delete_night, rounds recorded (nights)",
        "owner",
        lambda s: (f"/clubs/{s.world.club}/nights/{s.played_night}/delete", {}),
        lambda app, s: gone(app, ClubNight, s.played_night),
    ),
    Case(
        "delete_club",
        "owner",
        lambda s: (f"/clubs/{s.world.club}/delete", {"name": "Thursday Trains"}),
        lambda app, s: gone(app, Club, s.world.club),
    ),
]


@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_post_routes_answer_by_role(app, client, case, who):
    setup = build(app)
    path, data = case.request(setup)
    response = as_(client, app, setup.world, who).post(path, data=data)
    answer = expected(who, case.needed)
    if case.name == "leave" and who == "owner":
        answer = "refused"  # the owner transfers ownership first
    if answer == "sign in":
        assert_sign_in_redirect(app, response)
        assert not case.done(app, setup)
    elif answer == "done":
        assert response.status_code == 302, response.get_data(as_text=True)[:2000]
        assert case.done(app, setup)
    elif answer == "refused":
        assert response.status_code == 302
        assert response.headers["Location"] == f"/clubs/{setup.world.club}"
        assert not case.done(app, setup)
    else:
        assert response.status_code == answer
        assert not case.done(app, setup)


@pytest.mark.parametrize("who", WHO)
def test_anyone_signed_in_may_start_a_club(app, client, world, who):
    response = as_(client, app, world, who).post("/clubs/new", data={"name": "New one"})
    made = scalar(app, select(Club.id).where(Club.name == "New one"))
    if who == "anonymous":
        assert_sign_in_redirect(app, response, "/clubs/new")
        assert made is None
    else:
        assert response.headers["Location"] == f"/clubs/{made}"
        assert role_of(app, made, world.user(who)) == "owner"


@pytest.mark.parametrize("who", WHO)
def test_anyone_signed_in_may_create_a_club_from_an_export_file(app, client, world, who):
    """/clubs/import: the page and the upload need only a (confirmed) account; the uploader owns
    the new club whatever their role elsewhere (an unconfirmed address: test_club_import_views)."""
    with app.app_context():
        document = export_json.export_club_json(world.club)
    document["club"].update(name="From a file", public_token="f" * 22)
    content = export_json.dumps(document).encode()
    client = as_(client, app, world, who)
    page = client.get("/clubs/import")
    response = client.post("/clubs/import", data={"file": (io.BytesIO(content), "club.json")})
    made = scalar(app, select(Club.id).where(Club.name == "From a file"))
    if who == "anonymous":
        assert_sign_in_redirect(app, page, "/clubs/import")
        assert_sign_in_redirect(app, response, "/clubs/import")
        assert made is None
    else:
        assert page.status_code == 200
        assert response.status_code == 200, response.get_data(as_text=True)[:2000]
        assert role_of(app, made, world.user(who)) == "owner"
        members = scalar(app, select(func.count(Membership.id)).where(Membership.club_id == made))
        assert members == 1


@pytest.mark.parametrize("who", WHO)
def test_an_invite_link_is_for_anyone_signed_in(app, client, who):
    setup = build(app)
    with app.app_context():
        token = db.session.get(Invite, setup.invite).token
    response = as_(client, app, setup.world, who).post(f"/invite/{token}")
    if who == "anonymous":
        assert_sign_in_redirect(app, response, f"/invite/{token}")
        return
    assert response.headers["Location"] == f"/clubs/{setup.world.club}"
    before = {"viewer": "viewer", "scorer": "scorer", "owner": "owner", "other_owner": None}[who]
    # A viewer invite never lowers a role; a newcomer joins as viewer.
    assert role_of(app, setup.world.club, setup.world.user(who)) == (before or "viewer")


@pytest.mark.parametrize("who", WHO)
def test_moving_a_quick_game_needs_scorer_in_the_target_club(app, client, world, who):
    client = as_(client, app, world, who)
    started = client.post(
        "/games/new",
        data={"players-0": "Ana", "players-1": "Ben", "game_type": "mexican_train"},
    )
    game_id = int(started.headers["Location"].rsplit("/", 1)[1])
    response = client.post(f"/games/{game_id}/move", data={"club_id": str(world.club)})
    club_id = scalar(app, select(Game.club_id).where(Game.id == game_id))
    answer = expected(who, "scorer")
    if answer == "sign in":
        assert_sign_in_redirect(app, response, f"/games/{game_id}")
    elif answer == "done":
        assert response.headers["Location"] == f"/games/{game_id}"
        assert club_id == world.club
        return
    else:
        assert response.status_code == answer
    assert club_id is None


# Pages -----------------------------------------------------------------------------------------

PAGES = [
    ("detail", "viewer", lambda s: f"/clubs/{s.world.club}"),
    ("roster", "viewer", lambda s: f"/clubs/{s.world.club}/roster"),
    ("settings", "owner", lambda s: f"/clubs/{s.world.club}/settings"),
    ("members", "owner", lambda s: f"/clubs/{s.world.club}/members"),
    ("invites", "owner", lambda s: f"/clubs/{s.world.club}/invites"),
    ("edit_player", "scorer", lambda s: f"/clubs/{s.world.club}/roster/{s.ana}"),
    ("new_game", "scorer", lambda s: f"/clubs/{s.world.club}/games/new"),
    ("guests", "owner", lambda s: f"/clubs/{s.world.club}/guests"),
    ("game page (games.detail)", "viewer", lambda s: f"/games/{s.game}"),
    ("history", "viewer", lambda s: f"/clubs/{s.world.club}/history"),
    ("delete_club", "owner", lambda s: f"/clubs/{s.world.club}/delete"),
    ("delete_season", "scorer", lambda s: f"/clubs/{s.world.club}/seasons/{s.season}/delete"),
    ("delete_night", "scorer", lambda s: f"/clubs/{s.world.club}/nights/{s.empty_night}/delete"),
    (
        "delete_night, rounds recorded",
        "owner",
        lambda s: f"/clubs/{s.world.club}/nights/{s.played_night}/delete",
    ),
]


@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize("page", PAGES, ids=[page[0] for page in PAGES])
def test_pages_answer_by_role(app, client, page, who):
    setup = build(app)
    _name, needed, path = page
    response = as_(client, app, setup.world, who).get(path(setup))
    answer = expected(who, needed)
    if answer == "sign in":
        assert_sign_in_redirect(app, response, path(setup))
    elif answer == "done":
        assert response.status_code == 200
    else:
        assert response.status_code == answer


@pytest.mark.parametrize("who", WHO)
def test_game_page_offers_the_round_form_to_scorers_only(app, client, who):
    setup = build(app)
    response = as_(client, app, setup.world, who).get(f"/games/{setup.game}")
    if expected(who, "viewer") == "done":
        page = response.get_data(as_text=True)
        assert ("Save round" in page) == (expected(who, "scorer") == "done")


@pytest.mark.parametrize("public", [True, False])
@pytest.mark.parametrize("who", WHO)
def test_public_page_is_open_to_all_only_when_on(app, client, who, public):
    setup = build(app)
    with app.app_context():
        club = db.session.get(Club, setup.world.club)
        club.public = public
        token = club.public_token
        view_token = db.session.get(Game, setup.game).view_token
        db.session.commit()
    client = as_(client, app, setup.world, who)
    response = client.get(f"/c/{token}")
    share = client.get(f"/s/{view_token}")
    if public:
        assert response.status_code == 200
        assert "Thursday Trains" in response.get_data(as_text=True)
        assert f"/s/{view_token}" in response.get_data(as_text=True)
        assert share.status_code == 200
    else:
        assert response.status_code == 404
        assert share.status_code == 404
