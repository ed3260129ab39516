"""A game page on a slow network (issue 24): the service worker shows its kept copy when the
network has not answered within a moment, the page brings itself up to date as soon as it can,
and a round typed on the kept copy is saved or refused in words, never lost."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import migrated_app
from tests.browser.helpers import record, set_up, totals, wait_until_kept
from tests.serving import serve

PHONE = {"width": 360, "height": 740}
# The page's own network answer takes this long (longer than the worker waits for it).
SLOW_S = 1.5


class SlowPaths:
    """The server's answers to GETs of these paths wait first (what a slow network does to the
    page's own request; the service worker's fetches are not reached by Playwright's routing
    or DevTools' throttling of the page, so the server itself is slowed)."""

    def __init__(self) -> None:
        self.delays: dict[str, float] = {}
        self.lock = threading.Lock()
        self.over = threading.Event()  # set when the delays end: answers waiting go at once

    def wrap(self, wsgi_app):
        def slowed(environ, start_response):
            with self.lock:
                wait = self.delays.get(environ.get("PATH_INFO", ""), 0.0)
            if wait and environ.get("REQUEST_METHOD") == "GET":
                self.over.wait(wait)
            return wsgi_app(environ, start_response)

        return slowed

    def set(self, delays: dict[str, float]) -> None:
        with self.lock:
            self.delays = dict(delays)
            if delays:
                self.over.clear()
            else:
                self.over.set()


@pytest.fixture(scope="module")
def slow() -> SlowPaths:
    return SlowPaths()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, slow: SlowPaths) -> Iterator[str]:
    db_file: Path = tmp_path_factory.mktemp("kept") / "kept.sqlite"
    app = migrated_app(db_file, SECRET_KEY="kept-page")
    app.wsgi_app = slow.wrap(app.wsgi_app)
    with serve(app) as base:
        yield base


@pytest.fixture
def phone(browser: Browser, browser_context_args: dict, slow: SlowPaths) -> Iterator[Page]:
    """A phone of its own: its service worker and caches start empty."""
    context = browser.new_context(**{**browser_context_args, "viewport": PHONE})
    context.add_init_script(NOTE_PAGES)
    yield context.new_page()
    slow.set({})
    context.close()


def start_and_keep(page: Page, base: str) -> str:
    """A game with round 1 saved, its page kept by the phone's service worker; its address."""
    page.goto(base + "/games/new")
    set_up(page, ["Ana", "Ben", "Cy", "Di"])
    page.get_by_role("button", name="Start").click()
    record(page, "Ana", {"Ben": 15, "Cy": 7, "Di": 22})
    expect(page.get_by_text("Round 1 saved.")).to_be_visible()
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    url = page.url.split("#")[0]
    page.goto(url)  # this answer is the one the worker keeps
    wait_until_kept(page, url)
    seen(page)
    page.goto("about:blank")  # the phone is put away: its page does not follow the game
    return url


def other_phone(browser: Browser, phone: Page) -> BrowserContext:
    """Another scorer's phone (this game's scorer cookie, no service worker of its own)."""
    context = browser.new_context(viewport=PHONE, service_workers="block")
    context.add_cookies(phone.context.cookies())
    return context


# Each page this phone opens notes, once parsed, whether it is the kept copy, its round
# sheet's heading and how long after the navigation began it was ready (a page replaced by a
# fresher one at once is gone before a test could look at it), then marks itself noted.
NOTE_PAGES = """
document.addEventListener("DOMContentLoaded", () => {
    const heading = document.getElementById("record-heading");
    const seen = JSON.parse(sessionStorage.getItem("seen") || "[]");
    seen.push({kept: document.documentElement.dataset.kept === "1",
               heading: heading ? heading.textContent.trim() : "",
               ready_ms: Math.round(performance.now())});
    sessionStorage.setItem("seen", JSON.stringify(seen));
    window.pageNoted = true;
});
"""


def forget_the_session(page: Page) -> None:
    """The phone was restarted: its session cookie is gone (its scorer cookie stays), and with
    it the session the kept copy's form token was made for."""
    page.context.clear_cookies(name="session")


def kept(page: Page) -> bool:
    return page.evaluate("document.documentElement.dataset.kept === '1'")


