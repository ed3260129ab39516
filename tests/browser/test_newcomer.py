"""What a newcomer tripped on (issue 23), at 360x740: close names at an 8-player table, the tile
picker's double-digit tiles, the round sheet's words in four languages (and dark), the share
page's own Share button, the new-game form, the club's tabs, and Devanagari on any phone."""

from __future__ import annotations

import logging
import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.helpers import NO_SIDE_SCROLL, fill_sign_up

PHONE = {"width": 360, "height": 740}
# Nothing inside the element pokes out of it (1 px of rounding allowed).
FITS = "el => el.scrollWidth <= el.clientWidth + 1"
# Every child of each matched element stays inside its box, and no two siblings overlap.
INSIDE = """el => {
    const box = el.getBoundingClientRect();
    const kids = [...el.children].map(k => k.getBoundingClientRect()).filter(r => r.width);
    const inside = kids.every(r => r.left >= box.left - 1 && r.right <= box.right + 1);
    const apart = kids.every((a, i) => kids.slice(i + 1).every(b => a.right <= b.left + 1
        || b.right <= a.left + 1 || a.bottom <= b.top + 1 || b.bottom <= a.top + 1));
    return inside && apart;
}"""


def phone_for(browser: Browser, browser_context_args: dict, lang: str = "en", scheme="light"):
    return browser.new_context(
        **{**browser_context_args, "viewport": PHONE},
        locale=lang,
        color_scheme=scheme,
        extra_http_headers={"Accept-Language": lang},
    )


def start(page: Page, base: str, names: list[str]) -> None:
    page.goto(base + "/games/new")
    for _ in range(len(names) - 4):
        page.locator("#add-player").click()
    for seat, name in enumerate(names):
        page.locator(f"#players-{seat}").fill(name)
    page.locator('[name="submit"]').click()
    expect(page.locator("#round-form")).to_be_visible()


def test_eight_close_names_get_distinct_headings_that_fit(
    browser: Browser, browser_context_args: dict, live_server: str
):
    context = phone_for(browser, browser_context_args)
    page = context.new_page()
    start(
        page, live_server, ["Ana", "Carla", "Carlos", "Anabel", "María J", "María L", "Bob", "Zoe"]
    )
    shorts = page.locator("#sheet thead th")
    expect(shorts).to_have_text(
        ["Engine", "Ana", "CaraCarla", "CaroCarlos", "AnabAnabel", "MarJMaría J", "MarLMaría L",
         "Bob", "Zoe"]
    )  # fmt: skip
    for index in range(1, 9):
        assert shorts.nth(index).evaluate(FITS), shorts.nth(index).inner_text()
        assert shorts.nth(index).evaluate("th => th.getBoundingClientRect().height < 30")
    assert page.evaluate(NO_SIDE_SCROLL)
    context.close()


@pytest.mark.parametrize(
    ("lang", "scheme", "went_out"),
    [
        ("en", "light", "Went out"),
        ("en", "dark", "Went out"),
        ("fr", "light", "A fait domino"),
        ("es", "light", None),
        ("hi", "light", None),
    ],
)
def test_the_round_sheet_fits_360_px_in_each_language(
    browser: Browser, browser_context_args: dict, live_server: str, lang, scheme, went_out
):
    context = phone_for(browser, browser_context_args, lang, scheme)
    page = context.new_page()
    start(page, live_server, ["Ana", "Ben", "Cy", "Di"])
    hand = page.locator("fieldset.hand").nth(1)
    if went_out:
        expect(hand.locator(".out-toggle")).to_have_text(went_out)
    # Every hand's row: the pips box, "went out" and Tiles side by side, nothing cut.
    for row in page.locator(".hand-main").all():
        assert row.evaluate(INSIDE)
        assert row.locator(".out-toggle").evaluate(FITS)
    # The pips box shows its whole word, and a four-digit value.
    box = page.locator("#pips_0")
    placeholder = box.evaluate(
        """el => { const probe = el.cloneNode();
            probe.value = el.placeholder;
            probe.style.fontSize = getComputedStyle(el, '::placeholder').fontSize;
            el.after(probe);
            const fits = probe.scrollWidth <= probe.clientWidth;
            probe.remove();
            return fits; }"""
    )
    assert placeholder
    box.fill("1234")
    assert box.evaluate(FITS)
    # The picker with double-digit partners (12|10, 12|11) stays inside the hand.
    hand.locator(".tiles-toggle").click()
    hand.locator(".pad-number", has_text=re.compile("^12$")).click()
    pad = hand.locator(".picker-pad")
    expect(pad.locator(".picker-tile")).to_have_count(12)  # the 12-12 is the engine
    assert pad.evaluate(INSIDE)
    for tile in pad.locator(".picker-tile").all():
        assert tile.evaluate(FITS)
    assert page.evaluate(NO_SIDE_SCROLL)
    context.close()


