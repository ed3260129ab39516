"""No input produces a 500: generated junk posted to every club form gets a clear answer."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.extensions import db
from scorekeeper.models import Club

from .helpers import add_roster, make_club_game, make_world, sign_in

JUNK_SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
KEYS = [
    "name",
    "set_size",
    "blank_scoring",
    "rounds",
    "order",
    "open_train_points",
    "strategic_error",
    "adjustments",
    "public",
    "role",
    "days",
    "user_id",
    "display_name",
    "keep",
    "drop",
    "club_id",
    "players-0",
    "players-1",
    "players-20",
    "game_type",
    "partners",
    "hand_size",
    "start_double",
    "target",
    "add_player",
    "submit",
]
text = st.text(max_size=50) | st.sampled_from(
    [
        "",
        "0",
        "-1",
        "1",
        "2",
        "3",
        "99999999999",
        "owner",
        "scorer",
        "viewer",
        "y",
        "\x00",
        "６",
        "¹",
    ]
)
PATHS = [
    "/clubs/new",
    "/clubs/{club}/settings",
    "/clubs/{club}/members/{viewer}/role",
    "/clubs/{club}/members/{viewer}/remove",
    "/clubs/{club}/members/999/role",
    "/clubs/{club}/transfer",
    "/clubs/{club}/leave",
    "/clubs/{club}/invites",
    "/clubs/{club}/invites/1/revoke",
    "/clubs/{club}/roster",
    "/clubs/{club}/roster/{ana}",
    "/clubs/{club}/roster/{ana}/archive",
    "/clubs/{club}/roster/{ana}/unarchive",
    "/clubs/{club}/roster/merge",
    "/clubs/{club}/games/new",
    "/games/{game}/move",
    "/games/999/move",
]


def assert_answered(response) -> None:
    assert response.status_code < 500, response.get_data(as_text=True)[:500]
    if 400 <= response.status_code < 500:
        page = response.get_data(as_text=True)
        assert 'class="error"' in page or "alert" in page or "<h1" in page


@JUNK_SETTINGS
@given(
    data=st.dictionaries(st.sampled_from(KEYS), text | st.lists(text, max_size=3), max_size=10),
    path=st.sampled_from(PATHS),
    who=st.sampled_from(["owner", "scorer", "viewer"]),
)
def test_junk_posted_to_club_forms_never_fails(app, client, data, path, who):
    if not hasattr(app, "_junk_world"):
        world = make_world(app)
        (ana,) = add_roster(app, world.club, "Ana")
        game = make_club_game(app, world.club, ["Ana", "Bo"])
        app._junk_world = (
            world,
            {"club": world.club, "viewer": world.viewer, "ana": ana, "game": game},
        )
    world, ids = app._junk_world
    sign_in(client, app, world.user(who))
    assert_answered(client.post(path.format(**ids), data=data))
    with app.app_context():  # junk never leaves the club without its owner
        club = db.session.get(Club, world.club)
        assert [m.role for m in club.memberships].count("owner") == 1


@JUNK_SETTINGS
@given(token=st.text(min_size=1, max_size=80).filter(lambda t: "/" not in t and "?" not in t))
def test_junk_links_never_fail(app, client, token):
    if not hasattr(app, "_junk_user"):
        app._junk_user = make_world(app).viewer
    for path in (f"/c/{token}", f"/invite/{token}"):
        assert_answered(client.get(path))
    sign_in(client, app, app._junk_user)
    assert_answered(client.get(f"/invite/{token}"))
    assert_answered(client.post(f"/invite/{token}"))
