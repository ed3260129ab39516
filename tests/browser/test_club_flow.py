"""A club from scratch, as newcomers do it on two phones: the owner signs up, starts a club,
puts players on its roster and makes a scorer invite; a friend opens the link, signs up, joins,
and scores a club game; the owner sees it, downloads the club (and another instance imports
it), sets up a season and opens a player's page."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from flask import Flask
from helpers import NO_SIDE_SCROLL, confirm_email, fill_sign_up, record, set_up, shot, totals
from playwright.sync_api import Browser, BrowserContext, Page, expect

from scorekeeper.models import utcnow
from scorekeeper.services import export_json
from tests.helpers import import_club_json

PASSWORD = "correct horse battery staple"
CLUB = "Tuesday Trains"
OWNER = ("Olive Owner", "olive.flow@example.com")
SCORER = ("Sam Scorer", "sam.flow@example.com")
ROSTER = ["Ana", "Ben", "Cy"]
GUEST = "Gus"


@pytest.fixture
def phones(browser: Browser, browser_context_args: dict) -> Iterator[tuple[Page, Page]]:
    """Two phones with their own cookies: the owner's (A) and the friend's (B)."""
    contexts: list[BrowserContext] = [browser.new_context(**browser_context_args) for _ in "AB"]
    try:
        yield contexts[0].new_page(), contexts[1].new_page()
    finally:
        for context in contexts:
            context.close()


def club_nav(page: Page, name: str) -> None:
    """Tap one of the club's own links (Games, Roster, Seasons, Invites, Settings…)."""
    page.get_by_role("navigation", name="Club pages").get_by_role("link", name=name).click()


def fits(page: Page, what: str) -> None:
    assert page.viewport_size == {"width": 390, "height": 844}
    assert page.evaluate(NO_SIDE_SCROLL), f"{what} scrolls sideways at 390px"


def heading(page: Page):
    return page.get_by_role("heading", level=1)