def test_the_new_game_form_starts_from_the_keyboard(
    browser: Browser, browser_context_args: dict, live_server: str
):
    context = phone_for(browser, browser_context_args)
    page = context.new_page()
    page.goto(live_server + "/games/new")
    start_button = page.get_by_role("button", name="Start the game")
    add = page.get_by_role("button", name="Add a player")
    # Start is on the first screen; "Add a player" does not look like it.
    box = start_button.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"]
    look = "el => [getComputedStyle(el).backgroundColor, getComputedStyle(el).borderStyle]"
    assert add.evaluate(look) != start_button.evaluate(look)
    # Enter goes to the next name, and after the last one starts the game.
    page.get_by_label("Player 1", exact=True).fill("Ana")
    page.keyboard.press("Enter")
    expect(page.get_by_label("Player 2", exact=True)).to_be_focused()
    for name in ("Ben", "Cy", "Di"):
        page.keyboard.type(name)
        page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name=re.compile("Record round 1"))).to_be_visible()
    expect(page.locator(".game-players")).to_have_text("Ana · Ben · Cy · Di")
    context.close()


def test_a_viewer_can_share_the_link_and_the_icon_is_fetched_once(
    browser: Browser, browser_context_args: dict, live_server: str, caplog
):
    context = phone_for(browser, browser_context_args)
    page = context.new_page()
    start(page, live_server, ["Ana", "Ben", "Cy", "Di"])
    link = page.locator("#view-link").get_attribute("href")
    # The scorer's phone is put away first: its own requests (its service worker's) are not
    # the viewer's.
    context.close()
    # Without the service worker: its one-off install copies the icon into its own cache.
    viewer = browser.new_context(
        **{**browser_context_args, "viewport": PHONE}, service_workers="block"
    )
    other = viewer.new_page()
    caplog.set_level(logging.INFO, logger="werkzeug")
    caplog.clear()  # the viewer's pages only
    other.goto(link)
    button = other.get_by_role("button", name="Share the link")
    expect(button).to_be_visible()
    assert other.locator('meta[property="og:url"]').get_attribute("content") == link
    other.wait_for_load_state("networkidle")
    icons = [r for r in caplog.records if "favicon.svg" in r.getMessage()]
    assert len(icons) == 1, [r.getMessage() for r in icons]
    viewer.close()


def test_the_club_tabs_take_one_row(browser: Browser, browser_context_args: dict, live_server: str):
    context = phone_for(browser, browser_context_args)
    page = context.new_page()
    page.goto(live_server + "/sign-up")
    fill_sign_up(page, "Tab Owner", "tabs@example.org", "correct horse battery")
    page.goto(live_server + "/clubs/new")
    page.get_by_label("Club name").fill("Tab Club")
    page.get_by_role("button", name="Create the club").click()
    tabs = page.locator(".club-nav")
    expect(tabs.get_by_role("link")).to_have_count(10)  # Ratings (issue 21) among them
    assert tabs.evaluate("el => el.getBoundingClientRect().height") < 60
    assert page.evaluate(NO_SIDE_SCROLL)
    # The last tab's page shows its own tab.
    tabs.get_by_role("link", name="Settings").click()
    expect(page.locator('.club-nav [aria-current="page"]')).to_be_in_viewport(ratio=0.9)
    context.close()


@pytest.mark.parametrize(("lang", "font"), [("hi", "SK Devanagari"), ("en", "SK Hindi")])
def test_devanagari_is_drawn_with_the_apps_font(
    browser: Browser, browser_context_args: dict, live_server: str, lang, font
):
    context = phone_for(browser, browser_context_args, lang)
    page = context.new_page()
    fonts = []
    page.on("response", lambda r: fonts.append(r.url) if "/static/fonts/" in r.url else None)
    page.goto(live_server + "/")
    page.evaluate("() => document.fonts.ready")
    word = page.locator('.language-switcher a[lang="hi"]')
    expect(word).to_have_text("हिन्दी")
    assert page.evaluate(f"() => document.fonts.check('16px \"{font}\"', 'हिन्दी')")
    assert page.evaluate(
        "name => [...document.fonts].some(f => f.family.replaceAll('\"', '') === name"
        " && f.status === 'loaded')",
        font,
    )
    # English pages fetch only the one word's 3 KB, never the whole font.
    whole = any(url.endswith("/noto-sans-devanagari.woff") for url in fonts)
    assert whole == (lang == "hi")
    context.close()
