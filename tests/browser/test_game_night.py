"""A game night in a real browser at phone size: set up, score rounds, share, finish, print."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import urljoin

import pytest
from helpers import (
    IMAGES_IN_VIEW_LOADED,
    NO_SIDE_SCROLL,
    SCREENSHOTS,
    hand,
    key_in,
    pips,
    record,
    save,
    set_up,
    shot,
    totals,
    type_into,
    went_out,
)
from playwright.sync_api import Browser, Locator, Page, expect

FOUR = ["Ana", "Ben", "Cy", "Di"]
SIX = ["Ana", "Ben", "Cy", "Di", "Eve", "Finn"]
EIGHT = ["Ana", "Ben", "Cy", "Di", "Eve", "Finn", "Gus", "Hana"]
TAKEN = re.compile(r"\btaken\b")


# Helpers: what a player does ------------------------------------------------------------------


def start_game(page: Page, base: str, names: list[str], *, rounds: int | None = None) -> int:
    """Set a game up through the setup page, as a player does, and return its id."""
    page.goto(base + "/games/new")
    set_up(page, names, rounds=rounds)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".flash-success")).to_contain_text("Game on!")
    page.wait_for_load_state()  # the flash paints before the scripts have set up
    return game_id_of(page)


def quick_game(page: Page, base: str, names: list[str]) -> int:
    """Set a game up in one post of the setup form from this phone (tests about later steps)."""
    page.goto(base + "/games/new")
    form = page.locator("form.setup-form").evaluate("f => Object.fromEntries(new FormData(f))")
    form.update({f"players-{seat}": name for seat, name in enumerate(names)})
    form["submit"] = "Start the game"
    response = page.request.post(base + "/games/new", form=form, max_redirects=0)
    assert response.status == 302, response.text()
    page.goto(urljoin(base, response.headers["location"]))
    expect(page.locator(".flash-success")).to_contain_text("Game on!")
    page.wait_for_load_state()  # the flash paints before the scripts have set up
    return game_id_of(page)


def game_id_of(page: Page) -> int:
    return int(re.search(r"/games/(\d+)", page.url).group(1))


def tile(hand_block: Locator, text: str) -> Locator:
    """A tile in one hand's picker, by its halves, high first: '6-4'."""
    return hand_block.locator(f'label.tile:has(input[value="{text}"])')


def random_rounds(seats: int, count: int, seed: int) -> list[list[int | None]]:
    """Plausible rounds: each player goes out in turn (None), the others hold 3 to 95 pips."""
    rng = random.Random(seed)
    return [
        [None if seat == number % seats else rng.randint(3, 95) for seat in range(seats)]
        for number in range(count)
    ]


def post_rounds(page: Page, base: str, game_id: int, rounds: list[list[int | None]]) -> None:
    """Fill in rounds quickly: the form posts the game page would send, from this phone.

    Each round lists the pips by seat, None for the player who went out.
    """
    if not page.url.startswith(f"{base}/games/{game_id}"):
        page.goto(f"{base}/games/{game_id}")
    token = page.locator("#round-form input[name=csrf_token]").input_value()
    first = int(page.locator("#round-form input[name=number]").input_value())
    for number, hands in enumerate(rounds, first):
        form = {"csrf_token": token, "number": str(number), "out": str(hands.index(None))}
        for seat, value in enumerate(hands):
            form[f"mode_{seat}"] = "pips"
            form[f"pips_{seat}"] = "" if value is None else str(value)
        url = f"{base}/games/{game_id}/rounds"
        response = page.request.post(url, form=form, max_redirects=0)
        assert response.status == 302, response.text()
    page.goto(f"{base}/games/{game_id}")
    expect(page.locator("#sheet tbody tr")).to_have_count(first + len(rounds) - 1)


def pdf_pages(pdf: bytes) -> int:
    """Pages in a PDF: leaf /Type /Page objects (not /Pages), checked against the tree's /Count."""
    leaves = len(re.findall(rb"/Type\s*/Page(?![A-Za-z])", pdf))
    counts = [int(n) for n in re.findall(rb"/Type\s*/Pages\b[^>]*?/Count\s+(\d+)", pdf)]
    counts += [int(n) for n in re.findall(rb"/Count\s+(\d+)[^>]*?/Type\s*/Pages\b", pdf)]
    assert counts, "no page tree found in the PDF"
    assert max(counts) == leaves, (counts, leaves)
    return leaves


# Setting up and the game page -----------------------------------------------------------------


