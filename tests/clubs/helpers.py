"""Club test helpers: accounts made as rows, a client signed in through Flask-Login's session,
clubs with members in each role, and a few readers of pages and the database."""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import unescape
from urllib.parse import urlsplit

from flask import Flask, url_for
from werkzeug.security import generate_password_hash

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Club, Membership, RosterPlayer, User, utcnow
from scorekeeper.services import accounts as account_service
from scorekeeper.services import club_games as club_game_service
from scorekeeper.services import clubs as club_service

PASSWORD = "correct horse battery staple"


def make_user(app: Flask, name: str, email: str | None = None) -> int:
    """An account row (no sign-up form needed); returns its id."""
    with app.app_context():
        user = User(
            name=name,
            email=email or f"{name.lower().replace(' ', '.')}@example.com",
            password_hash=generate_password_hash(PASSWORD, method="pbkdf2:sha256:1000"),
            # Confirmed: invites and ownership transfers need it (tests/accounts/test_links.py
            # covers the unconfirmed case).
            email_verified_at=utcnow(),
        )
        db.session.add(user)
        db.session.commit()
        return user.id


def sign_in(client, app: Flask, user_id: int) -> None:
    """Sign the test client in as this user, the way Flask-Login's session holds it."""
    with app.app_context():
        session_id = account_service.start_session(db.session.get(User, user_id))
    with client.session_transaction() as session:
        session["_user_id"] = session_id
        session["_fresh"] = True


def club(club_id: int) -> Club:
    """The club row (inside an application context)."""
    return db.session.get(Club, club_id)


def user(user_id: int) -> User:
    """The account row (inside an application context)."""
    return db.session.get(User, user_id)


def codes(error) -> list[str]:
    """The problem codes of a raised ClubError (a pytest.raises result)."""
    return [problem.code for problem in error.value.problems]


def make_club(app: Flask, owner_id: int, name: str = "Thursday Trains", **settings) -> int:
    """A club owned by `owner_id` (through the service), with optional settings; returns its id."""
    with app.app_context():
        club = club_service.create_club(db.session.get(User, owner_id), name)
        for key, value in settings.items():
            setattr(club, key, value)
        db.session.commit()
        return club.id


def add_member(app: Flask, club_id: int, user_id: int, role: str) -> None:
    with app.app_context():
        db.session.add(Membership(club_id=club_id, user_id=user_id, role=role))
        db.session.commit()


def add_roster(app: Flask, club_id: int, *names: str) -> list[int]:
    """Roster entries for these names; returns their ids."""
    with app.app_context():
        entries = [RosterPlayer(club_id=club_id, display_name=name) for name in names]
        db.session.add_all(entries)
        db.session.commit()
        return [entry.id for entry in entries]


def make_club_game(app: Flask, club_id: int, players: list[str]) -> int:
    """A club game through the service (roster names match roster entries); returns its id."""
    with app.app_context():
        club = db.session.get(Club, club_id)
        return club_game_service.create_club_game(club, players, core.GameRules()).id


def role_of(app: Flask, club_id: int, user_id: int) -> str | None:
    with app.app_context():
        user = db.session.get(User, user_id)
        return club_service.role_in(user, club_id)


def sign_in_url(app: Flask) -> str:
    """The sign-in page's path (whatever the accounts blueprint calls it)."""
    with app.test_request_context():
        return url_for(app.login_manager.login_view)


def assert_sign_in_redirect(app: Flask, response, back: str | None = None) -> None:
    """A redirect to the sign-in page, carrying the page to come back to."""
    assert response.status_code == 302, response.status_code
    location = urlsplit(response.headers["Location"])
    assert location.path == sign_in_url(app)
    if back is not None:
        assert f"next={back.replace('/', '%2F')}" in location.query


def flashes(client) -> list[str]:
    """The messages flashed to this client and not yet shown."""
    with client.session_transaction() as session:
        return [message for _category, message in session.get("_flashes", [])]


def messages_on(page: str) -> list[str]:
    """Flash messages, field errors and alerts shown on a page."""
    found = re.findall(r'class="(?:flash[^"]*|error)"[^>]*>([^<]*)<', page)
    found += re.findall(r'role="alert">\s*(?:<p>([^<]*)</p>)', page)
    return [unescape(text).strip() for text in found if text.strip()]


@dataclass(frozen=True)
class World:
    """A club with an owner, a scorer and a viewer, and another club with its own owner."""

    club: int
    other_club: int
    owner: int
    scorer: int
    viewer: int
    outsider: int
    ids: dict[str, int | None]

    def user(self, who: str) -> int | None:
        return self.ids[who]


def make_world(app: Flask) -> World:
    owner = make_user(app, "Olive Owner")
    scorer = make_user(app, "Sam Scorer")
    viewer = make_user(app, "Vera Viewer")
    outsider = make_user(app, "Otto Other")
    club = make_club(app, owner)
    other = make_club(app, outsider, "Other Club")
    add_member(app, club, scorer, "scorer")
    add_member(app, club, viewer, "viewer")
    ids = {
        "anonymous": None,
        "viewer": viewer,
        "scorer": scorer,
        "owner": owner,
        "other_owner": outsider,
    }
    return World(club, other, owner, scorer, viewer, outsider, ids)


def as_(client, app: Flask, world: World, who: str):
    """The client, signed in as `who` ('anonymous' stays signed out)."""
    user_id = world.user(who)
    if user_id is not None:
        sign_in(client, app, user_id)
    return client
