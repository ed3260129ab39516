"""The setup page at the table (issue 35): the set a player picks is the set the game is played
with, by keyboard or by pointer, and the sticky Start button never hides "Rules and options"."""

from __future__ import annotations

import re

import pytest
from helpers import set_up
from playwright.sync_api import Browser, Locator, Page, expect

FOUR = ["Ana", "Ben", "Cy", "Di"]
PHONES = {"360": {"width": 360, "height": 740}, "390": {"width": 390, "height": 844}}

# Which element a finger at each of three points of `el` (its top-left, middle and bottom-left
# corners, just inside) would touch: "self" when it is `el` or inside it.
TOUCHED = """el => {
    const box = el.getBoundingClientRect();
    return [[box.left + 4, box.top + 4], [box.left + box.width / 2, box.top + box.height / 2],
            [box.left + 4, box.bottom - 4]].map(([x, y]) => {
        const hit = document.elementFromPoint(x, y);
        return hit && el.contains(hit) ? "self" : hit ? hit.outerHTML.slice(0, 60) : "nothing";
    });
}"""


@pytest.fixture(params=list(PHONES))
def phone(request, browser: Browser) -> Page:
    context = browser.new_context(viewport=PHONES[request.param])
    page = context.new_page()
    yield page
    context.close()


def set_menu(page: Page) -> Locator:
    return page.get_by_label("Domino set")


def names_and_options(page: Page) -> Locator:
    """Four names typed (the page suggests double-12), the options opened."""
    set_up(page, FOUR)
    expect(page.locator("#suggestion")).to_have_text(
        "Suggested for 4 players: double-12, 12 tiles each."
    )
    page.get_by_text("Rules and options").click()
    menu = set_menu(page)
    expect(menu).to_have_value("12")
    return menu


def start(page: Page) -> None:
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".flash-success")).to_contain_text("Game on!")


def test_the_first_choice_in_the_set_menu_sticks_from_the_keyboard(
    page: Page, live_server: str
) -> None:
    page.goto(live_server + "/games/new")
    menu = names_and_options(page)
    # Down arrow twice from double-12: double-15, then double-18 (not back to 12 in between).
    menu.focus()
    page.keyboard.press("ArrowDown")
    expect(menu).to_have_value("15")
    page.keyboard.press("ArrowDown")
    expect(menu).to_have_value("18")
    page.keyboard.press("ArrowUp")
    expect(menu).to_have_value("15")
    # A fifth name typed afterwards changes the suggestion, not the table's choice.
    page.get_by_role("button", name="Add a player").click()
    page.get_by_label("Player 5", exact=True).fill("Eve")
    expect(page.locator("#suggestion")).to_contain_text("Suggested for 5 players")
    expect(menu).to_have_value("15")
    start(page)
    expect(page.locator(".game-title")).to_have_text("Mexican Train · double-15")


def test_the_first_choice_in_the_set_menu_sticks_from_a_tap(page: Page, live_server: str):
    page.goto(live_server + "/games/new")
    menu = names_and_options(page)
    menu.select_option(label="Double-9")  # as a tap on the menu's option does
    expect(menu).to_have_value("9")
    start(page)
    expect(page.locator(".game-title")).to_have_text("Mexican Train · double-9")


def test_the_start_button_never_hides_rules_and_options(phone: Page, live_server: str):
    width = phone.viewport_size["width"]
    phone.goto(live_server + "/games/new")
    if width != 360:  # at 360 px the empty page already puts the options under the button
        set_up(phone, FOUR)
    options = phone.locator("summary", has_text="Rules and options")
    # From the last name, Tab on past "Add a player" and the game's type to the options.
    phone.get_by_label("Player 4", exact=True).focus()
    for _ in range(6):
        phone.keyboard.press("Tab")
        if options.evaluate("el => el === document.activeElement"):
            break
    expect(options).to_be_focused()
    assert options.evaluate(TOUCHED) == ["self"] * 3, "under the Start button"
    # A tap there opens the options; it does not start the game.
    options.click()
    expect(set_menu(phone)).to_be_visible()
    expect(phone).to_have_url(re.compile(r"/games/new$"))
