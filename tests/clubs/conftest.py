"""Club fixtures: a small world of accounts and clubs; a club and its people for service tests."""

import pytest

from .helpers import add_member, make_club, make_user, make_world


@pytest.fixture
def world(app):
    """A club with an owner, a scorer and a viewer, and another club's owner."""
    return make_world(app)


@pytest.fixture
def ctx(app):
    """An application context, for calling services directly."""
    with app.app_context():
        yield


@pytest.fixture
def people(app):
    """Four accounts by name: Olive (owner), Sam (scorer), Vera (viewer), Otto (no member)."""
    return {name: make_user(app, name) for name in ("Olive", "Sam", "Vera", "Otto")}


@pytest.fixture
def club_id(app, people):
    """Olive's club, with Sam as scorer and Vera as viewer."""
    club = make_club(app, people["Olive"])
    add_member(app, club, people["Sam"], "scorer")
    add_member(app, club, people["Vera"], "viewer")
    return club
