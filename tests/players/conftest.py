"""Player fixtures: the hand-worked league of tests/players/helpers.py."""

import pytest

from .helpers import make_league


@pytest.fixture
def league(app):
    return make_league(app)


@pytest.fixture(autouse=True)
def _chart_cache(app, tmp_path):
    """Charts go to this test's own folder, and the in-process cache starts empty."""
    from scorekeeper.services import players as player_service

    app.config["CHART_CACHE_DIR"] = str(tmp_path / "charts")
    player_service.clear_memory()
    yield
    player_service.clear_memory()
