"""A round in seconds, on a small phone (360x740): taps and scrolling to score a round by
numbers and by tiles, where the page opens after a save and after a refused save, the tile
picker, the conflict choice, and the second step of End and Undo.

A tap is a click on something the scorer must hit (a field, a toggle, a button); the digits
typed on the keypad are not taps. Scrolling is the distance the page moved to bring each
thing into view before its tap.

Measured on main before the redesign (same steps): by numbers 5 taps, 1,053 px of scrolling
for the first round and 2,182 px for the next one (the page opened at the sheet); by tiles,
3 hands of 3 tiles, 14 taps and 4,735 px (every picker showed all 90 tiles, a 6,000 px page).

Measured after the redesign (these tests, 360x740, printed with `-s`):
- by numbers (4 players): round 1 5 taps, 414 px (the page opens at the top, below the game's
  header); round 2 5 taps, 0 px (the page opens at the form: one screen);
- by tiles (3 hands of 3 tiles): a phone's first round by tiles 21 taps (went out, one "Tiles"
  tap that opens every empty hand's picker, 9 tiles x 2, Save), 1,008 px (the form 1,198 px
  with three pickers open); the next round 20 taps, 659 px (the pickers open by themselves);
  the first round of the phone's next game 20 taps, 1,844 px (the pickers open by themselves,
  the page opens at the top). 20 taps for 9 tiles leaves no tap to choose tiles: a phone that
  never counted tiles needs that one tap.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from helpers import SCREENSHOTS, hand, pips, shot, totals
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

FOUR = ["Ana", "Ben", "Cy", "Di"]
SMALL_PHONE = {"width": 360, "height": 740}
IN_VIEW = """el => {
    const box = el.getBoundingClientRect();
    return box.top >= -1 && box.bottom <= window.innerHeight + 1;
}"""


class Thumb:
    """The scorer's thumb: counts taps and the scrolling each one needed."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.taps = 0
        self.scrolled = 0
        self.form_height = 0

    def tap(self, target: Locator) -> None:
        before = self.page.evaluate("window.scrollY")
        target.scroll_into_view_if_needed()
        self.scrolled += abs(self.page.evaluate("window.scrollY") - before)
        target.click()
        self.taps += 1

    def type(self, field: Locator, text: str) -> None:
        self.tap(field)
        field.press_sequentially(text)


@pytest.fixture(scope="module")
def small(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport=SMALL_PHONE)
    yield context
    context.close()


@pytest.fixture
def phone(small: BrowserContext) -> Iterator[Page]:
    page = small.new_page()
    yield page
    page.close()


def start(page: Page, base: str, names: list[str] = FOUR, rounds: int | None = None) -> int:
    """Set up a game on the setup page and land on its page, scrolled to the top."""
    page.goto(base + "/games/new")
    for seat, name in enumerate(names):
        page.get_by_label(f"Player {seat + 1}", exact=True).fill(name)
    if rounds is not None:
        page.get_by_text("Rules and options").click()
        page.get_by_label("Rounds", exact=True).fill(str(rounds))
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".flash-success")).to_contain_text("Game on!")
    page.wait_for_load_state()  # the flash paints before the scripts have set up
    return int(re.search(r"/games/(\d+)", page.url).group(1))


def by_numbers(page: Page, out: str, values: dict[str, str]) -> Thumb:
    thumb = Thumb(page)
    thumb.tap(hand(page, out).get_by_text("Went out"))
    for name, value in values.items():
        thumb.type(pips(page, name), value)
    # draft.js sends the round, then reloads the page (saved) or submits the form (refused):
    # wait for that page, not for the one already loaded.
    with page.expect_navigation():
        thumb.tap(page.get_by_role("button", name="Save round"))
    return thumb


def tiles_button(page: Page, name: str) -> Locator:
    return hand(page, name).get_by_role("button", name="Tiles", exact=True)