def test_a_club_from_sign_up_to_season_standings(
    phones: tuple[Page, Page], live_server: str, other_instance: Flask, mailbox
) -> None:
    owner, friend = phones

    # (1) A signs up from the home page, starts a club, fills its roster, makes an invite. ----
    owner.goto(live_server + "/")
    owner.get_by_role("navigation", name="Main").get_by_role("link", name="Sign up").click()
    fill_sign_up(owner, *OWNER, PASSWORD)
    owner.get_by_role("navigation", name="Main").get_by_role("link", name="Clubs").click()
    expect(heading(owner)).to_have_text("My clubs")
    owner.get_by_role("link", name="Start a club").click()
    expect(heading(owner)).to_have_text("Start a club")
    owner.get_by_label("Club name").fill(CLUB)
    owner.get_by_role("button", name="Create the club").click()
    expect(owner.locator(".flash-success")).to_have_text(
        f"{CLUB} is ready. Invite your players next."
    )
    expect(heading(owner)).to_have_text(CLUB)
    club_url = owner.url
    expect(owner.locator(".member-list")).to_contain_text("Olive Owner (you)")
    expect(owner.locator(".member-list .meta")).to_have_text("Owner")

    club_nav(owner, "Roster")
    expect(owner.get_by_role("heading", name="Roster", exact=True)).to_be_visible()
    for name in ROSTER:
        owner.get_by_label("Name", exact=True).fill(name)
        owner.get_by_role("button", name="Add to the roster").click()
        expect(owner.locator(".flash-success")).to_have_text(f"{name} is on the roster.")
    expect(owner.locator(".roster-list > li strong")).to_have_text(ROSTER)

    club_nav(owner, "Invites")
    owner.get_by_label("Joins as").select_option("scorer")
    owner.get_by_role("button", name="Create the invite link").click()
    expect(owner.locator(".flash-success")).to_have_text(
        "Invite link made: send it to whoever should join as scorer."
    )
    invite = owner.locator(".invite-list li")
    expect(invite).to_have_count(1)
    expect(invite.locator(".meta")).to_contain_text("Joins as scorer")
    invite_url = invite.locator("a.share-link").get_attribute("href")
    assert invite_url.startswith(live_server + "/invite/")

    # (2) B opens the link: sent to sign in, signs up instead, comes back and joins. ----------
    friend.goto(invite_url)
    expect(heading(friend)).to_have_text("Sign in")
    expect(friend.locator(".flash-info")).to_have_text("Sign in to see that page.")
    friend.get_by_role("link", name="Create one").click()
    fill_sign_up(friend, *SCORER, PASSWORD)
    assert friend.url == invite_url
    expect(heading(friend)).to_have_text(f"Join {CLUB}")
    expect(friend.locator(".lead")).to_contain_text("You are invited as a scorer")
    # Joining needs a confirmed address: B opens the mailed link, then the invite again.
    expect(friend.locator(".alert-warning")).to_contain_text("first confirm your email address")
    confirm_email(friend, mailbox, SCORER[1])
    friend.goto(invite_url)
    friend.get_by_role("button", name=f"Join {CLUB}").click()
    expect(friend.locator(".flash-success")).to_have_text(
        f"Welcome to {CLUB}! You joined as scorer."
    )
    expect(heading(friend)).to_have_text(CLUB)
    sam = friend.locator(".member-list li").filter(has_text="Sam Scorer")
    expect(sam).to_contain_text("(you)")
    expect(sam.locator(".meta")).to_have_text("Scorer")

    # (3) B sets up a one-round club game (three roster players and a guest) and scores it. --
    friend.get_by_role("link", name="New club game").click()
    expect(heading(friend)).to_have_text("New game")
    expect(friend.locator(".game-players")).to_have_text(f"For {CLUB}, with the club's rules.")
    expect(friend.locator("#roster-names option")).to_have_count(3)
    set_up(friend, [*ROSTER, GUEST], rounds=1)
    friend.get_by_role("button", name="Start the game").click()
    expect(friend.locator(".flash-success")).to_have_text("Game on! Round 1 is ready.")
    friend.wait_for_load_state()  # the flash paints before the scripts have set up
    expect(friend.locator("#current-heading")).to_have_text("Round 1 of 1")
    record(friend, "Ana", {"Ben": 15, "Cy": 7, GUEST: 22})
    expect(friend.locator(".flash-success")).to_have_text("Round 1 saved.")
    expect(friend.locator("#current-heading")).to_have_text("Game over")
    expect(friend.locator(".winner")).to_have_text("Winner: Ana")
    assert totals(friend) == ["0", "15", "7", "22"]

    # A sees the game on the club page, and Sam among the members.
    owner.goto(club_url)
    game = owner.locator(".club-games li")
    expect(game).to_have_count(1)
    expect(game.locator("strong")).to_have_text("Ana, Ben, Cy, Gus")
    expect(game).to_contain_text("Finished · Winner: Ana")
    expect(owner.locator(".member-list li").filter(has_text="Sam Scorer")).to_contain_text("Scorer")
    fits(owner, "the club page")
    shot(owner, "club.png", full_page=True)

    club_nav(owner, "Roster")
    for name in ROSTER:
        expect(owner.locator(".roster-list > li").filter(has_text=name)).to_contain_text("1 game")
    fits(owner, "the roster page")

    # (4) A downloads the club from the settings page; another instance imports it. ----------
    club_nav(owner, "Settings")
    expect(owner.get_by_role("heading", name="Your data")).to_be_visible()
    with owner.expect_download() as download_info:
        owner.get_by_role("link", name="Download JSON").click()
    download = download_info.value
    assert download.suggested_filename.endswith(".json")
    document = json.loads(Path(download.path()).read_text(encoding="utf-8"))
    assert document["club"]["name"] == CLUB
    assert len(document["games"]) == 1
    with other_instance.app_context():
        imported = import_club_json(document)
        again = export_json.export_club_json(imported.id)
    assert export_json.dumps(again) == export_json.dumps(document)

    # (5) A sets up a season covering today: the finished game's roster players are ranked. --
    club_nav(owner, "Seasons")
    owner.get_by_role("link", name="New season").click()
    today = utcnow().date()
    expect(owner.get_by_label("First day")).to_have_value(today.isoformat())
    owner.get_by_label("Season name").fill("Autumn league")
    owner.get_by_label("Last day").fill((today + timedelta(days=90)).isoformat())
    owner.get_by_role("button", name="Save the season").click()
    expect(owner.locator(".flash-success")).to_have_text("The season Autumn league is set up.")
    expect(owner.locator(".flash-info")).to_have_text(
        "1 game played in these dates was filed under the season."
    )
    expect(heading(owner)).to_have_text("Autumn league")
    standings = owner.locator(".season-standings tbody tr")
    expect(standings.locator(".who")).to_have_text(["Ana", "Cy", "Ben"])
    expect(standings.first.locator(".place")).to_have_text("1")
    expect(standings.first.locator("td").nth(2)).to_have_text("1")  # Ana's one win
    fits(owner, "the season page")
    shot(owner, "season.png", full_page=True)

    club_nav(owner, "Roster")
    owner.locator(".roster-list").get_by_role("link", name="Ana", exact=True).click()
    expect(heading(owner)).to_have_text("Ana")
    record_table = owner.locator(".stats-table")
    expect(record_table.locator("tr").filter(has_text="Games played")).to_contain_text("1")
    expect(record_table.locator("tr").filter(has_text="Wins")).to_contain_text("1")
    expect(record_table.locator("tr").filter(has_text="Average score per round")).to_contain_text(
        "0.0"
    )
    fits(owner, "the player page")
    shot(owner, "player.png", full_page=True)
