"""Season fixtures: the clubs' small world of accounts, and the chart cache in a temp folder."""

import pytest
from clubs.helpers import make_world

from scorekeeper.services import seasons as season_service


@pytest.fixture
def app_config(app_config, tmp_path):
    return {**app_config, "CHART_CACHE_DIR": str(tmp_path / "charts")}


@pytest.fixture
def world(app):
    """A club with an owner, a scorer and a viewer, and another club's owner."""
    return make_world(app)


@pytest.fixture(autouse=True)
def _fresh_chart_memory():
    season_service.clear_memory()
    yield
    season_service.clear_memory()
