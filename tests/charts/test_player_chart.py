"""A player's chart: keyed by the figures it shows, drawn once per key, older files replaced."""

import pytest
from players.helpers import club_of, entry, make_league, play  # tests/ is on the path

from scorekeeper.charts import player as player_chart
from scorekeeper.charts.text import ChartText
from scorekeeper.services import players as player_service

from .helpers import chart_files

LABELS = ["Jan", "Feb", "Mar"]


@pytest.fixture
def league(app):
    return make_league(app)


@pytest.fixture
def ana(app, league):
    """Inside an app context: the club and Ana's months (Jan to Mar 2025)."""
    with app.app_context():
        club = club_of(league.club)
        yield club, player_service.monthly_averages(club, league.ana)


def test_chart_is_cached_by_content(app, league, ana, renders):
    club, points = ana
    svg, key = player_chart.chart_svg(club, league.ana, points, LABELS)
    again, same = player_chart.chart_svg(club, league.ana, points, LABELS)
    assert svg.startswith(b"<?xml") and b"<title>Average score per round</title>" in svg
    assert (again, same) == (svg, key)
    assert key == player_chart.chart_key(points, LABELS)
    assert renders == ["player_chart"]
    # A new game changes the data, hence the key; the older file goes.
    play(
        app,
        league.club,
        {"Ana": league.ana, "Dee": league.dee},
        [entry({"Ana": 0, "Dee": 5}, "Ana"), entry({"Ana": 0, "Dee": 5}, "Ana")],
    )
    newer = player_service.monthly_averages(club, league.ana)
    _svg, new_key = player_chart.chart_svg(club, league.ana, newer, [*LABELS, "Now"])
    assert new_key != key
    assert renders == ["player_chart", "player_chart"]
    (name,) = chart_files(app)
    assert new_key in name


def test_other_wording_is_another_chart_kept_beside_it(app, league, ana):
    club, points = ana
    _svg, english = player_chart.chart_svg(club, league.ana, points, LABELS)
    worded, other = player_chart.chart_svg(
        club, league.ana, points, LABELS, ChartText(player_title="Moyenne par manche")
    )
    assert other != english
    assert b"<title>Moyenne par manche</title>" in worded
    assert len(chart_files(app)) == 2  # a reader in each language keeps their own
