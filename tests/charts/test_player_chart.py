"""A player's chart: keyed by the figures it shows, drawn once per key, older files replaced."""

import pytest
from players.helpers import club_of, entry, make_league, play  # tests/ is on the path

from scorekeeper.charts import player as player_chart
from scorekeeper.charts.text import ChartText
from scorekeeper.services import players as player_service

from .helpers import chart_files


@pytest.fixture
def league(app):
    return make_league(app)


def test_chart_is_cached_by_content(app, league, renders):
    with app.app_context():
        club = club_of(league.club)
        points = player_service.monthly_averages(club, league.ana)
        labels = ["Jan", "Feb", "Mar"]
        svg, key = player_chart.chart_svg(club, league.ana, points, labels)
        again, same = player_chart.chart_svg(club, league.ana, points, labels)
        assert svg.startswith(b"<?xml") and b"<title>Average score per round</title>" in svg
        assert (again, same) == (svg, key)
        assert key == player_chart.chart_key(points, labels)
        assert renders == ["player_chart"]
        # A new game changes the data, hence the key; the older file goes.
        play(
            app,
            league.club,
            {"Ana": league.ana, "Dee": league.dee},
            [entry({"Ana": 0, "Dee": 5}, "Ana"), entry({"Ana": 0, "Dee": 5}, "Ana")],
        )
        newer = player_service.monthly_averages(club, league.ana)
        _svg, new_key = player_chart.chart_svg(club, league.ana, newer, [*labels, "Now"])
    assert new_key != key
    assert renders == ["player_chart", "player_chart"]
    (name,) = chart_files(app)
    assert new_key in name


def test_other_wording_is_another_chart_kept_beside_it(app, league, renders):
    with app.app_context():
        club = club_of(league.club)
        points = player_service.monthly_averages(club, league.ana)
        labels = ["Jan", "Feb", "Mar"]
        _svg, english = player_chart.chart_svg(club, league.ana, points, labels)
        worded, other = player_chart.chart_svg(
            club, league.ana, points, labels, ChartText(player_title="Moyenne par manche")
        )
    assert other != english
    assert b"<title>Moyenne par manche</title>" in worded
    assert len(chart_files(app)) == 2  # a reader in each language keeps their own
