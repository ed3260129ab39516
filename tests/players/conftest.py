"""Player fixtures: the hand-worked league of tests/players/helpers.py."""

import pytest

from .helpers import make_league


@pytest.fixture
def league(app):
    return make_league(app)