def seen(page: Page) -> list[dict]:
    """The pages opened since the last call, oldest first, once the page showing now is noted
    too (its heading shows while its deferred scripts still load: it is noted after them)."""
    page.wait_for_function("() => window.pageNoted === true")
    return page.evaluate(
        "() => { const s = JSON.parse(sessionStorage.getItem('seen') || '[]');"
        " sessionStorage.removeItem('seen'); return s; }"
    )


def test_the_kept_copy_shows_first_then_the_latest_replaces_it(
    browser: Browser, phone: Page, server: str, slow: SlowPaths
):
    url = start_and_keep(phone, server)
    path = url.removeprefix(server)
    other = other_phone(browser, phone)
    try:
        second = other.new_page()
        second.goto(url)
        record(second, "Ben", {"Ana": 5, "Cy": 8, "Di": 9})
        expect(second.get_by_text("Round 2 saved.")).to_be_visible()
    finally:
        other.close()
    slow.set({path: SLOW_S})
    phone.goto(url)
    # Then the page brings itself up to date: round 2, saved by the other phone, is on it.
    expect(phone.get_by_role("heading", name=re.compile("Record round 3"))).to_be_visible(
        timeout=15_000
    )
    assert totals(phone) == ["5", "15", "15", "31"]
    # First, before the network had answered, the kept copy (round 1 on the sheet) showed.
    first, *_, last = seen(phone)
    assert first["kept"] and first["heading"].startswith("Record round 2")
    assert first["ready_ms"] < SLOW_S * 1000
    # (The latest may itself come from the worker's copy, kept meanwhile from the network.)
    assert last["heading"].startswith("Record round 3")


def test_a_round_typed_on_a_kept_copy_behind_the_game_comes_back_as_a_choice(
    browser: Browser, phone: Page, server: str, slow: SlowPaths
):
    url = start_and_keep(phone, server)
    path = url.removeprefix(server)
    other = other_phone(browser, phone)
    try:
        second = other.new_page()
        second.goto(url)
        record(second, "Ben", {"Ana": 5, "Cy": 8, "Di": 9})
        expect(second.get_by_text("Round 2 saved.")).to_be_visible()
    finally:
        other.close()
    forget_the_session(phone)
    # The page and its live part are slow: the scorer types round 2 on the kept copy before
    # the page learns that another phone saved it.
    slow.set({path: SLOW_S, path + "/live": 10})
    phone.goto(url)
    expect(phone.get_by_role("heading", name=re.compile("Record round 2"))).to_be_visible()
    assert kept(phone)
    record(phone, "Cy", {"Ana": 11, "Ben": 12, "Di": 13})
    # Refused in words, with both rounds side by side and the choice: nothing typed is lost.
    expect(phone.get_by_role("heading", level=1)).to_have_text(
        "Round 2 was saved from another phone", timeout=15_000
    )
    phone.get_by_role("button", name="Record mine as round 3").click()
    expect(phone.locator(".flash-success")).to_have_text("Round 3 saved.")
    assert totals(phone) == ["16", "27", "15", "44"]


def test_a_round_typed_on_an_up_to_date_kept_copy_is_saved(
    phone: Page, server: str, slow: SlowPaths
):
    url = start_and_keep(phone, server)
    path = url.removeprefix(server)
    forget_the_session(phone)
    slow.set({path: SLOW_S})
    phone.goto(url)
    expect(phone.get_by_role("heading", name=re.compile("Record round 2"))).to_be_visible()
    assert kept(phone)
    record(phone, "Cy", {"Ana": 11, "Ben": 12, "Di": 13})
    expect(phone.locator(".flash-success")).to_have_text("Round 2 saved.")
    assert totals(phone) == ["11", "27", "7", "35"]
    assert not kept(phone)


def test_a_new_language_never_shows_a_copy_kept_in_the_old_one(
    phone: Page, server: str, slow: SlowPaths
):
    url = start_and_keep(phone, server)
    phone.goto(url)
    expect(phone.locator("html")).to_have_attribute("lang", "en")
    seen(phone)
    # A slow network: the worker would show its kept copy of the page, which is in English.
    slow.set({url.removeprefix(server): SLOW_S})
    with phone.expect_navigation():
        phone.locator(".language-switcher").get_by_role("link", name="Français").click()
    expect(phone.locator("html")).to_have_attribute("lang", "fr", timeout=10_000)
    assert not kept(phone)
    assert [page["kept"] for page in seen(phone)] == [False]