def pick(thumb: Thumb, block: Locator, tile: str) -> None:
    """Two taps: one end of the tile, then its partner (drawn as a domino)."""
    high, low = tile.split("-")
    thumb.tap(block.locator(".pad-number", has_text=re.compile(rf"^{high}$")))
    thumb.tap(block.get_by_role("button", name=f"Add the {tile}", exact=True))


def in_view(target: Locator) -> bool:
    return target.evaluate(IN_VIEW)


def test_a_round_by_numbers_takes_five_taps_on_one_screen(phone: Page, live_server: str):
    start(phone, live_server)
    first = by_numbers(phone, "Ana", {"Ben": "15", "Cy": "7", "Di": "22"})
    expect(phone.locator(".flash-success")).to_have_text("Round 1 saved.")
    assert phone.url.endswith("#record")
    # After the save: the message, the next round's heading and its first field are in view,
    # and the field has the focus (the keypad is one tap away... or none).
    assert in_view(phone.locator(".flash-success"))
    assert in_view(phone.get_by_role("heading", name="Record round 2"))
    expect(pips(phone, "Ana")).to_be_focused()
    assert in_view(pips(phone, "Ana"))

    second = by_numbers(phone, "Ben", {"Ana": "5", "Cy": "8", "Di": "9"})
    expect(phone.locator(".flash-success")).to_have_text("Round 2 saved.")
    assert totals(phone) == ["5", "15", "15", "31"]
    print(
        f"\nby numbers: round 1 {first.taps} taps, {first.scrolled} px; "
        f"round 2 {second.taps} taps, {second.scrolled} px"
    )
    assert second.taps <= 9
    assert second.scrolled == 0  # one screen: every tap was in view where the page opened


def tiles_round(phone: Page, out: str, hands: dict[str, list[str]], tiles_tap: bool) -> Thumb:
    """Score a round by tiles: who went out, one tap on "Tiles" if the pickers are closed (the
    other empty hands open theirs with it), two taps a tile, Save."""
    # The saved round's message paints before the scripts have opened the page at the form:
    # the thumb starts where they leave it.
    phone.wait_for_load_state()
    thumb = Thumb(phone)
    thumb.tap(hand(phone, out).get_by_text("Went out"))
    if tiles_tap:
        thumb.tap(tiles_button(phone, next(iter(hands))))
    for name, tiles in hands.items():
        expect(hand(phone, name).locator(".picker")).to_be_visible()
        for tile in tiles:
            pick(thumb, hand(phone, name), tile)
    thumb.form_height = phone.locator("#round-form").evaluate("form => form.offsetHeight")
    thumb.tap(phone.get_by_role("button", name="Save round"))
    return thumb


