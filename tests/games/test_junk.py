"""No input produces a 500: generated junk posted to every game-night form gets a clear answer."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.services import games as game_service
from tests.helpers import load_game

DEVICE = "junk-test-device-0123456789abcdef"
JUNK_SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Field names the forms read, plus some they do not: values are any short text.
SETUP_KEYS = [
    "players-0",
    "players-1",
    "players-2",
    "players-13",
    "players-99",
    "game_type",
    "set_size",
    "hand_size",
    "start_double",
    "rounds",
    "order",
    "blank_scoring",
    "partners",
    "open_train_points",
    "strategic_error",
    "adjustments",
    "target",
    "add_player",
    "submit",
]
ROUND_KEYS = [
    "number",
    "round_version",
    "out",
    "confirm",
    "pips_0",
    "pips_1",
    "pips_2",
    "pips_9",
    "mode_0",
    "mode_1",
    "tiles_0",
    "tiles_1",
    "open_train_0",
    "strategic_1",
    "adjust_0",
    "reason_0",
    "submit",
    "choice",
]
text = st.text(max_size=30) | st.sampled_from(
    [
        "",
        "0",
        "-1",
        "99999999999",
        "12-12",
        "blocked",
        "tiles",
        "pips",
        "yes",
        "keep",
        "replace",
        "next",
        "1.5",
        "\x00",
        "６",
        "¹",
        "2²",
    ]
)


def form_data(keys: list[str]):
    return st.dictionaries(st.sampled_from(keys), text | st.lists(text, max_size=4), max_size=12)


def make_game(app) -> tuple[int, str]:
    with app.app_context():
        rules = core.GameRules(
            house_rules=core.HouseRules(
                open_train_points=10, strategic_error=True, adjustments=True
            )
        )
        game = game_service.create_game(["Ana", "Ben", "Cy"], rules, device=DEVICE)
        game = load_game(game.id)
        entry = core.RoundEntry(
            {"Ana": core.HandEntry(0), "Ben": core.HandEntry(5), "Cy": core.HandEntry(7)},
            out="Ana",
        )
        game_service.record_round(game, entry, device=DEVICE)
        return game.id, db.session.get(Game, game.id).view_token


def assert_answered(response) -> None:
    assert response.status_code < 500, response.get_data(as_text=True)[:500]
    if 400 <= response.status_code < 500:
        page = response.get_data(as_text=True)
        assert 'class="error"' in page or "alert" in page or "<h1" in page


@JUNK_SETTINGS
@given(data=form_data(SETUP_KEYS))
def test_junk_setup_never_fails(client, data):
    assert_answered(client.post("/games/new", data=data))


@JUNK_SETTINGS
@given(
    data=form_data(ROUND_KEYS),
    path=st.sampled_from(
        ["rounds", "rounds/1/edit", "undo", "end", "rounds/7/edit", "rounds/1/conflict", "reopen"]
    ),
)
def test_junk_round_forms_never_fail(app, client, data, path):
    if not hasattr(app, "_junk_game"):
        app._junk_game = make_game(app)
    game_id, _token = app._junk_game
    client.set_cookie("sk_device", DEVICE)
    assert_answered(client.post(f"/games/{game_id}/{path}", data=data))


@JUNK_SETTINGS
@given(
    token=st.text(min_size=1, max_size=80).filter(lambda t: "/" not in t and "?" not in t),
    query=st.dictionaries(st.sampled_from(["blank", "v", "x"]), text, max_size=2),
)
def test_junk_links_never_fail(app, client, token, query):
    for path in (
        f"/s/{token}",
        f"/e/{token}",
        f"/s/{token}/live",
        f"/s/{token}/print",
        "/games/1/print",
        "/games/999999",
    ):
        assert_answered(client.get(path, query_string=query))
