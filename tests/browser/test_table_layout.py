"""The game at the table on a small phone: 8 players' sheet at 360 px (names, leader, sticky
round column and totals), the charts' figures as a table, dark mode, and Ctrl+P giving the
print view's single page."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from clubs.helpers import PASSWORD, add_roster, make_club, make_user
from helpers import IMAGES_IN_VIEW_LOADED, NO_SIDE_SCROLL, SCREENSHOTS, shot, sign_in
from playwright.sync_api import Browser, Page, expect
from tables import EIGHT, OWNER_EMAIL, Tables, serve

SMALL_PHONE = {"width": 360, "height": 740}
MM = 96 / 25.4  # CSS px in a millimetre


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tables]:
    yield from serve(tmp_path_factory.mktemp("layout"), make_user, make_club, add_roster)


@pytest.fixture
def owner(browser: Browser, browser_context_args: dict, tables: Tables) -> Iterator[Page]:
    context = browser.new_context(**browser_context_args)
    page = context.new_page()
    sign_in(page, tables.base, OWNER_EMAIL, PASSWORD)
    yield page
    context.close()


def pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![A-Za-z])", pdf))


def test_eight_players_fit_a_360_px_phone(owner: Page, tables: Tables) -> None:
    owner.set_viewport_size(SMALL_PHONE)
    owner.goto(f"{tables.base}/games/{tables.eight}")
    assert owner.evaluate(NO_SIDE_SCROLL)
    sheet = owner.locator("#sheet .sheet-scroll")
    assert sheet.evaluate("el => el.scrollWidth <= el.clientWidth"), "the sheet scrolls sideways"
    # Every heading shows its whole short name, and the key under the sheet says who is who.
    headings = owner.locator("#sheet thead th")
    expect(headings).to_have_count(9)
    for index in range(1, 9):
        assert headings.nth(index).evaluate("th => th.scrollWidth <= th.clientWidth + 1")
    key = owner.locator("#sheet .sheet-key")
    for name in EIGHT:
        expect(key).to_contain_text(name)
    # A screen reader hears the full name in each heading.
    expect(owner.get_by_role("columnheader", name="Esperanza")).to_have_count(1)
    # The leader's total is on screen (no sideways scroll needed).
    leader = owner.locator("#sheet tr.totals td.leader").first.bounding_box()
    assert leader is not None and leader["x"] + leader["width"] <= SMALL_PHONE["width"]
    # Penalties are explained.
    expect(owner.locator("#sheet .sheet-legend")).to_contain_text("+10, +30")


def test_names_and_totals_stay_on_screen_while_the_sheet_scrolls(
    owner: Page, tables: Tables
) -> None:
    owner.set_viewport_size(SMALL_PHONE)
    owner.goto(f"{tables.base}/games/{tables.eight}")
    # Scroll so the sheet's first round sits at the top: the names row sticks above it and the
    # totals row, further down the page, sticks to the bottom of the screen.
    owner.locator("#round-3").evaluate("row => window.scrollTo(0, row.offsetTop + 200)")
    owner.locator("#sheet").evaluate(
        "s => window.scrollTo(0, s.getBoundingClientRect().top + scrollY + 120)"
    )
    names = owner.locator("#sheet thead th").first.bounding_box()
    assert names is not None and names["y"] >= -1, "the names row left the screen"
    owner.evaluate(
        "window.scrollTo(0, document.querySelector('#sheet').getBoundingClientRect().top"
        " + scrollY - innerHeight + 220)"
    )
    totals = owner.locator("#sheet tr.totals th").bounding_box()
    assert totals is not None
    assert totals["y"] + totals["height"] <= SMALL_PHONE["height"] + 1, "totals off screen"


def test_partners_are_placed_as_teams_on_the_sheet(owner: Page, tables: Tables) -> None:
    owner.goto(f"{tables.base}/games/{tables.teams}")
    place = owner.locator("#sheet tfoot tr").nth(1).locator("td")
    zeros = owner.locator("#sheet tfoot tr").nth(2).locator("td")
    # Anabel went out: her team (with Benjamin) is first and has a zero round; so is Benjamin.
    assert place.all_inner_texts() == ["1", "1", "2", "2"]
    assert zeros.all_inner_texts() == ["1", "1", "0", "0"]
    expect(owner.locator(".standing").first).to_contain_text("1 zero round")


def test_the_race_chart_has_its_figures_as_a_table(owner: Page, tables: Tables) -> None:
    owner.goto(f"{tables.base}/games/{tables.finished}")
    owner.get_by_text("The same figures as a table").click()
    table = owner.locator(".chart-table table")
    expect(table).to_be_visible()
    # Running totals after each round, as the sheet's Total row ends.
    last = table.locator("tbody tr").last.locator("td").all_inner_texts()
    assert last == [t.strip() for t in owner.locator("#sheet tr.totals td").all_inner_texts()]


def test_dark_mode_follows_the_phone(browser: Browser, tables: Tables) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="dark")
    try:
        page = context.new_page()
        sign_in(page, tables.base, OWNER_EMAIL, PASSWORD)
        page.goto(f"{tables.base}/games/{tables.eight}")
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(18, 20, 23)"
        page.locator("#sheet").evaluate("el => el.scrollIntoView()")
        shot(page, "dark-sheet.png")
        page.goto(f"{tables.base}/s/{tables.share}")
        page.locator(".charts").evaluate("el => el.scrollIntoView()")
        shot(page, "dark-share-chart.png")
    finally:
        context.close()


@pytest.mark.parametrize("kind", ["game", "share", "finished"])
def test_ctrl_p_gives_the_print_views_single_page(
    owner: Page, tables: Tables, kind: str, tmp_path: Path
) -> None:
    path = {
        "game": f"/games/{tables.eight}",
        "share": f"/s/{tables.share}",
        "finished": f"/games/{tables.finished}",
    }[kind]
    owner.goto(tables.base + path)
    owner.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # lazy charts load
    owner.locator(".charts img").first.scroll_into_view_if_needed()
    owner.wait_for_function(IMAGES_IN_VIEW_LOADED)
    owner.emulate_media(media="print")
    expect(owner.locator("#sheet")).to_be_visible()
    expect(owner.locator(".standings")).to_be_visible()
    expect(owner.locator(".charts img")).to_have_count(2)
    expect(owner.locator(".charts img").first).to_be_visible()
    expect(owner.locator(".charts img").nth(1)).to_be_hidden()
    expect(owner.locator(".site-header")).to_be_hidden()
    expect(owner.locator("form")).to_have_count(owner.locator("form:not(:visible)").count())
    for index, name in enumerate(EIGHT if kind != "finished" else EIGHT[:4]):
        # What is printed: the full name (the short heading is the screen's).
        assert owner.locator("#sheet thead th").nth(index + 1).inner_text().strip() == name
    pdfs = {paper: owner.pdf(format=paper) for paper in ("A4", "Letter")}
    for paper, pdf in pdfs.items():
        assert pdf_pages(pdf) == 1, f"{kind} on {paper}"
    if kind == "share" and shutil.which("pdftoppm"):
        pdf_path = tmp_path / "share.pdf"
        pdf_path.write_bytes(pdfs["A4"])
        command = ["pdftoppm", "-png", "-r", "60", "-singlefile", str(pdf_path)]
        subprocess.run([*command, str(SCREENSHOTS / "print-share")], check=True)


def test_the_empty_paper_sheet_has_rows_to_write_in(owner: Page, tables: Tables) -> None:
    owner.goto(f"{tables.base}/games/{tables.eight}/print?blank=1")
    owner.emulate_media(media="print")
    rows = owner.locator("tbody .blank-row")
    expect(rows).to_have_count(13)
    height = rows.first.bounding_box()["height"]
    assert height >= 9 * MM, f"a row is {height / MM:.1f} mm"
    for paper in ("A4", "Letter"):
        assert pdf_pages(owner.pdf(format=paper)) == 1, paper


def test_the_header_is_one_line_at_360_px(owner: Page, tables: Tables) -> None:
    owner.set_viewport_size(SMALL_PHONE)
    for path in ("/", f"/games/{tables.eight}"):
        owner.goto(tables.base + path)
        header = owner.locator(".site-header .container").bounding_box()
        assert header is not None and header["height"] <= 56, path
        expect(owner.get_by_role("link", name="Scorekeeper")).to_be_visible()


def test_screenshots_of_the_game_at_the_table(owner: Page, tables: Tables) -> None:
    owner.goto(f"{tables.base}/games/{tables.eight}")
    owner.locator("#sheet").evaluate("el => el.scrollIntoView()")
    shot(owner, "sheet-8-players.png")
    owner.locator(".charts").evaluate("el => el.scrollIntoView()")
    shot(owner, "charts.png")
    owner.goto(f"{tables.base}/s/{tables.share}")
    shot(owner, "share-8-players.png")