def test_a_round_by_tiles_takes_two_taps_a_tile(browser: Browser, live_server: str):
    # A phone that never counted tiles before (its own storage).
    context = browser.new_context(viewport=SMALL_PHONE)
    phone = context.new_page()
    try:
        start(phone, live_server)
        expect(hand(phone, "Ben").locator(".picker")).to_be_hidden()  # numbers first
        first = tiles_round(
            phone,
            "Ana",
            {
                "Ben": ["12-11", "9-3", "5-5"],
                "Cy": ["10-2", "7-7", "4-1"],
                "Di": ["8-6", "6-0", "3-3"],
            },
            tiles_tap=True,
        )
        expect(phone.locator(".flash-success")).to_have_text("Round 1 saved.")
        assert totals(phone) == ["0", "45", "31", "26"]
        expect(phone.locator("#round-1 td").nth(1)).to_have_attribute("title", "12-11 9-3 5-5")

        # The table counts tiles: the next round opens on the pickers, no "Tiles" tap needed.
        second = tiles_round(
            phone,
            "Ben",
            {
                "Ana": ["12-10", "9-4", "1-1"],
                "Cy": ["11-3", "8-8", "5-2"],
                "Di": ["10-7", "6-6", "2-0"],
            },
            tiles_tap=False,
        )
        expect(phone.locator(".flash-success")).to_have_text("Round 2 saved.")
        assert totals(phone) == ["37", "45", "68", "57"]

        # The next game on this phone: its first round opens on the pickers too.
        start(phone, live_server)
        next_game = tiles_round(
            phone,
            "Cy",
            {
                "Ana": ["12-11", "9-3", "5-5"],
                "Ben": ["10-2", "7-7", "4-1"],
                "Di": ["8-6", "6-0", "3-3"],
            },
            tiles_tap=False,
        )
        expect(phone.locator(".flash-success")).to_have_text("Round 1 saved.")
        assert totals(phone) == ["45", "31", "0", "26"]
    finally:
        context.close()
    print(
        f"\nby tiles: round 1 {first.taps} taps, {first.scrolled} px "
        f"(form {first.form_height} px); "
        f"round 2 {second.taps} taps, {second.scrolled} px; "
        f"next game's round 1 {next_game.taps} taps, {next_game.scrolled} px"
    )
    # Went out, one "Tiles" tap for the whole round, 9 tiles x 2, Save.
    assert first.taps <= 21
    # A table that counts tiles: went out, 9 x 2, Save.
    assert second.taps <= 20 and next_game.taps <= 20
    # No scrolling through the whole set: with three pickers open the form is under two
    # screens (it was about 5,000 px, and 4,735 px of scrolling for this round).
    assert first.form_height < 2 * SMALL_PHONE["height"]
    # (A first round starts at the top of the page, below the game's header.)
    assert second.scrolled < 1_000


def test_the_picker_keeps_a_tile_in_one_hand(phone: Page, live_server: str):
    start(phone, live_server)
    ben, cy = hand(phone, "Ben"), hand(phone, "Cy")
    tiles_button(phone, "Ben").click()
    expect(ben.locator(".picker")).to_be_visible()
    expect(ben.locator(".tile-picker")).to_be_hidden()  # the 90-tile grid is for no-script
    ben.locator(".pad-number", has_text=re.compile("^6$")).click()
    # The engine (12-12) is never offered; partners are drawn as dominoes.
    expect(ben.locator(".picker-tile")).to_have_count(13)
    ben.get_by_role("button", name="Add the 6-4").click()
    # "Tiles" on one hand opened every empty hand's picker (the table counts tiles).
    expect(cy.locator(".picker")).to_be_visible()
    cy.locator(".pad-number", has_text=re.compile("^6$")).click()
    expect(cy.get_by_role("button", name="Add the 6-4")).to_have_count(0)  # taken: gone
    expect(cy.get_by_role("button", name="Add the 6-5")).to_have_count(1)
    cy.get_by_role("button", name="Back").click()
    cy.locator(".pad-number", has_text=re.compile("^12$")).click()
    expect(cy.get_by_role("button", name="Add the 12-12")).to_have_count(0)  # the engine
    cy.get_by_role("button", name="Add the 12-0").click()
    # Ben puts the 6-4 back: Cy may take it now.
    ben.get_by_role("button", name="Take the 6-4 out of the hand").click()
    expect(pips(phone, "Ben")).to_have_value("")
    cy.locator(".pad-number", has_text=re.compile("^4$")).click()
    expect(cy.get_by_role("button", name="Add the 4-6")).to_have_count(1)  # the end tapped first
    # Typing a number instead closes the picker: the number counts.
    pips(phone, "Cy").fill("")
    pips(phone, "Cy").press_sequentially("7")
    expect(cy.locator(".picker")).to_be_hidden()
    expect(cy.locator('input[name="mode_2"][value="pips"]')).to_be_checked()
    targets = phone.locator(".picker button, .tiles-toggle, .out-toggle")
    sizes = targets.evaluate_all(
        "els => els.filter(e => e.offsetParent).map(e => e.getBoundingClientRect())"
        ".map(r => Math.min(r.width, r.height))"
    )
    assert min(sizes) >= 44


