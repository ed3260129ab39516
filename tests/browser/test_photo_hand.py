"""A hand from a photo on a small phone (360x740): the photo (drawn by the project's own
generator) is scaled and sent by photo.js, the tiles found are outlined on it with their values,
the scorer changes one, removes one, adds a missed one, and "Use these tiles" ticks them in the
hand, which is saved like any hand of tiles. Screenshots of the confirm view at 390x844 on a
light and a dark table go to docs/screenshots/."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from helpers import hand, pips, save, shot, totals, went_out
from playwright.sync_api import Browser, BrowserContext, Page, expect
from test_accessibility import AXE

from training.synthetic import make_photo

FOUR = ["Ana", "Ben", "Cy", "Di"]
HAND = [(6, 4), (12, 0), (3, 3), (9, 11)]


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context: BrowserContext = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    yield page
    context.close()


def start(page: Page, base: str) -> None:
    page.goto(base + "/games/new")
    for seat, name in enumerate(FOUR):
        page.get_by_label(f"Player {seat + 1}", exact=True).fill(name)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".flash-success")).to_contain_text("Game on!")
    page.wait_for_load_state()  # the flash paints before the scripts have set up


def send_photo(
    page: Page,
    name: str,
    tiles: list[tuple[int, int]] = HAND,
    arrangement: str = "scattered",
    **look: str,
) -> None:
    photo = make_photo(3, tiles=tiles, arrangement=arrangement, set_max="12", **look)
    field = hand(page, name).locator(".photo-input")
    field.set_input_files({"name": "hand.jpg", "mimeType": "image/jpeg", "buffer": photo.jpeg})
    expect(page.locator("#photo-confirm")).to_be_visible()
    expect(page.locator(".photo-status")).to_have_text(
        f"Tiles found: {len(tiles)}. Tap a tile to change it.", timeout=15_000
    )


def test_a_hand_read_from_a_photo_is_confirmed_and_saved(phone: Page, live_server: str):
    start(phone, live_server)
    ben = hand(phone, "Ben")
    expect(ben.get_by_role("button", name="Photo", exact=True)).to_be_visible()
    expect(phone.locator("#photo-block")).to_be_hidden()  # the no-script form of it
    send_photo(phone, "Ben", face="white", pips="black", table="dark wood")
    panel = phone.locator("#photo-confirm")
    # The panel opens inside Ben's hand, the tiles outlined and numbered on the photo, the list
    # below saying what each number holds.
    expect(ben.locator("#photo-confirm")).to_be_visible()
    expect(panel.locator("svg polygon")).to_have_count(4)
    numbers = panel.locator("svg text").evaluate_all("els => els.map(e => e.textContent)")
    assert numbers == ["1", "2", "3", "4"]
    listed = panel.locator(".photo-tile").all_inner_texts()
    assert [t.split()[0] for t in listed] == numbers
    assert sorted(t.split()[1] for t in listed) == sorted(
        f"{max(a, b)}-{min(a, b)}" for a, b in HAND
    )
    expect(panel.locator(".photo-sum")).to_have_text("48")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    # Change the 6-4 into a 5-5 (two taps on the pad), remove the 3-3, add a missed 2-1.
    panel.get_by_role("button", name="Change the 6-4").click()
    panel.locator(".photo-pad button", has_text=re.compile(r"^5$")).click()
    expect(panel.locator(".photo-prompt")).to_have_text("Now the other end of the 5-…")
    panel.locator(".photo-pad button", has_text=re.compile(r"^5$")).click()
    panel.get_by_role("button", name="Remove the 3-3").click()
    panel.get_by_role("button", name="Add a missed tile").click()
    panel.locator(".photo-pad button", has_text=re.compile(r"^2$")).click()
    panel.locator(".photo-pad button", has_text=re.compile(r"^1$")).click()
    expect(panel.locator(".photo-sum")).to_have_text(str(10 + 12 + 20 + 3))

    panel.get_by_role("button", name="Use these tiles").click()
    expect(panel).to_be_hidden()
    expect(pips(phone, "Ben")).to_have_value("45")
    ticked = ben.locator(".tile-check:checked")
    assert sorted(ticked.evaluate_all("boxes => boxes.map(b => b.value)")) == sorted(
        ["5-5", "12-0", "11-9", "2-1"]
    )
    went_out(phone, "Ana")
    pips(phone, "Cy").fill("7")
    pips(phone, "Di").fill("3")
    save(phone)
    expect(phone.locator(".flash-success")).to_have_text("Round 1 saved.")
    assert totals(phone) == ["0", "45", "7", "3"]


@pytest.mark.parametrize(
    ("table", "look"),
    [
        ("light", {"face": "ivory", "pips": "coloured", "table": "white cloth"}),
        ("dark", {"face": "white", "pips": "coloured", "table": "black"}),
    ],
)
def test_screenshots_of_the_confirm_view(browser: Browser, live_server: str, table, look):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        start(page, live_server)
        send_photo(page, "Ben", **look)
        # Whose hand it is, the photo with its outlines, the tiles and the buttons in one view.
        hand(page, "Ben").evaluate("el => { el.scrollIntoView(); window.scrollBy(0, -6); }")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        box = page.locator("#photo-confirm .photo-actions").bounding_box()
        assert box is not None and box["y"] + box["height"] <= 844
        shot(page, f"photo-confirm-{table}-390.png")
    finally:
        context.close()


# Where each number sits on the screen, and the box of the outline it belongs to.
PLACES = """svg => Array.from(svg.querySelectorAll("text")).map((label, i) => {
    const box = label.getBoundingClientRect();
    const outline = svg.querySelectorAll("polygon")[i].getBoundingClientRect();
    return {text: label.textContent, left: box.left, right: box.right, top: box.top,
            bottom: box.bottom, height: box.height, tile: [outline.left, outline.right,
            outline.top, outline.bottom]};
})"""
TEN = [(12, 11), (10, 9), (8, 7), (6, 5), (4, 3), (2, 1), (12, 0), (11, 10), (9, 8), (7, 6)]


@pytest.mark.parametrize("arrangement", ["row", "scattered"])
def test_ten_tiles_on_a_photo_can_each_be_read_at_360_px(
    phone: Page, live_server: str, arrangement
):
    start(phone, live_server)
    send_photo(phone, "Ben", tiles=TEN, arrangement=arrangement, face="white", pips="black",
               table="dark wood")  # fmt: skip
    panel = phone.locator("#photo-confirm")
    panel.locator(".photo-frame").scroll_into_view_if_needed()
    places = panel.locator("svg").evaluate(PLACES)
    assert [p["text"] for p in places] == [str(n) for n in range(1, 11)]
    for place in places:
        # Big enough to read, and inside its own tile's outline.
        assert place["height"] >= 10
        left, right, top, bottom = place["tile"]
        middle_x = (place["left"] + place["right"]) / 2
        middle_y = (place["top"] + place["bottom"]) / 2
        assert left <= middle_x <= right and top <= middle_y <= bottom
    for i, one in enumerate(places):
        for other in places[i + 1 :]:
            apart = (
                one["right"] <= other["left"] + 1
                or other["right"] <= one["left"] + 1
                or one["bottom"] <= other["top"] + 1
                or other["bottom"] <= one["top"] + 1
            )
            assert apart, f"{one['text']} and {other['text']} overlap"
    # The list says what each number holds.
    listed = panel.locator(".photo-tile").all_inner_texts()
    assert [t.split()[0] for t in listed] == [str(n) for n in range(1, 11)]
    assert sorted(t.split()[1] for t in listed) == sorted(f"{max(t)}-{min(t)}" for t in TEN)
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shot(phone, f"photo-confirm-ten-{arrangement}-360.png")


def test_the_engine_left_out_is_said_beside_the_buttons_and_the_total_is_the_hands(
    phone: Page, live_server: str
):
    start(phone, live_server)
    # Round 1 of a double-12 game: the 12-12 is the engine, in no hand.
    send_photo(phone, "Ben", tiles=[*HAND, (12, 12)], face="white", pips="black",
               table="dark wood")  # fmt: skip
    panel = phone.locator("#photo-confirm")
    expect(panel.locator(".photo-sum")).to_have_text("72")
    panel.get_by_role("button", name="Use these tiles").click()
    note = panel.locator(".photo-note")
    expect(note).to_have_text("Not in play this round, left out: 12-12")
    # Where the scorer is looking: on the screen, beside the buttons just tapped.
    box = note.bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 740
    buttons = panel.locator(".photo-actions").bounding_box()
    assert buttons is not None and 0 <= buttons["y"] - (box["y"] + box["height"]) < 60
    # The panel's total is what the hand gets, the 12-12 marked left out.
    expect(pips(phone, "Ben")).to_have_value("48")
    expect(panel.locator(".photo-sum")).to_have_text("48")
    expect(panel.get_by_role("button", name="Change the 12-12 (left out)")).to_be_visible()
    shot(phone, "photo-confirm-engine-left-out-360.png")
    # Using them again takes the others and closes the panel.
    panel.get_by_role("button", name="Use these tiles").click()
    expect(panel).to_be_hidden()
    expect(pips(phone, "Ben")).to_have_value("48")


@pytest.mark.skipif(not AXE.exists(), reason="npm install (make axe) first")
# Seen to time out waiting for the file chooser on a loaded machine (1 run in 3, before and after
# pressing through the locator): run again once; a second miss fails.
@pytest.mark.flaky(reruns=1)
def test_each_hand_has_a_real_camera_button(browser: Browser, live_server: str):
    """A button, by tap or keyboard, that opens the phone's camera or photo picker; and axe finds
    nothing on the round form, not even a minor finding (a label given role="button" was one:
    aria-allowed-role)."""
    # bypass_csp: axe is injected as a script of the test's own, which the strict CSP refuses.
    context = browser.new_context(viewport={"width": 360, "height": 740}, bypass_csp=True)
    page = context.new_page()
    try:
        start(page, live_server)
        camera = hand(page, "Cy").get_by_role("button", name="Photo", exact=True)
        expect(camera).to_be_visible()
        with page.expect_file_chooser() as chooser:
            camera.press("Enter")  # focuses the button as it is now, then the key
        assert chooser.value.element.evaluate("input => input.accept") == "image/*"
        with page.expect_file_chooser():
            camera.click()
        page.add_script_tag(path=str(AXE))
        found = page.evaluate(
            "() => axe.run('#round-form').then(r => r.violations.map(v => [v.id, v.impact]))"
        )
        assert found == []
    finally:
        context.close()


def test_an_empty_photo_file_says_it_is_empty(phone: Page, live_server: str):
    start(phone, live_server)
    field = hand(phone, "Ben").locator(".photo-input")
    field.set_input_files({"name": "hand.jpg", "mimeType": "image/jpeg", "buffer": b""})
    expect(phone.locator("#photo-confirm .photo-status")).to_have_text(
        "That photo file is empty: take the photo again or choose another."
    )


@pytest.mark.skipif(not AXE.exists(), reason="npm install (make axe) first")
def test_the_review_panel_with_a_tile_left_out_has_no_accessibility_finding(
    browser: Browser, live_server: str
):
    # bypass_csp: axe is injected as a script of the test's own, which the strict CSP refuses.
    context = browser.new_context(viewport={"width": 360, "height": 740}, bypass_csp=True)
    page = context.new_page()
    try:
        start(page, live_server)
        send_photo(page, "Ben", tiles=[*HAND, (12, 12)], face="white", pips="black",
                   table="dark wood")  # fmt: skip
        panel = page.locator("#photo-confirm")
        panel.get_by_role("button", name="Use these tiles").click()
        expect(panel.locator(".photo-note")).to_be_visible()
        page.add_script_tag(path=str(AXE))
        found = page.evaluate(
            "() => axe.run('#photo-confirm').then(r => r.violations.map(v => [v.id, v.impact]))"
        )
        assert found == []
    finally:
        context.close()
