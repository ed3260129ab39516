"""No input produces a 500: generated junk posted to the season forms gets a clear answer, and
the seasons left behind still have a name and dates in order."""

from __future__ import annotations

from clubs.helpers import make_world, sign_in
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.extensions import db
from scorekeeper.models import Season

from .helpers import make_season, play, roster

JUNK_SETTINGS = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
KEYS = [
    "name",
    "starts_on",
    "ends_on",
    "method",
    "min_games",
    "points_table",
    "set_size",
    "blank_scoring",
    "rounds",
    "season_id",
    "submit",
]
text = st.text(max_size=40) | st.sampled_from(
    ["", "0", "-1", "3", "9", "2025-01-01", "2025-02-30", "0001-01-01", "9999-12-31",
     "99999999999", "average", "games_won", "placement_points", "blank_25", "3,2,1", "1,",
     "\x00", "６", "¹", "2²"]
)  # fmt: skip
PATHS = [
    "/clubs/{club}/seasons/new",
    "/clubs/{club}/seasons/{season}/edit",
    "/clubs/{club}/seasons/{season}/games/{game}/move",
    "/clubs/{club}/seasons/{season}/games/99999/move",
    "/clubs/{club}/seasons/99999/edit",
]


@JUNK_SETTINGS
@given(
    data=st.dictionaries(st.sampled_from(KEYS), text | st.lists(text, max_size=3), max_size=9),
    path=st.sampled_from(PATHS),
    page=st.integers(min_value=-(2**40), max_value=2**40),
)
def test_junk_posted_to_season_forms_never_fails(app, client, data, path, page):
    if not hasattr(app, "_junk_world"):
        world = make_world(app)
        season = make_season(app, world.club)
        make_season(app, world.club, "Other")
        ids = roster(app, world.club, "Ana", "Ben")
        game = play(app, world.club, ("Ana", "Ben"), [("Ana", {"Ben": 3})] * 2, ids)
        app._junk_world = (world, {"club": world.club, "season": season, "game": game})
    world, ids = app._junk_world
    sign_in(client, app, world.scorer)
    response = client.post(path.format(**ids), data=data)
    assert response.status_code < 500, response.get_data(as_text=True)[:500]
    season_page = f"/clubs/{world.club}/seasons/{ids['season']}?page={page}"
    assert client.get(season_page).status_code == 200
    with app.app_context():
        for season in db.session.execute(db.select(Season)).scalars():
            assert season.name and season.starts_on <= season.ends_on