def test_a_four_player_double_12_game_from_the_home_page(page: Page, live_server: str) -> None:
    page.goto(live_server + "/")
    page.get_by_role("link", name="New game", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("New game")
    set_up(page, FOUR, typing=key_in)
    expect(page.locator("#suggestion")).to_have_text(
        "Suggested for 4 players: double-12, 12 tiles each."
    )
    shot(page, "setup.png")
    page.get_by_role("button", name="Start the game").click()

    expect(page.locator(".flash-success")).to_have_text("Game on! Round 1 is ready.")
    page.wait_for_load_state()  # the flash paints before the scripts have set up
    expect(page.locator(".game-title")).to_have_text("Mexican Train · double-12")
    expect(page.locator("#current-heading")).to_have_text("Round 1 of 13")
    expect(page.locator('svg[aria-label="Engine 12-12"]')).to_be_visible()
    expect(page.locator(".current .opener")).to_have_text("Ana opens")
    expect(hand(page, "Ana").locator("legend .tag")).to_have_text("opens")
    expect(page.locator("fieldset.hand")).to_have_count(4)
    shot(page, "game.png")


def test_record_a_round_by_numbers_and_see_the_leader(page: Page, live_server: str) -> None:
    quick_game(page, live_server, FOUR)
    record(page, "Ana", {"Ben": 15, "Cy": 7, "Di": 22})

    expect(page.locator(".flash-success")).to_have_text("Round 1 saved.")
    expect(page.locator("#current-heading")).to_have_text("Round 2 of 13")
    expect(page.locator(".current .opener")).to_have_text("Ben opens")
    assert totals(page) == ["0", "15", "7", "22"]
    expect(page.locator("#round-1 td").first).to_contain_text("0✓")
    leader_total = page.locator("#sheet tr.totals td.leader")
    expect(leader_total).to_have_count(1)
    expect(leader_total).to_have_text("0")
    expect(page.locator("#sheet thead th.leader")).to_have_text("Ana")
    # The leader's column stands out: not the same background as the others.
    background = "el => getComputedStyle(el).backgroundColor"
    other = page.locator("#sheet tr.totals td").nth(1)
    assert leader_total.evaluate(background) != other.evaluate(background)
    expect(page.locator(".standing-leader .who")).to_have_text("Ana")
    # The form is empty again for round 2.
    expect(pips(page, "Ben")).to_have_value("")


def pick(hand_block: Locator, text: str) -> None:
    """In one hand's tile picker: tap one end of the tile, then its partner."""
    hand_block.locator(".pad-number", has_text=re.compile(rf"^{text.split('-')[0]}$")).click()
    hand_block.get_by_role("button", name=f"Add the {text}", exact=True).click()


def test_record_a_round_by_tiles(page: Page, live_server: str) -> None:
    quick_game(page, live_server, FOUR)
    went_out(page, "Ana")
    ben, cy, di = hand(page, "Ben"), hand(page, "Cy"), hand(page, "Di")
    ben.get_by_role("button", name="Tiles", exact=True).click()
    pick(ben, "6-4")
    expect(ben.locator(".picker .hand-value")).to_have_text("= 10")
    pick(ben, "3-2")
    expect(ben.locator(".picker .hand-value")).to_have_text("= 15")
    expect(pips(page, "Ben")).to_have_value("15")
    expect(ben.locator('input[name="mode_1"][value="tiles"]')).to_be_checked()

    # "Tiles" on Ben opened the pickers of the other empty hands too (the table counts tiles).
    expect(cy.locator(".picker")).to_be_visible()
    expect(di.locator(".picker")).to_be_visible()
    pick(cy, "12-0")
    pick(cy, "11-1")
    expect(cy.locator(".picker .hand-value")).to_have_text("= 24")
    pick(di, "12-11")
    expect(di.locator(".picker .hand-value")).to_have_text("= 23")
    ben.evaluate("el => el.scrollIntoView()")
    shot(page, "tiles.png")
    save(page)

    expect(page.locator(".flash-success")).to_have_text("Round 1 saved.")
    assert totals(page) == ["0", "15", "24", "23"]
    expect(page.locator("#round-1 td").nth(1)).to_have_attribute("title", "6-4 3-2")


def test_a_blocked_round(page: Page, live_server: str) -> None:
    quick_game(page, live_server, FOUR)
    for name, value in zip(FOUR, (9, 4, 31, 6), strict=True):
        type_into(pips(page, name), str(value))
    page.get_by_text("Blocked: nobody went out").click()
    expect(page.get_by_role("radio", name="Blocked: nobody went out")).to_be_checked()
    save(page)

    expect(page.locator(".flash-success")).to_have_text("Round 1 saved.")
    expect(page.locator("#round-1 .tag")).to_have_text("blocked")
    assert totals(page) == ["9", "4", "31", "6"]
    expect(page.locator(".standing-leader .who")).to_have_text("Ben")


def test_a_typo_is_caught_beside_the_field_and_nothing_typed_is_lost(
    page: Page, live_server: str
) -> None:
    quick_game(page, live_server, FOUR)
    record(page, "Ana", {"Ben": 15, "Cy": "1o", "Di": 22}, typing=key_in)

    error = hand(page, "Cy").locator(".error")
    expect(error).to_have_text("Cy: 1o is not a whole number of pips.")
    expect(pips(page, "Cy")).to_have_attribute("aria-invalid", "true")
    expect(pips(page, "Cy")).to_have_attribute("aria-describedby", "pips_2-error")
    expect(page.locator(".error")).to_have_count(1)
    expect(pips(page, "Ben")).to_have_value("15")
    expect(pips(page, "Cy")).to_have_value("1o")
    expect(pips(page, "Di")).to_have_value("22")
    expect(hand(page, "Ana").get_by_role("radio", name="Went out")).to_be_checked()
    expect(page.locator("#sheet .empty")).to_have_text("No rounds yet.")

    key_in(pips(page, "Cy"), "10")
    save(page)
    expect(page.locator(".flash-success")).to_have_text("Round 1 saved.")
    assert totals(page) == ["0", "15", "10", "22"]


def test_an_unlikely_hand_asks_for_confirmation(page: Page, live_server: str) -> None:
    quick_game(page, live_server, FOUR)
    record(page, "Ana", {"Ben": 15, "Cy": 7, "Di": 300})

    warning = page.locator("#round-warnings")
    expect(warning).to_contain_text("Please check before saving:")
    expect(warning).to_contain_text("Di: 300 is more than the 12 best tiles are worth (244).")
    expect(pips(page, "Di")).to_have_value("300")
    expect(page.locator("#sheet .empty")).to_have_text("No rounds yet.")
    page.get_by_label("I checked: save it anyway").check()
    save(page)

    expect(page.locator(".flash-success")).to_have_text("Round 1 saved.")
    assert totals(page) == ["0", "15", "7", "300"]


def test_edit_an_earlier_round_from_the_sheet(page: Page, live_server: str) -> None:
    game_id = quick_game(page, live_server, FOUR)
    post_rounds(page, live_server, game_id, [[None, 15, 7, 22], [5, None, 8, 9]])
    assert totals(page) == ["5", "15", "15", "31"]

    page.locator("#round-1 a.edit-round").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Edit round 1 · 12-12")
    expect(pips(page, "Ben")).to_have_value("15")
    type_into(pips(page, "Ben"), "51")
    save(page)

    expect(page.locator(".flash-success")).to_have_text("Round 1 corrected.")
    assert totals(page) == ["5", "51", "15", "31"]
    expect(page.locator("#round-1 td").nth(1)).to_have_text("51")
    page.get_by_text("History of changes").click()
    expect(page.locator(".history-list")).to_contain_text("Round 1, Ben: 15 → 51")


def test_the_share_page_follows_the_game_by_itself(
    page: Page, live_server: str, browser: Browser, browser_context_args: dict
) -> None:
    game_id = quick_game(page, live_server, FOUR)
    post_rounds(page, live_server, game_id, [[None, 15, 7, 22]])
    share_url = page.locator("#view-link").get_attribute("href")

    other_phone = browser.new_context(**browser_context_args)
    try:
        watcher = other_phone.new_page()
        watcher.goto(share_url)
        expect(watcher.locator("#current-heading")).to_have_text("Round 2 of 13")
        expect(watcher.get_by_role("button", name="Save round")).to_have_count(0)
        expect(watcher.locator("a.edit-round")).to_have_count(0)
        watcher.evaluate("window.notReloaded = true")

        record(page, "Ben", {"Ana": 40, "Cy": 8, "Di": 9})
        expect(page.locator(".flash-success")).to_have_text("Round 2 saved.")
        live = watcher.locator("#sheet tr.totals")
        expect(live).to_contain_text("40", timeout=6000)
        expect(watcher.locator("#current-heading")).to_have_text("Round 3 of 13")
        assert [t.strip() for t in live.locator("td").all_inner_texts()] == [
            "40",
            "15",
            "15",
            "31",
        ]
        assert watcher.evaluate("window.notReloaded === true")
        shot(watcher, "share.png")
    finally:
        other_phone.close()


def test_a_short_game_ends_with_final_standings(page: Page, live_server: str) -> None:
    game_id = start_game(page, live_server, FOUR, rounds=2)
    expect(page.locator("#current-heading")).to_have_text("Round 1 of 2")
    post_rounds(page, live_server, game_id, [[None, 15, 7, 22]])
    expect(page.locator("#current-heading")).to_have_text("Round 2 of 2")
    expect(page.locator('svg[aria-label="Engine 11-11"]')).to_be_visible()
    record(page, "Cy", {"Ana": 12, "Ben": 3, "Di": 30})

    expect(page.locator("#current-heading")).to_have_text("Game over")
    expect(page.locator("#standings-heading")).to_have_text("Final standings")
    expect(page.locator(".winner")).to_have_text("Winner: Cy")
    expect(page.locator(".standing").first.locator(".who")).to_have_text("Cy")
    expect(page.get_by_role("button", name="Save round")).to_have_count(0)
    assert totals(page) == ["12", "18", "7", "52"]
    page.locator("#sheet").evaluate("el => el.scrollIntoView()")
    shot(page, "final.png")


def test_six_players_sheet_and_standings(page: Page, live_server: str) -> None:
    game_id = quick_game(page, live_server, SIX)
    post_rounds(page, live_server, game_id, random_rounds(6, 5, seed=6))
    rows = page.locator("#sheet tbody tr")
    expect(rows).to_have_count(5)
    expect(page.locator("#sheet thead th")).to_have_count(7)
    expect(page.locator(".standing")).to_have_count(6)
    expect(page.locator("#sheet tr.totals td.leader")).not_to_have_count(0)
    sheet_box = page.locator("#sheet .sheet-scroll")
    assert sheet_box.evaluate("el => el.scrollWidth <= el.clientWidth"), "6 players need no scroll"
    page.locator("#sheet").evaluate("el => el.scrollIntoView()")
    shot(page, "sheet.png")


# Printing -------------------------------------------------------------------------------------


@pytest.mark.parametrize("names", [FOUR, EIGHT], ids=["4-players", "8-players"])
def test_a_finished_13_round_game_prints_on_one_page(
    page: Page, live_server: str, names: list[str], tmp_path: Path
) -> None:
    game_id = quick_game(page, live_server, names)
    post_rounds(page, live_server, game_id, random_rounds(len(names), 13, seed=len(names)))
    expect(page.locator("#standings-heading")).to_have_text("Final standings")

    page.goto(f"{live_server}/games/{game_id}/print")
    expect(page.locator(".print-sheet #sheet tbody tr")).to_have_count(13)
    expect(page.locator(".print-sheet .winner")).to_contain_text("Winner:")
    page.wait_for_function(IMAGES_IN_VIEW_LOADED)  # the race chart is on the page
    page.emulate_media(media="print")
    expect(page.locator(".no-print")).to_be_hidden()
    pdfs = {paper: page.pdf(format=paper) for paper in ("A4", "Letter")}
    for paper, pdf in pdfs.items():
        assert pdf_pages(pdf) == 1, f"{len(names)} players on {paper}"
    if len(names) == 8:
        if shutil.which("pdftoppm"):
            pdf_path = tmp_path / "print.pdf"
            pdf_path.write_bytes(pdfs["A4"])
            command = ["pdftoppm", "-png", "-r", "60", "-singlefile", str(pdf_path)]
            subprocess.run([*command, str(SCREENSHOTS / "print")], check=True)
        else:
            page.emulate_media(media="screen")
            shot(page, "print.png")


def test_the_empty_paper_sheet_prints_on_one_page(page: Page, live_server: str) -> None:
    game_id = quick_game(page, live_server, FOUR)
    page.goto(f"{live_server}/games/{game_id}/print?blank=1")
    expect(page.locator("tbody .blank-row")).to_have_count(13)  # one row per engine
    expect(page.locator("tfoot .blank-row")).to_have_count(2)  # Total and Place, by hand
    page.emulate_media(media="print")
    for paper in ("A4", "Letter"):
        assert pdf_pages(page.pdf(format=paper)) == 1, paper


# Each cell of the sheet whose words come within 2 px of its left or right border (or cross it).
TOUCHING_A_BORDER = """() => [...document.querySelectorAll("#sheet th, #sheet td")]
  .flatMap(cell => {
    const range = document.createRange();
    range.selectNodeContents(cell);
    const words = [...range.getClientRects()].filter(box => box.width > 0);
    if (!words.length) return [];
    const box = cell.getBoundingClientRect();
    const left = Math.min(...words.map(w => w.left)), right = Math.max(...words.map(w => w.right));
    return left - box.left < 2 || box.right - right < 2 ? [cell.innerText] : [];
})"""


def test_long_names_stay_inside_their_columns_on_paper(page: Page, live_server: str) -> None:
    names = ["Maximiliana-Alexandrina", "Ben", "Christopher Featherstonehaugh", "Di",
             "Evangelina Wolfeschlegelsteinhausen", "Finn", "Gus", "Hana"]  # fmt: skip
    game_id = quick_game(page, live_server, names)
    post_rounds(page, live_server, game_id, random_rounds(len(names), 3, seed=3))
    page.goto(f"{live_server}/games/{game_id}/print")
    page.emulate_media(media="print")
    # A4's width inside the print margins (210 - 2 x 12 mm) at 96 px an inch.
    page.set_viewport_size({"width": 703, "height": 1000})
    expect(page.locator("#sheet thead th")).to_have_count(9)
    assert page.evaluate(TOUCHING_A_BORDER) == []
    assert pdf_pages(page.pdf(format="A4")) == 1


# Fitting a phone ------------------------------------------------------------------------------


def test_no_page_scrolls_sideways(page: Page, live_server: str) -> None:
    def fits(what: str) -> None:
        for width in (390, 360):
            page.set_viewport_size({"width": width, "height": 844})
            assert page.evaluate(NO_SIDE_SCROLL), f"{what} scrolls sideways at {width}px"

    page.goto(live_server + "/games/new")
    set_up(page, EIGHT)
    fits("the setup page")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".flash-success")).to_contain_text("Game on!")
    page.wait_for_load_state()  # the flash paints before the scripts have set up
    game_id = game_id_of(page)
    post_rounds(page, live_server, game_id, random_rounds(8, 4, seed=8))
    expect(page.locator("#sheet tbody tr")).to_have_count(4)
    hand(page, "Hana").get_by_role("button", name="Tiles", exact=True).click()
    hand(page, "Hana").locator(".pad-number").nth(6).click()
    expect(hand(page, "Hana").locator(".picker-tile")).to_have_count(13)
    fits("the game page with 8 players and a tile picker open")
    share_url = page.locator("#view-link").get_attribute("href")

    page.goto(share_url)
    expect(page.locator("#sheet tbody tr")).to_have_count(4)
    fits("the share page")
    page.goto(f"{live_server}/games/{game_id}/print")
    fits("the print view")
    page.goto(f"{live_server}/games/{game_id}/print?blank=1")
    fits("the empty paper sheet")


