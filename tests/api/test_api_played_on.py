"""A game entered through the API after the fact (issue 14): `played_on` gives it its day, which
dates it on every page and files a club game under that day's season; a day that is not a date,
or is still to come, is refused at the field and nothing is saved."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from babel.dates import format_date
from clubs.helpers import as_, make_world
from seasons.helpers import make_season

from scorekeeper.extensions import db
from scorekeeper.models import Game, User
from scorekeeper.services import accounts as account_service

API = "/api/v1"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def world(app):
    return make_world(app)


def personal_token(app, user_id: int) -> str:
    with app.app_context():
        return account_service.create_token(db.session.get(User, user_id), "script").secret


def games_saved(app) -> int:
    with app.app_context():
        return db.session.query(Game).count()


def test_a_club_game_entered_a_year_later_is_dated_and_filed_by_its_day(app, client, world):
    winter = make_season(app, world.club, "Winter 2025", starts_on=date(2025, 1, 1),
                         ends_on=date(2025, 3, 31), min_games=0)  # fmt: skip
    make_season(app, world.club, "This year")  # around today: where an undated game would go
    token = personal_token(app, world.scorer)
    created = client.post(
        f"{API}/games",
        json={
            "club_id": world.club,
            "players": ["Ana", "Ben"],
            "rounds": 1,
            "played_on": "2025-01-10",
        },  # fmt: skip
        headers=bearer(token),
    )
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["id"]
    round_ = {"out": "Ana", "scores": {"Ben": 12}}
    recorded = client.post(f"{API}/games/{game_id}/rounds", json=round_, headers=bearer(token))
    assert recorded.status_code == 201, recorded.get_json()
    as_(client, app, world, "viewer")
    season_page = client.get(f"/clubs/{world.club}/seasons/{winter}").text
    assert "1/10/25" in season_page and "Computed from 1 finished game" in season_page
    club_page = client.get(f"/clubs/{world.club}").text
    today = date.today()
    assert "1/10/25" in club_page
    assert f"{today.month}/{today.day}/{today:%y}" not in club_page + season_page


def _day(day: date) -> str:
    return format_date(day, "medium", locale="en")


def test_a_quick_game_entered_after_the_fact_prints_its_day(client):
    created = client.post(
        f"{API}/games", json={"players": ["Ana", "Ben"], "played_on": "2025-01-10"}
    )
    assert created.status_code == 201, created.get_json()
    sheet = client.get(created.get_json()["view_url"].removeprefix("http://localhost") + "/print")
    assert sheet.status_code == 200
    # The print sheet writes the day as the reader's language does (English here).
    assert "Jan 10, 2025" in sheet.text and _day(date.today()) not in sheet.text


def test_without_a_day_a_game_is_played_today(client):
    created = client.post(f"{API}/games", json={"players": ["Ana", "Ben"]})
    sheet = client.get(created.get_json()["view_url"].removeprefix("http://localhost") + "/print")
    assert _day(date.today()) in sheet.text


@pytest.mark.parametrize(
    ("played_on", "code", "message"),
    [
        ("2025-02-30", "request.date", "Enter a date like 2025-09-30."),
        ("10/01/2025", "request.date", "Enter a date like 2025-09-30."),
        (20250110, "request.date", "Enter a date like 2025-09-30."),
        (
            (date.today() + timedelta(days=3)).isoformat(),
            "played_in_future",
            "A game cannot be played in the future: check the date.",
        ),
    ],
)
def test_a_day_that_is_not_one_is_refused_at_the_field(app, client, played_on, code, message):
    before = games_saved(app)
    response = client.post(f"{API}/games", json={"players": ["Ana", "Ben"], "played_on": played_on})
    assert response.status_code == 422
    assert response.get_json()["errors"] == [
        {"player": None, "field": "played_on", "message": message, "code": code}
    ]
    assert games_saved(app) == before


def test_the_document_describes_the_day(client):
    schema = client.get(f"{API}/openapi.json").get_json()["components"]["schemas"]["NewGame"]
    day = schema["properties"]["played_on"]
    assert (day["type"], day["format"], day["default"]) == (["string", "null"], "date", None)
    assert "played_on" not in schema.get("required", [])
