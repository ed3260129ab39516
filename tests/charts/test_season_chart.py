"""A season's chart: the leaders night by night end where the standings are, drawn once per data
version, and the y axis says what the season's method counts."""

import pytest
from clubs.helpers import make_world  # tests/ is on the path
from seasons.helpers import TODAY, hand_worked_season, play

from scorekeeper.charts import season as season_chart
from scorekeeper.extensions import db
from scorekeeper.models import Season
from scorekeeper.services import season_standings

from .helpers import chart_files


@pytest.fixture
def world(app):
    return make_world(app)


@pytest.mark.parametrize("method", ["placement_points", "games_won", "average"])
def test_chart_data_ends_where_the_standings_are(app, world, method):
    season_id, _ids, _games = hand_worked_season(app, world.club, method=method, min_games=2)
    with app.app_context():
        season = db.session.get(Season, season_id)
        data = season_chart.chart_data(season)
        table = season_standings.standings(season)
    assert data.names == [row.name for row in table.lines]
    assert data.nights == [TODAY.fromordinal(TODAY.toordinal() - 7), TODAY]
    last = {name: values[-1] for name, values in data.series.items()}
    if method == "placement_points":
        # After night 1: Ana 3 + 1.5, Ben 2 + 3, Cy 1 + 1.5, Di 0.
        assert data.series["Ben"] == [5, 6]
        assert data.series["Ana"] == [4.5, 4.5]
        assert last == {"Ben": 6, "Cy": 5.5, "Ana": 4.5, "Di": 0}
    elif method == "games_won":
        assert data.series["Cy"] == [0, 1]
    else:
        # Ben after night 1: (5 + 0) / 4 rounds = 1.25; after today: 21 / 6 = 3.5.
        assert data.series["Ben"] == [1.25, 3.5]
        assert data.higher_is_better is False


@pytest.mark.parametrize(
    ("method", "ylabel"),
    [("placement_points", b"Points"), ("games_won", b"Games won"), ("average", b"lower is better")],
)
def test_the_chart_says_what_the_method_counts(app, world, method, ylabel):
    season_id, _ids, _games = hand_worked_season(app, world.club, method=method, min_games=2)
    with app.test_request_context():  # dates written in the reader's language
        svg, _etag = season_chart.chart_svg(db.session.get(Season, season_id))
    assert b"<title>Standings after each club night or day of play</title>" in svg
    assert ylabel in svg


def test_a_new_data_version_replaces_the_seasons_chart(app, world, renders):
    season_id, ids, _games = hand_worked_season(app, world.club)
    with app.test_request_context():  # dates written in the reader's language
        first, etag = season_chart.chart_svg(db.session.get(Season, season_id))
        assert season_chart.chart_svg(db.session.get(Season, season_id)) == (first, etag)
    (old,) = chart_files(app)
    play(app, world.club, ("Di", "Ana"), [("Di", {"Ana": 9})] * 2, ids)
    with app.test_request_context():  # dates written in the reader's language
        changed, new_etag = season_chart.chart_svg(db.session.get(Season, season_id))
    assert renders == ["season_chart"] * 2
    assert (changed, new_etag) != (first, etag)
    (new,) = chart_files(app)
    assert new != old and new.startswith(f"season-{season_id}-")
