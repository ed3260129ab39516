"""Ratings and fair tables on a phone: the Ratings page, a player's rating chart, the season's
rating changes, a night's chances and a balanced draw, each without sideways scrolling at
360 px; screenshots at 390x844 for docs/screenshots."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import date, timedelta

import flask_migrate
import pytest
from clubs.helpers import PASSWORD, add_roster, make_club, make_user
from helpers import NO_SIDE_SCROLL, shot, sign_in
from playwright.sync_api import Browser, Page, expect
from test_accessibility import AXE, serious_violations

from scorekeeper import core, create_app
from scorekeeper.extensions import db
from scorekeeper.models import Club
from scorekeeper.services import games as game_service
from scorekeeper.services import nights, seasons
from tests.serving import serve

OWNER = "olive.ratings@example.com"
NAMES = ["Anabel", "Benjamin", "Cyrille", "Dimitra", "Esperanza", "Finnegan", "Gustavo", "Hanne"]
SMALL_PHONE = {"width": 360, "height": 740}
SHOT_PHONE = {"width": 390, "height": 844}
# Every chance table within the page's width, none scrolling inside itself.
CHANCES_FIT = """() => [...document.querySelectorAll('.chance-table')].every(
  (t) => t.getBoundingClientRect().right <= document.documentElement.clientWidth
    && t.scrollWidth <= t.clientWidth + 1)"""


def _play(app, club_id: int, rng: random.Random) -> dict[str, int]:
    """Ten weekly nights of two tables (2-round games), a season over the last five."""
    with app.app_context():
        club = db.session.get(Club, club_id)
        roster = {entry.display_name: entry.id for entry in club.roster}
        first = date.today() - timedelta(weeks=10)
        season = seasons.create_season(
            club,
            seasons.SeasonInput(
                name="Spring", starts_on=first + timedelta(weeks=5), ends_on=date.today()
            ),
        ).season
        night_id = 0
        for week in range(10):
            people = rng.sample(NAMES, 8)
            seats = [nights.Seat(n, roster[n], 1 + i // 4) for i, n in enumerate(people)]
            night = nights.start_night(
                club, played_on=first + timedelta(weeks=week), name="", tables=2, seats=seats
            )
            night_id = night.id
            for game in nights.night_view(night).tables:
                players = [p.name for p in game.game.players]
                for _round in range(game.state.next_round or 1, len(game.state.engines) + 1):
                    out = rng.choice(players)
                    hands = {
                        n: core.HandEntry(pips=0 if n == out else rng.randint(2, 40))
                        for n in players
                    }
                    outcome = game_service.record_round(
                        game.game, core.RoundEntry(hands, out), confirm=True
                    )
                    assert outcome.saved
                    if game.game.finished_at is not None:
                        break
        return {"season": season.id, "night": night_id, "player": roster["Anabel"]}


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, object]]:
    db_file = tmp_path_factory.mktemp("ratings") / "ratings.sqlite"
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "ratings",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{db_file}",
        }
    )
    with app.app_context():
        flask_migrate.upgrade()
    owner = make_user(app, "Olive Owner", OWNER)
    club_id = make_club(app, owner, "Tuesday Trains", rounds=2)
    add_roster(app, club_id, *NAMES)
    ids = _play(app, club_id, random.Random(21))
    with serve(app) as base:
        yield {"base": base, "club": club_id, **ids}


@pytest.fixture
def owner(browser: Browser, browser_context_args: dict, club) -> Iterator[Page]:
    context = browser.new_context(**browser_context_args)
    page = context.new_page()
    sign_in(page, str(club["base"]), OWNER, PASSWORD)
    yield page
    context.close()


def test_the_ratings_pages_fit_a_small_phone(owner: Page, club) -> None:
    base, club_id = club["base"], club["club"]
    owner.set_viewport_size(SMALL_PHONE)
    # A night's chances: four columns (who, skill, rating, chance) fit without scrolling
    # sideways (first: a page seen again is answered 304, whose CSP drops the style hashes).
    owner.goto(f"{base}/clubs/{club_id}/nights/{club['night']}")
    expect(owner.locator(".chance-table tbody tr")).to_have_count(8)
    assert owner.evaluate(CHANCES_FIT)
    owner.set_viewport_size(SHOT_PHONE)
    owner.evaluate("document.getElementById('chances-heading').scrollIntoView()")
    shot(owner, "night-chances.png")
    owner.set_viewport_size(SMALL_PHONE)
    for path in (
        f"/clubs/{club_id}/ratings",
        f"/clubs/{club_id}/ratings/how",
        f"/clubs/{club_id}/players/{club['player']}",
        f"/clubs/{club_id}/seasons/{club['season']}",
        f"/clubs/{club_id}/nights/{club['night']}",
    ):
        owner.goto(f"{base}{path}")
        assert owner.evaluate(NO_SIDE_SCROLL), path
    owner.goto(f"{base}/clubs/{club_id}/ratings")
    expect(owner.locator(".ratings-table tbody tr")).to_have_count(len(NAMES))
    owner.set_viewport_size(SHOT_PHONE)
    shot(owner, "ratings.png")
    owner.goto(f"{base}/clubs/{club_id}/players/{club['player']}")
    owner.locator("#rating-heading").scroll_into_view_if_needed()
    owner.evaluate("document.getElementById('rating-heading').scrollIntoView()")
    shot(owner, "rating-chart.png")


def test_a_balanced_draw_on_a_small_phone(owner: Page, club) -> None:
    base, club_id = club["base"], club["club"]
    owner.set_viewport_size(SMALL_PHONE)
    owner.goto(f"{base}/clubs/{club_id}/nights/new")
    for name in NAMES:
        owner.get_by_label(name, exact=True).check()
    owner.get_by_label("Tables", exact=True).select_option("2")
    owner.get_by_label("How to draw the seats").select_option("balanced")
    owner.get_by_role("button", name="Draw the tables").click()
    expect(owner.locator("#drawn-heading")).to_contain_text("Draw number")
    expect(owner.locator(".drawn-tables li")).to_have_count(2)
    assert owner.evaluate(NO_SIDE_SCROLL)
    owner.set_viewport_size(SHOT_PHONE)
    owner.evaluate("document.getElementById('drawn-heading').scrollIntoView()")
    shot(owner, "night-draw.png")
    number = owner.locator("#drawn-heading").inner_text()
    owner.get_by_role("button", name="Draw again").click()
    expect(owner.locator("#drawn-heading")).not_to_have_text(number)


@pytest.mark.skipif(not AXE.exists(), reason="npm install (make axe) first")
def test_no_serious_violation_on_the_ratings_pages(
    browser: Browser, browser_context_args: dict, club
) -> None:
    base, club_id = club["base"], club["club"]
    # bypass_csp: axe is injected as a script of the test's own, which the strict CSP refuses.
    context = browser.new_context(**browser_context_args, bypass_csp=True)
    page = context.new_page()
    sign_in(page, str(base), OWNER, PASSWORD)
    found = {}
    for path in (
        f"/clubs/{club_id}/ratings",
        f"/clubs/{club_id}/ratings/how",
        f"/clubs/{club_id}/players/{club['player']}",
        f"/clubs/{club_id}/seasons/{club['season']}",
        f"/clubs/{club_id}/nights/{club['night']}",
    ):
        page.goto(f"{base}{path}")
        found[path] = serious_violations(page)
    page.goto(f"{base}/clubs/{club_id}/nights/new")
    for name in NAMES:
        page.get_by_label(name, exact=True).check()
    page.get_by_role("button", name="Draw the tables").click()
    found["draw"] = serious_violations(page)
    context.close()
    assert found == {path: [] for path in found}
