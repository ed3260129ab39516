"""Season fixtures: the clubs' small world of accounts."""

import pytest
from clubs.helpers import make_world


@pytest.fixture
def world(app):
    """A club with an owner, a scorer and a viewer, and another club's owner."""
    return make_world(app)
