"""No input produces a 500: generated junk posted to every form (games, clubs, club nights,
seasons) gets a clear answer, and what it leaves behind still holds together (a club keeps its
one owner; a season keeps a name and its dates in order); junk in a game's or a club's links
too. (Junk ids in every route: test_route_junk.py; junk API bodies: api/test_api_junk.py.)

One test, parametrized by area: each area names the fields its forms read (plus some they do
not) and the paths it posts to; the rows they post against come from the test factories."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Club, Season
from scorekeeper.services import games as game_service
from tests.clubs.helpers import add_roster, make_club_game, make_world, sign_in
from tests.helpers import load_game
from tests.nights.helpers import ROSTER, start
from tests.seasons.helpers import make_season, play

DEVICE = "junk-test-device-0123456789abcdef"
JUNK_SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
text = st.text(max_size=40) | st.sampled_from(
    ["", "0", "-1", "1", "2", "3", "9", "13", "99999999999", "1.5", "y", "yes", "\x00", "６",
     "¹", "2²", "owner", "scorer", "viewer", "12-12", "blocked", "tiles", "pips", "keep",
     "replace", "next", "2025-06-03", "2025-02-30", "0001-01-01", "9999-12-31", "average",
     "games_won", "placement_points", "blank_25", "3,2,1", "1,"]
)  # fmt: skip

SETUP_KEYS = [
    *("players-0", "players-1", "players-2", "players-13", "players-20", "players-99"),
    *("game_type", "set_size", "hand_size", "start_double", "rounds", "order", "blank_scoring"),
    *("partners", "target", "add_player", "submit", "played_on"),
    *(rule.name for rule in core.HOUSE_RULES),
]


@dataclass(frozen=True)
class Area:
    """The fields an area's forms read and the paths they post to ({club}, {game}... are the
    ids of the rows the factories made)."""

    keys: tuple[str, ...]
    paths: tuple[str, ...]


AREAS = {
    "games": Area(
        (
            *SETUP_KEYS,
            *("number", "round_version", "out", "confirm", "pips_0", "pips_1", "pips_2"),
            *("pips_9", "mode_0", "mode_1", "tiles_0", "tiles_1", "open_train_0"),
            *("strategic_1", "adjust_0", "reason_0", "choice", "show_tiles"),
        ),
        (
            "/games/new",
            *("/games/{quick}/rounds", "/games/{quick}/rounds/1/edit", "/games/{quick}/undo"),
            *("/games/{quick}/end", "/games/{quick}/rounds/7/edit", "/games/{quick}/reopen"),
            "/games/{quick}/rounds/1/conflict",
        ),
    ),
    "table": Area(
        ("round", "player", "mode", "pips", "tiles", "photo", "csrf_token"),
        ("/t/{table}/hand", "/t/{table}/photo", "/t/{club_table}/hand"),
    ),
    "clubs": Area(
        (
            *SETUP_KEYS,
            *("name", "public", "role", "days", "user_id", "display_name", "keep", "drop"),
            *("club_id", "seats"),
        ),
        (
            "/clubs/new",
            "/clubs/{club}/settings",
            *("/clubs/{club}/members/{viewer}/role", "/clubs/{club}/members/{viewer}/remove"),
            *("/clubs/{club}/members/999/role", "/clubs/{club}/transfer", "/clubs/{club}/leave"),
            *("/clubs/{club}/invites", "/clubs/{club}/invites/1/revoke"),
            *("/clubs/{club}/roster", "/clubs/{club}/roster/{ana}"),
            *("/clubs/{club}/roster/{ana}/archive", "/clubs/{club}/roster/{ana}/unarchive"),
            *("/clubs/{club}/roster/merge", "/clubs/{club}/games/new"),
            *("/games/{game}/move", "/games/999/move", "/clubs/{club}/guests"),
        ),
    ),
    "nights": Area(
        (
            *("played_on", "name", "tables", "guest_rows", "add_guest", "shuffle", "submit"),
            *("here_1", "table_1", "here_2", "table_2", "guest_0", "guest_table_0"),
            *("guest_30", "roster", "guest", "rule"),
        ),
        ("/clubs/{club}/nights/new", "/games/{night_game}/late", "/clubs/{club}/late-rule"),
    ),
    "seasons": Area(
        (
            *("name", "starts_on", "ends_on", "method", "min_games", "points_table"),
            *("set_size", "blank_scoring", "rounds", "season_id", "submit"),
        ),
        (
            "/clubs/{club}/seasons/new",
            "/clubs/{club}/seasons/{season}/edit",
            "/clubs/{club}/seasons/{season}/games/{season_game}/move",
            "/clubs/{club}/seasons/{season}/games/99999/move",
            "/clubs/{club}/seasons/99999/edit",
        ),
    ),
}


@dataclass(frozen=True)
class World:
    users: dict[str, int]
    ids: dict[str, int | str]


def build_world(app: Flask) -> World:
    """A club with its owner, scorer and viewer, a roster, a club game, a season with a game, a
    club night's game, and a quick game this test's phone scores (one round in)."""
    world = make_world(app)
    roster = dict(zip(ROSTER, add_roster(app, world.club, *ROSTER), strict=True))
    game = make_club_game(app, world.club, ["Ana", "Bo"])
    season = make_season(app, world.club)
    make_season(app, world.club, "Other")
    season_game = play(app, world.club, ("Ana", "Ben"), [("Ana", {"Ben": 3})] * 2, roster)
    night_game = start(app, world.club, [["Cy", "Di"]])[1][0]
    with app.app_context():
        every_house_rule = {
            rule.name: True if rule.is_switch else rule.words.offered[-1]
            for rule in core.HOUSE_RULES
        }
        rules = core.GameRules(house_rules=core.house_rules_from(every_house_rule))
        quick = game_service.create_game(["Ana", "Ben", "Cy"], rules, device=DEVICE).id
        hands = {"Ana": core.HandEntry(0), "Ben": core.HandEntry(5), "Cy": core.HandEntry(7)}
        entry = core.RoundEntry(hands, out="Ana")
        game_service.record_round(load_game(quick), entry, device=DEVICE)
        tables = {"table": load_game(quick).table_token, "club_table": load_game(game).table_token}
    users = {"owner": world.owner, "scorer": world.scorer, "viewer": world.viewer}
    ids = {"club": world.club, "viewer": world.viewer, "ana": roster["Ana"], "game": game}
    ids |= {"season": season, "season_game": season_game, "night_game": night_game}
    return World(users, {**ids, "quick": quick, **tables})


def assert_answered(response) -> None:
    assert response.status_code < 500, response.get_data(as_text=True)[:500]
    if 400 <= response.status_code < 500:
        page = response.get_data(as_text=True)
        assert 'class="error"' in page or "alert" in page or "<h1" in page


@pytest.mark.parametrize("area", AREAS)
@JUNK_SETTINGS
@given(
    data=st.data(),
    who=st.sampled_from(["owner", "scorer", "viewer"]),
    page=st.integers(min_value=-(2**40), max_value=2**40),
)
def test_junk_posted_to_any_form_never_fails(app, client, area, data, who, page):
    if not hasattr(app, "_junk_world"):
        app._junk_world = build_world(app)
    world: World = app._junk_world
    keys, paths = AREAS[area].keys, AREAS[area].paths
    form = data.draw(
        st.dictionaries(st.sampled_from(keys), text | st.lists(text, max_size=4), max_size=12)
    )
    path = data.draw(st.sampled_from(paths))
    client.set_cookie("sk_device", DEVICE)
    sign_in(client, app, world.users[who])
    assert_answered(client.post(path.format(**world.ids), data=form))
    season_page = f"/clubs/{world.ids['club']}/seasons/{world.ids['season']}?page={page}"
    answer = client.get(season_page)
    with app.app_context():
        club = db.session.get(Club, world.ids["club"])
        # The examples share one club: an earlier one may have made this user leave it.
        member = world.users[who] in {m.user_id for m in club.memberships}
        assert answer.status_code == (200 if member else 404)
        assert [m.role for m in club.memberships].count("owner") == 1
        for season in db.session.execute(db.select(Season)).scalars():
            assert season.name and season.starts_on <= season.ends_on


LINK_TOKEN = st.text(min_size=1, max_size=80).filter(lambda t: "/" not in t and "?" not in t)


@JUNK_SETTINGS
@given(token=LINK_TOKEN, query=st.dictionaries(st.sampled_from(["blank", "v", "x"]), text))
def test_junk_game_links_never_fail(client, token, query):
    for path in (f"/s/{token}", f"/e/{token}", f"/s/{token}/live", f"/s/{token}/print",
                 f"/t/{token}", f"/t/{token}/live"):  # fmt: skip
        assert_answered(client.get(path, query_string=query))
    for path in ("/games/1/print", "/games/999999"):
        assert_answered(client.get(path, query_string=query))


@JUNK_SETTINGS
@given(token=LINK_TOKEN)
def test_junk_club_links_never_fail(app, client, token):
    if not hasattr(app, "_junk_user"):
        app._junk_user = make_world(app).viewer
    for path in (f"/c/{token}", f"/invite/{token}"):
        assert_answered(client.get(path))
    sign_in(client, app, app._junk_user)
    assert_answered(client.get(f"/invite/{token}"))
    assert_answered(client.post(f"/invite/{token}"))
