"""A club night at three tables from three phones: each scorer signs in on their own phone,
one starts the night, each records a round at their table, and the night page shows all three
(the first phone's page updates by itself)."""

from __future__ import annotations

from collections.abc import Iterator

import flask_migrate
import pytest
from clubs.helpers import PASSWORD, add_member, add_roster, make_club, make_user
from flask import Flask
from helpers import NO_SIDE_SCROLL, SCREENSHOTS, record, sign_in
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import select

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.models import Club, Game
from scorekeeper.services import games as game_service
from scorekeeper.services import nights as night_service
from tests.serving import serve

TABLES = [["Ana", "Ben", "Cy"], ["Di", "Eve", "Finn"], ["Gus", "Hana", "Ivy"]]
SCORERS = ["sam@example.com", "sue@example.com", "sid@example.com"]


@pytest.fixture(scope="module")
def club_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int, Flask]]:
    """A live server whose club has an owner, three scorers and nine players on its roster."""
    db_file = tmp_path_factory.mktemp("night") / "night.sqlite"
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "night", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{db_file}"}
    )
    with app.app_context():
        flask_migrate.upgrade()
    owner = make_user(app, "Olive Owner", "olive@example.com")
    club = make_club(app, owner, "Tuesday Trains")
    for email in SCORERS:
        add_member(app, club, make_user(app, email.split("@")[0].title(), email), "scorer")
    add_roster(app, club, *(name for table in TABLES for name in table))
    with serve(app) as base:
        yield base, club, app


def record_round(page: Page, out: str, hands: dict[str, int]) -> None:
    """Score round 1 by numbers on the game page, as a scorer does."""
    record(page, out, hands)
    expect(page.locator(".flash-success")).to_contain_text("Round 1 saved.")


def test_a_club_night_at_three_tables_from_three_phones(
    browser: Browser, browser_context_args: dict, club_server: tuple[str, int, Flask]
) -> None:
    base, club, app = club_server
    phones = [browser.new_context(**browser_context_args) for _ in SCORERS]
    try:
        pages = [phone.new_page() for phone in phones]
        for page, email in zip(pages, SCORERS, strict=True):
            sign_in(page, base, email, PASSWORD)

        # Phone 1 starts the night: nine players at three tables, chosen by hand.
        first = pages[0]
        first.goto(f"{base}/clubs/{club}/nights")
        first.get_by_role("link", name="Start a club night").click()
        first.get_by_label("Tables").select_option("3")
        first.get_by_label("Name (optional)").fill("Tuesday league")
        for number, names in enumerate(TABLES, 1):
            for name in names:
                first.get_by_label(name, exact=True).check()
                first.get_by_label(f"Table for {name}").select_option(str(number))
        assert first.evaluate(NO_SIDE_SCROLL)
        first.get_by_role("button", name="Start the night").click()
        expect(first.locator(".flash-success")).to_contain_text("The night has started.")
        night_url = first.url
        for number in (1, 2, 3):
            expect(first.locator(f"#table-{number}")).to_contain_text("Round 1 of 13")

        # Each phone opens its table's game from the night page and records round 1.
        rounds = [
            ("Ana", {"Ben": 12, "Cy": 7}),
            ("Eve", {"Di": 30, "Finn": 4}),
            ("Ivy", {"Gus": 9, "Hana": 15}),
        ]
        for number, (page, (out, hands)) in enumerate(zip(pages, rounds, strict=True), 1):
            page.goto(night_url)
            page.get_by_role("link", name=f"Open the game of table {number}").click()
            expect(page.locator(".game-players")).to_contain_text(" · ".join(TABLES[number - 1]))
            record_round(page, out, hands)
            if number == 1:
                first_game = page.url.split("#")[0]
                page.goto(night_url)  # phone 1 watches the night while the others score

        # Phone 1's night page refreshes itself (polling) and shows all three tables.
        expected = {1: "Leader: Ana", 2: "Leader: Eve", 3: "Leader: Ivy"}
        for number, leader in expected.items():
            table = first.locator(f"#table-{number}")
            expect(table).to_contain_text("Round 2 of 13", timeout=15_000)
            expect(table).to_contain_text(leader, timeout=15_000)
        expect(first.locator("#table-2 .standing").last).to_contain_text("Di")
        expect(first.locator("#table-2 .standing").last).to_contain_text("30")
        assert first.evaluate(NO_SIDE_SCROLL)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        first.screenshot(path=str(SCREENSHOTS / "club-night.png"), full_page=True)

        # A latecomer joins table 1 from phone 1; the sheet marks the round she missed.
        first.locator("#table-1").get_by_role("link", name="Add a late arrival").click()
        first.get_by_label("Or a guest's name").fill("Zoe")
        first.get_by_role("button", name="Add to the game").click()
        expect(first.locator(".flash-success")).to_contain_text("Zoe joins at round 2")
        assert first.url.split("#")[0] == first_game
        expect(first.locator("#round-1 td.late")).to_have_text("12* (joined late)")
        expect(first.locator(".sheet-legend")).to_contain_text("* joined late")

        # The tables end; the club then changes its late rule: the night page still says the
        # rule table 1 used, and lists each table's result as a table, not as a ranking.
        with app.app_context():
            for game in db.session.scalars(select(Game).where(Game.club_id == club)):
                game_service.end_game(game)
            night_service.set_late_rule(db.session.get(Club, club), "zero")
        first.goto(night_url)
        expect(first.locator(".table-result .table-label")).to_have_text(
            ["Table 1", "Table 2", "Table 3"]
        )
        expect(first.locator(".late-rules")).to_contain_text("Table 1: A late arrival scores, for")
        expect(first.locator(".late-rules")).to_contain_text("the highest score of that round")
        assert first.evaluate(NO_SIDE_SCROLL)
        first.screenshot(path=str(SCREENSHOTS / "night-results.png"), full_page=True)
    finally:
        for phone in phones:
            phone.close()