def test_tiles_picked_come_back_after_a_reload(phone: Page, live_server: str):
    # The picker's taps are kept in the round's draft like typing; a hand's tile grid is made
    # when the hand needs it (not all at load): the draft's tiles get their grid back.
    start(phone, live_server)
    assert phone.locator(".tile-check").count() == 0  # no hand's grid before one is opened
    ben = hand(phone, "Ben")
    tiles_button(phone, "Ben").click()
    pick(Thumb(phone), ben, "6-4")
    pick(Thumb(phone), ben, "9-3")
    expect(pips(phone, "Ben")).to_have_value("22")
    phone.reload()
    ben = hand(phone, "Ben")
    expect(ben.get_by_role("button", name="Take the 6-4 out of the hand")).to_be_visible()
    expect(ben.get_by_role("button", name="Take the 9-3 out of the hand")).to_be_visible()
    expect(pips(phone, "Ben")).to_have_value("22")
    hand(phone, "Ana").get_by_text("Went out").click()
    pips(phone, "Cy").fill("7")
    pips(phone, "Di").fill("3")
    phone.get_by_role("button", name="Save round").click()
    expect(phone.locator(".flash-success")).to_have_text("Round 1 saved.")
    assert totals(phone) == ["0", "22", "7", "3"]


def test_a_refused_round_focuses_a_summary_that_links_each_field(phone: Page, live_server: str):
    start(phone, live_server)
    by_numbers(phone, "Ana", {"Ben": "15", "Cy": "1o", "Di": "22"})
    summary = phone.locator("#round-errors")
    expect(summary).to_be_focused()
    assert in_view(summary)
    link = summary.get_by_role("link", name="Cy: 1o is not a whole number of pips.")
    link.click()
    expect(pips(phone, "Cy")).to_be_focused()
    expect(pips(phone, "Cy")).to_have_value("1o")


def screenshot_size(page: Page) -> None:
    page.set_viewport_size({"width": 390, "height": 844})


def shot_at_screenshot_size(page: Page, name: str) -> None:
    """The docs' pictures are 390x844; the test itself goes on at 360x740."""
    screenshot_size(page)
    shot(page, name)
    page.set_viewport_size(SMALL_PHONE)


def test_screens_of_the_round_form_and_the_tile_picker(phone: Page, live_server: str):
    screenshot_size(phone)
    start(phone, live_server)
    by_numbers(phone, "Ana", {"Ben": "15", "Cy": "7", "Di": "22"})
    expect(phone.locator(".flash-success")).to_have_text("Round 1 saved.")
    phone.locator("body").click(position={"x": 5, "y": 5})  # no focus ring in the picture
    phone.evaluate("location.hash = ''; document.getElementById('record').scrollIntoView()")
    shot(phone, "round-form.png")
    tiles_button(phone, "Ana").click()
    pick(Thumb(phone), hand(phone, "Ana"), "9-3")
    pick(Thumb(phone), hand(phone, "Ana"), "5-5")
    hand(phone, "Ana").locator(".pad-number", has_text=re.compile("^6$")).click()
    hand(phone, "Ana").evaluate("el => el.scrollIntoView()")
    shot(phone, "tile-picker.png")
    assert (SCREENSHOTS / "tile-picker.png").exists()


