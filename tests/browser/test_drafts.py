"""Nothing typed is lost (issue 23): each draft has its own key, an offline Save moves the page
on to the next round (the rounds waiting on the sheet), a copy of the page kept offline never
replays its messages, and a round saved elsewhere meanwhile is compared, never dropped."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import Error as PlaywrightError

from tests.browser.helpers import (
    hand,
    pips,
    record,
    save,
    set_up,
    totals,
    wait_until_kept,
    went_out,
)

PHONE = {"width": 360, "height": 740}


@pytest.fixture
def phone(browser: Browser, browser_context_args: dict):
    """A phone of its own (its service worker and storage start empty), at 360x740."""
    context = browser.new_context(**{**browser_context_args, "viewport": PHONE})
    yield context.new_page()
    context.close()


def start(page: Page, base: str, names=("Ana", "Ben", "Cy", "Di")) -> str:
    page.goto(base + "/games/new")
    # The service worker installs here: the game page's first answer is the one it keeps.
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    set_up(page, list(names))
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_text("Game on! Round 1 is ready.")).to_be_visible()
    page.wait_for_load_state()  # the flash paints before the scripts have set up
    url = page.url.split("#")[0]
    wait_until_kept(page, url)
    return url


def other_phone(phone: Page) -> Page:
    """Another scorer's phone (its own browser and storage), through the game's edit link."""
    other = phone.context.browser.new_context(viewport=PHONE).new_page()
    other.goto(phone.locator("#edit-link").get_attribute("href"))
    other.get_by_role("button", name="Score this game on this phone").click()
    expect(other.get_by_role("heading", name=re.compile("Record round"))).to_be_visible()
    return other


def nudge(page: Page) -> None:
    """Tell the page the network is back now (it may already be sending, and reloading)."""
    try:
        page.evaluate("window.dispatchEvent(new Event('online'))")
    except PlaywrightError:
        pass  # the page reloaded meanwhile: it sends its outbox as it opens


def waiting_rows(page: Page):
    return page.locator("#sheet tbody tr.waiting-row")


def test_offline_rounds_move_the_page_on_and_survive_a_reload(phone: Page, live_server: str):
    start(phone, live_server)
    context = phone.context
    context.set_offline(True)
    try:
        record(phone, "Ana", {"Ben": 12, "Cy": 3, "Di": 8}, online=False)
        # The page shows the next round to type: heading, engine, opener, nobody out yet.
        expect(phone.locator("#record-heading")).to_have_text("Record round 2 · 11-11")
        expect(phone.locator("#current-heading")).to_have_text("Round 2 of 13")
        expect(phone.locator(".current .engine-name")).to_have_text("Engine: the 11-11")
        expect(phone.locator(".current .opener")).to_have_text("Ben opens")
        expect(hand(phone, "Ben").locator("legend .tag")).to_have_text("opens")
        expect(phone.locator("fieldset.hand.is-out")).to_have_count(0)
        # Round 1 waits on the sheet and counts in a total of its own.
        expect(waiting_rows(phone).first).to_contain_text("12-12 waiting")
        expect(phone.locator("tr.waiting-total td")).to_have_text(["0", "12", "3", "8"])
        # A reload serves the page kept offline: still round 2, and no "Game on!" again.
        phone.reload()
        expect(phone.locator("#record-heading")).to_have_text("Record round 2 · 11-11")
        expect(phone.get_by_text("Game on! Round 1 is ready.")).to_have_count(0)
        expect(waiting_rows(phone)).to_have_count(1)
        record(phone, "Ben", {"Ana": 5, "Cy": 6, "Di": 7}, online=False)
        expect(phone.locator("#record-heading")).to_have_text("Record round 3 · 10-10")
        expect(phone.locator("tr.waiting-total td")).to_have_text(["5", "12", "9", "15"])
        phone.reload()
        expect(phone.locator("#record-heading")).to_have_text("Record round 3 · 10-10")
        went_out(phone, "Cy")
        pips(phone, "Ana").fill("1")
        pips(phone, "Ben").fill("2")
        pips(phone, "Di").fill("4")
        save(phone, online=False)
    finally:
        context.set_offline(False)
    nudge(phone)
    # Three rounds typed, three saved, in order.
    expect(phone.locator("#sheet tbody tr:not(.waiting-row)")).to_have_count(3, timeout=20_000)
    expect(phone.get_by_role("heading", name=re.compile("Record round 4"))).to_be_visible()
    expect(phone.locator("#offline-status")).to_have_text("Sent: round 3 is saved.")
    expect(waiting_rows(phone)).to_have_count(0)
    assert totals(phone) == ["6", "14", "9", "19"]


def test_online_each_draft_keeps_its_own_key(phone: Page, live_server: str):
    game_url = start(phone, live_server)
    key = phone.locator("#idempotency_key")
    pips(phone, "Ben").fill("12")
    first = key.input_value()
    phone.reload()
    expect(pips(phone, "Ben")).to_have_value("12")
    assert key.input_value() == first  # the draft's key came back with it
    record(phone, "Ana", {"Cy": 3, "Di": 8})
    expect(phone.get_by_text("Round 1 saved.")).to_be_visible()
    assert key.input_value() != first
    # An old copy of the page sends another round with round 1's key: refused, kept, shown.
    record_with = {"Ana": 4, "Cy": 9, "Di": 21}
    went_out(phone, "Ben")
    for name, value in record_with.items():
        pips(phone, name).fill(str(value))
    phone.evaluate("key => { document.getElementById('idempotency_key').value = key; }", first)
    save(phone)
    expect(phone.locator("#round-errors")).to_contain_text(
        "This round was not saved: the page it was typed on had already sent round 1"
    )
    expect(pips(phone, "Di")).to_have_value("21")
    expect(phone.locator("#record-heading")).to_contain_text("Record round 2")
    save(phone)
    expect(phone.get_by_text("Round 2 saved.")).to_be_visible()
    phone.goto(game_url)
    assert totals(phone) == ["4", "12", "12", "29"]


def test_online_compare_leads_to_the_choice(phone: Page, live_server: str):
    game_url = start(phone, live_server)
    other = other_phone(phone)
    went_out(phone, "Ana")
    for name, value in {"Ben": 21, "Cy": 5, "Di": 6}.items():
        pips(phone, name).fill(str(value))
    record(other, "Cy", {"Ana": 1, "Ben": 2, "Di": 3})
    notice = phone.locator("#game-changed")
    expect(notice).to_contain_text("Round 1 was saved on another phone.", timeout=10_000)
    with phone.expect_navigation():
        notice.get_by_role("link", name="Compare it with what you typed").click()
    expect(phone.get_by_role("heading", level=1)).to_have_text(
        "Round 1 was saved from another phone"
    )
    expect(phone.locator(".conflict-table")).to_contain_text("21")
    # Reloaded by hand instead, the page would still offer the round typed: nothing dropped.
    phone.goto(game_url)
    expect(notice).to_be_hidden()  # the comparison holds it now, not the draft
    phone.go_back()
    with phone.expect_navigation():
        phone.get_by_role("button", name="Record mine as round 2").click()
    expect(phone.get_by_text("Round 2 saved.")).to_be_visible()
    other.context.close()


def test_a_reload_keeps_a_round_saved_elsewhere_meanwhile(phone: Page, live_server: str):
    start(phone, live_server)
    pips(phone, "Ben").fill("21")
    other = other_phone(phone)
    record(other, "Cy", {"Ana": 1, "Ben": 2, "Di": 3})
    other.context.close()
    phone.reload()  # by hand, before the notice: the page is at round 2 now
    notice = phone.locator("#game-changed")
    expect(notice).to_contain_text("Round 1 was saved on another phone.")
    with phone.expect_navigation():
        notice.get_by_role("link", name="Compare it with what you typed").click()
    expect(phone.locator(".conflict-table")).to_contain_text("21")


def test_offline_a_round_saved_elsewhere_meanwhile_comes_back_as_a_choice(
    phone: Page, live_server: str
):
    start(phone, live_server)
    phone.context.set_offline(True)
    try:
        record(phone, "Ana", {"Ben": 12, "Cy": 3, "Di": 8}, online=False)
        # Meanwhile another phone saved round 1.
        other = other_phone(phone)
        record(other, "Di", {"Ana": 1, "Ben": 2, "Cy": 3})
        other.context.close()
    finally:
        phone.context.set_offline(False)
    nudge(phone)
    expect(phone.get_by_role("heading", level=1)).to_have_text(
        "Round 1 was saved from another phone", timeout=20_000
    )
    expect(phone.locator(".conflict-table")).to_contain_text("12")


def test_a_round_typed_on_a_page_older_than_its_form_token_is_saved(phone: Page, live_server: str):
    # The phone's session (and with it the form token the page carries) is gone, as after a
    # restart or a page left open too long: Save sends again with a token made now.
    start(phone, live_server)
    went_out(phone, "Ana")
    for name, value in {"Ben": 12, "Cy": 3, "Di": 8}.items():
        pips(phone, name).fill(str(value))
    phone.context.clear_cookies(name="session")
    save(phone)
    expect(phone.locator(".flash-success")).to_have_text("Round 1 saved.")
    assert totals(phone) == ["0", "12", "3", "8"]
