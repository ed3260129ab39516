"""A club brought in from an export file on a phone (390x844): a new account confirms its
address, taps "Create a club from an export file" on My clubs, picks a broken file (the reason
shows under the field), then the real file: the club is made with them as owner and the people
the file names are listed to invite. axe-core checks each page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from helpers import NO_SIDE_SCROLL, confirm_email, fill_sign_up, shot
from playwright.sync_api import Browser, Page, expect
from services.club_data import build_club
from test_accessibility import AXE, serious_violations

from scorekeeper.services import export_json

PASSWORD = "correct horse battery staple"
UPLOADER = ("Ursula Upload", "ursula.import@example.com")

pytestmark = pytest.mark.skipif(not AXE.exists(), reason="npm install (make axe) first")


@pytest.fixture
def export_file(other_instance: Flask, tmp_path: Path) -> Path:
    """The JSON export of a club with every kind of row, made on another instance."""
    with other_instance.app_context():
        document = export_json.export_club_json(build_club())
    path = tmp_path / "thursday-trains.json"
    path.write_text(export_json.dumps(document), encoding="utf-8")
    return path


@pytest.fixture
def phone(browser: Browser, browser_context_args: dict) -> Iterator[Page]:
    # bypass_csp: axe is injected as a script of the test's own, which the strict CSP refuses.
    context = browser.new_context(**browser_context_args, bypass_csp=True)
    try:
        yield context.new_page()
    finally:
        context.close()


def checked(page: Page, what: str) -> None:
    assert page.viewport_size == {"width": 390, "height": 844}
    assert page.evaluate(NO_SIDE_SCROLL), f"{what} scrolls sideways at 390px"
    assert serious_violations(page) == [], what


def test_a_club_from_an_export_file_on_a_phone(
    phone: Page, live_server: str, mailbox, export_file: Path, tmp_path: Path
) -> None:
    phone.goto(live_server + "/sign-up")
    fill_sign_up(phone, *UPLOADER, PASSWORD)
    confirm_email(phone, mailbox, UPLOADER[1])

    phone.get_by_role("navigation", name="Main").get_by_role("link", name="Clubs").click()
    phone.get_by_role("link", name="Create a club from an export file").click()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Create a club from an export file")
    expect(phone.locator(".alert-warning")).to_contain_text("Members are not imported: invite them")
    checked(phone, "the import page")

    # A broken file: refused, the reason under the field, and no club made.
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "scorekeeper-club"', encoding="utf-8")
    phone.get_by_label("Export file (.json)").set_input_files(broken)
    phone.get_by_role("button", name="Create the club from this file").click()
    error = phone.locator("#file-error")
    expect(error).to_contain_text("This file was refused: This is not a JSON file")
    expect(phone.get_by_label("Export file (.json)")).to_have_attribute("aria-invalid", "true")
    checked(phone, "the import page with a refused file")
    shot(phone, "club-import-refused.png", full_page=True)

    # The real file: the club is made, the uploader owns it, the others are to be invited.
    phone.get_by_label("Export file (.json)").set_input_files(export_file)
    phone.get_by_role("button", name="Create the club from this file").click()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Thursday Trains ☕ is ready")
    expect(phone.locator(".flash-success")).to_contain_text(
        "games 3, rounds 6, roster players 5, seasons 2, club nights 2"
    )
    expect(phone.locator(".imported-people li")).to_have_text(
        ["fern@example.org", "olga@example.org", "sam@example.org", "vic@example.org"]
    )
    checked(phone, "the imported club's result page")
    shot(phone, "club-import-done.png", full_page=True)

    phone.get_by_role("link", name="Make invite links").click()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Thursday Trains ☕")
    phone.get_by_role("navigation", name="Club pages").get_by_role("link", name="Games").click()
    members = phone.locator(".member-list li")
    expect(members).to_have_count(1)
    expect(members).to_contain_text("Ursula Upload (you)")