# Without JavaScript ---------------------------------------------------------------------------


def test_everything_works_without_javascript(
    browser: Browser, live_server: str, browser_context_args: dict
) -> None:
    context = browser.new_context(**browser_context_args, java_script_enabled=False)
    try:
        page = context.new_page()
        start_game(page, live_server, FOUR)
        expect(page.locator("#current-heading")).to_have_text("Round 1 of 13")

        went_out(page, "Ana")
        ben = hand(page, "Ben")
        ben.get_by_text("Tap the tiles in Ben's hand").click()
        # The page carries one grid for the script to copy: without it, the server draws them.
        ben.get_by_role("button", name="Show the tiles").click()
        expect(pips(page, "Cy")).to_have_value("")
        expect(page.locator("#out-0")).to_be_checked()  # what was typed is kept
        ben = hand(page, "Ben")
        tile(ben, "6-4").click()
        tile(ben, "3-2").click()
        expect(ben.locator('input[value="6-4"]')).to_be_checked()
        # No script here to add the tiles up or pick the mode: the server does the sum.
        expect(ben.locator(".hand-value")).to_have_text("")
        expect(pips(page, "Ben")).to_have_value("")
        ben.get_by_role("radio", name="Tiles").check()
        type_into(pips(page, "Cy"), "7")
        type_into(pips(page, "Di"), "22")
        save(page)
        expect(page.locator(".flash-success")).to_have_text("Round 1 saved.")
        assert totals(page) == ["0", "15", "7", "22"]
        expect(page.locator("#round-1 td").nth(1)).to_have_attribute("title", "6-4 3-2")

        record(page, "Ben", {"Ana": 5, "Cy": 8, "Di": 9})
        expect(page.locator(".flash-success")).to_have_text("Round 2 saved.")
        assert totals(page) == ["5", "15", "15", "31"]
    finally:
        context.close()
