"""Club night fixtures: the clubs' small world of accounts, with nine players on the roster."""

import pytest
from clubs.helpers import add_roster, make_world

from .helpers import ROSTER


@pytest.fixture
def world(app):
    """A club with an owner, a scorer and a viewer (and another club's owner), and a roster."""
    world = make_world(app)
    ids = add_roster(app, world.club, *ROSTER)
    world.ids.update({f"roster:{name}": entry for name, entry in zip(ROSTER, ids, strict=True)})
    return world
