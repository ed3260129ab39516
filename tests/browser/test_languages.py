"""Each language on a phone: the switcher (no account, no JavaScript needed) turns a running and
a finished game into French, Spanish, Hindi or English, with `lang` to match, names in any script
drawn as text, nothing wider than the screen; and the pictures of it in docs/screenshots/
(`i18n-<code>-game.png`, `i18n-<code>-final.png`), taken again by every `make test`."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.helpers import NO_SIDE_SCROLL, record, set_up, shot

LANGUAGES = {"fr": "Français", "es": "Español", "hi": "हिन्दी", "en": "English"}
# Devanagari, accented Latin and plain ASCII names at one table.
PLAYERS = ["अनन्या", "José", "Zoë", "Ben"]


def _switch(page: Page, code: str) -> None:
    """Tap the language's name in the footer switcher; the same page comes back."""
    before = page.url.split("#")[0]
    link = page.locator(".language-switcher").get_by_role("link", name=LANGUAGES[code])
    box = link.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44  # a thumb-sized target
    # Wait for the page the tap brings, not the load state of the page tapped on.
    with page.expect_navigation():
        link.click()
    page.wait_for_load_state()
    assert page.url == before
    assert page.evaluate("document.documentElement.lang") == code
    expect(page.locator(f'.language-switcher a[lang="{code}"]')).to_have_attribute(
        "aria-current", "true"
    )


def _check_page(page: Page) -> None:
    assert page.evaluate(NO_SIDE_SCROLL)
    # The chart's words are SVG text, drawn by the browser (any script), never paths.
    for name in PLAYERS:
        expect(page.locator("#sheet")).to_contain_text(name)


def test_a_game_in_each_language(page: Page, live_server: str) -> None:
    page.goto(live_server + "/games/new")
    set_up(page, PLAYERS, rounds=2)
    page.get_by_role("button", name="Start").click()
    # Ben goes out (the helpers find a hand by a regex that JavaScript reads ASCII-only).
    record(page, "Ben", {"अनन्या": 12, "José": 7, "Zoë": 25})
    game = page.url.split("#")[0]

    for code in ("fr", "es", "hi", "en"):
        page.goto(game)
        _switch(page, code)
        _check_page(page)
        shot(page, f"i18n-{code}-game.png")

    record(page, "Ben", {"अनन्या": 3, "José": 9, "Zoë": 0})
    expect(page.locator(".winner")).to_contain_text("Ben")
    for code in ("fr", "es", "hi", "en"):
        _switch(page, code)
        _check_page(page)
        page.locator("#standings").scroll_into_view_if_needed()
        shot(page, f"i18n-{code}-final.png")

    # The race chart of the finished game: its legend names every player as text.
    svg = page.request.get(game + "/chart/race.svg").text()
    for name in PLAYERS:
        assert name in svg


def test_the_switcher_works_without_javascript(browser, browser_context_args, live_server: str):
    context = browser.new_context(**browser_context_args, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(live_server + "/games/new")
        _switch(page, "hi")
        assert page.url.endswith("/games/new")
        page.goto(live_server + "/")  # kept for every page after (a cookie)
        assert page.evaluate("document.documentElement.lang") == "hi"
    finally:
        context.close()