def test_the_phone_that_lost_the_race_chooses(
    browser: Browser, live_server: str, phone: Page
) -> None:
    game_id = start(phone, live_server)
    link = phone.locator("#edit-link").get_attribute("href")
    # Both scorers type round 1 at once (a page being typed in is never reloaded under them).
    hand(phone, "Ana").get_by_text("Went out").click()
    pips(phone, "Ben").fill("16")
    other = browser.new_context(viewport=SMALL_PHONE)
    try:
        second = other.new_page()
        second.goto(link)
        # An edit link asks before it makes this phone a scorer (a GET never writes).
        second.get_by_role("button", name="Score this game on this phone").click()
        expect(second.get_by_role("heading", name="Record round 1")).to_be_visible()
        by_numbers(second, "Ana", {"Ben": "15", "Cy": "7", "Di": "22"})
        expect(second.locator(".flash-success")).to_have_text("Round 1 saved.")
    finally:
        other.close()
    pips(phone, "Cy").fill("7")
    pips(phone, "Di").fill("23")
    phone.get_by_role("button", name="Save round").click()
    expect(phone.get_by_role("heading", level=1)).to_have_text(
        "Round 1 was saved from another phone"
    )
    expect(phone.locator("tr.differs")).to_have_count(2)
    expect(phone.locator("tr.differs th")).to_have_text([re.compile("^Ben"), re.compile("^Di")])
    shot_at_screenshot_size(phone, "conflict.png")
    phone.get_by_role("button", name="Record mine as round 2").click()
    expect(phone.locator(".flash-success")).to_have_text("Round 2 saved.")
    assert totals(phone) == ["0", "31", "14", "45"]
    assert phone.url.endswith(f"/games/{game_id}#record")


def test_end_asks_first_and_a_mistake_is_reopened(phone: Page, live_server: str):
    start(phone, live_server)
    by_numbers(phone, "Ana", {"Ben": "15", "Cy": "7", "Di": "22"})
    # The save lands (the page reopens at round 2) before End is tapped on the page it replaces.
    expect(phone.get_by_role("heading", name="Record round 2")).to_be_visible()
    phone.get_by_role("button", name="End the game now").click()
    expect(phone.get_by_role("heading", level=1)).to_have_text("End the game now?")
    shot_at_screenshot_size(phone, "confirm-end.png")
    phone.get_by_role("link", name="Cancel: keep it as it is").click()
    expect(phone.get_by_role("heading", name="Record round 2")).to_be_visible()

    phone.get_by_role("button", name="End the game now").click()
    phone.get_by_role("button", name="Yes, end the game").click()
    expect(phone.locator("#current-heading")).to_have_text("Game over")
    phone.get_by_role("button", name="Reopen the game").click()
    expect(phone.locator(".flash-success")).to_have_text("The game is open again.")
    expect(phone.get_by_role("heading", name="Record round 2")).to_be_visible()

    phone.get_by_role("button", name="Undo round 1").click()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Undo round 1?")
    phone.get_by_role("button", name="Yes, undo round 1").click()
    expect(phone.locator(".flash-success")).to_have_text("Round 1 undone.")
    expect(phone.get_by_role("heading", name="Record round 1")).to_be_visible()


# The layout shifts a page has had so far (0 if none: the observer reports only shifts).
SHIFTS = """() => new Promise(done => {
    new PerformanceObserver(list => done(list.getEntries().reduce((sum, e) => sum + e.value, 0)))
        .observe({type: "layout-shift", buffered: true});
    setTimeout(() => done(0), 300);
})"""


def test_the_hands_do_not_jump_when_the_script_starts(phone: Page, live_server: str):
    # Drawn as round.js leaves it from the first paint: the radios, the full tile grid and the
    # photo block never show, so nothing moves under a thumb already reaching for a field.
    game = start(phone, live_server)

    def late(route) -> None:  # the scripts arrive after the page has painted, as on 3G
        phone.wait_for_timeout(400)
        route.continue_()

    phone.route("**/*.js", late)
    phone.goto(f"{live_server}/games/{game}", wait_until="load")
    expect(phone.locator("#round-form.js-round")).to_have_count(1)
    phone.wait_for_timeout(300)
    assert phone.evaluate(SHIFTS) < 0.01
    expect(phone.locator("#round-form .mode").first).to_be_hidden()
    expect(tiles_button(phone, "Ana")).to_be_visible()
