"""Every main page, checked with axe-core in Chromium, in light and dark mode: no serious or
critical violation; and the buttons and links of the main forms are big enough to tap at 360 px."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from clubs.helpers import PASSWORD, add_roster, make_club, make_user
from helpers import pips, record, set_up, sign_in
from playwright.sync_api import Browser, Page, expect
from tables import OWNER_EMAIL, Tables, serve

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")
TARGET = 44  # CSS px: the smallest tap target the pages allow in their forms

pytestmark = pytest.mark.skipif(not AXE.exists(), reason="npm install (make axe) first")


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tables]:
    yield from serve(tmp_path_factory.mktemp("a11y"), make_user, make_club, add_roster, guests=True)


def pages(t: Tables) -> dict[str, str]:
    """The pages a member sees (signed in as the club's owner), by a name for the report."""
    club = f"/clubs/{t.club}"
    return {
        "home": "/",
        "new game": "/games/new",
        "game in progress (8 players)": f"/games/{t.eight}",
        "game finished": f"/games/{t.finished}",
        "partnership game": f"/games/{t.teams}",
        "edit round": f"/games/{t.eight}/rounds/2/edit",
        "history": f"/games/{t.eight}/history",
        "share": f"/s/{t.share}",
        "share finished": f"/s/{t.finished_share}",
        "table link (My hand)": f"/t/{t.table}",
        "print": f"/games/{t.eight}/print",
        "print empty sheet": f"/games/{t.eight}/print?blank=1",
        "account": "/account",
        "change password": "/account/password",
        "change email": "/account/email",
        "clubs": "/clubs",
        "new club": "/clubs/new",
        "club from an export file": "/clubs/import",
        "club": club,
        "club new game": f"{club}/games/new",
        "roster": f"{club}/roster",
        "link guests to the roster": f"{club}/guests",
        "members": f"{club}/members",
        "invites": f"{club}/invites",
        "settings": f"{club}/settings",
        "club history": f"{club}/history",
        "delete club": f"{club}/delete",
        "delete season": f"{club}/seasons/{t.season}/delete",
        "delete night": f"{club}/nights/{t.night}/delete",
        "head to head": f"{club}/head-to-head",
        "ratings": f"{club}/ratings",
        "how ratings work": f"{club}/ratings/how",
        "seasons": f"{club}/seasons",
        "season": f"{club}/seasons/{t.season}",
        "new season": f"{club}/seasons/new",
        "season print": f"{club}/seasons/{t.season}/print",
        "nights": f"{club}/nights",
        "night": f"{club}/nights/{t.night}",
        "new night": f"{club}/nights/new",
        "player": f"{club}/players/{t.player}",
        "opponent": f"{club}/players/{t.player}/vs",
        "public club page": f"/c/{t.public}",
    }


def serious_violations(page: Page, only: list[str] | None = None) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now, one line each
    (`only`: just these rules)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    options: dict = {"resultTypes": ["violations"]}
    if only:
        options["runOnly"] = {"type": "rule", "values": only}
    result = page.evaluate("options => axe.run(document, options)", options)
    return [
        f"{v['id']} ({v['impact']}): " + json.dumps([node["target"] for node in v["nodes"][:3]])
        for v in result["violations"]
        if v["impact"] in SERIOUS
    ]


@pytest.fixture(scope="module", params=["light", "dark"])
def member(request, browser: Browser, browser_context_args: dict, tables: Tables) -> Iterator[Page]:
    """The owner's phone, signed in, in the light or the dark colour scheme."""
    # bypass_csp: axe is injected as a script of the test's own, which the strict CSP refuses.
    scheme = request.param
    context = browser.new_context(**browser_context_args, color_scheme=scheme, bypass_csp=True)
    page = context.new_page()
    sign_in(page, tables.base, OWNER_EMAIL, PASSWORD)
    yield page
    context.close()


def test_no_serious_violation_on_any_page(member: Page, tables: Tables) -> None:
    # Dark mode changes colours only: there, contrast is what is checked (a full run per page
    # in both schemes would double the module's minute).
    dark = member.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    found = {}
    for name, path in pages(tables).items():
        response = member.goto(tables.base + path)
        assert response is not None and response.ok, (name, response and response.status)
        problems = serious_violations(member, ["color-contrast"] if dark else None)
        if problems:
            found[name] = problems
    assert not found, json.dumps(found, indent=1)


def test_no_serious_violation_on_the_pages_a_button_leads_to(
    member: Page, browser: Browser, browser_context_args: dict, tables: Tables
) -> None:
    """The pages no link opens: the conflict choice, the second step of End and Undo, the edit
    link's question, and the error pages."""
    dark = member.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    found = {}

    def check(name: str, heading: str) -> None:
        expect(member.get_by_role("heading", level=1)).to_have_text(heading)
        problems = serious_violations(member, ["color-contrast"] if dark else None)
        if problems:
            found[name] = problems

    response = member.goto(tables.base + "/no-such-page")
    assert response is not None and response.status == 404
    check("404", "Page not found")
    member.goto(tables.base + "/games/new")
    set_up(member, ["Ana", "Ben", "Cy", "Di"])
    member.get_by_role("button", name="Start the game").click()
    member.wait_for_load_state()  # the game's page, its scripts set up
    game = member.url.split("#")[0]
    record(member, "Ana", {"Ben": 15, "Cy": 7, "Di": 22})
    expect(member.locator(".flash-success")).to_have_text("Round 1 saved.")
    member.get_by_role("button", name="End the game now").click()
    check("end: second step", "End the game now?")
    member.goto(game)
    member.get_by_role("button", name="Undo round 1").click()
    check("undo: second step", "Undo round 1?")
    # Another phone saves round 2 while this one types it: the conflict choice.
    member.goto(game)
    other = member.context.new_page()
    try:
        other.goto(game)
        # Typing first: a page with nothing typed would follow the other phone to round 3.
        pips(member, "Ana").fill("6")
        record(other, "Ben", {"Ana": 5, "Cy": 8, "Di": 9})
        expect(other.locator(".flash-success")).to_have_text("Round 2 saved.")
    finally:
        other.close()
    record(member, "Ben", {"Ana": 6, "Cy": 8, "Di": 9})
    check("conflict", "Round 2 was saved from another phone")
    # The edit link, opened on a phone that cannot score yet.
    member.goto(game)
    edit_link = member.locator("#edit-link").get_attribute("href")
    context = browser.new_context(**browser_context_args, bypass_csp=True)
    try:
        stranger = context.new_page()
        stranger.goto(edit_link)
        expect(stranger.get_by_role("button", name="Score this game on this phone")).to_be_visible()
        problems = serious_violations(stranger, ["color-contrast"] if dark else None)
        if problems:
            found["edit link"] = problems
    finally:
        context.close()
    assert not found, json.dumps(found, indent=1)


def test_no_serious_violation_when_signed_out(
    browser: Browser, browser_context_args: dict, tables: Tables
) -> None:
    # bypass_csp: axe is injected as a script of the test's own, which the strict CSP refuses.
    context = browser.new_context(**browser_context_args, bypass_csp=True)
    try:
        page = context.new_page()
        found = {}
        for path in (
            "/",
            "/sign-in",
            "/sign-up",
            "/forgot-password",
            "/games/new",
            f"/s/{tables.share}",
        ):
            page.goto(tables.base + path)
            problems = serious_violations(page)
            if problems:
                found[path] = problems
        assert not found, json.dumps(found, indent=1)
    finally:
        context.close()


SMALL_TARGETS = """([selector, target]) => Array.from(document.querySelectorAll(selector))
    .filter(el => el.offsetParent !== null)
    .map(el => [el, el.getBoundingClientRect()])
    .filter(([el, box]) => box.height < target || box.width < target)
    .map(([el, box]) => `${el.tagName.toLowerCase()} "${el.textContent.trim().slice(0, 30)}"`
        + ` ${Math.round(box.width)}x${Math.round(box.height)}`)"""

# The controls of the main forms and the page's own buttons; links inside running text are
# exempt (WCAG 2.5.8), as are the inputs (their boxes are checked with their labels).
CONTROLS = (
    "main button, main .button, main input[type=submit], main select, main input[type=text],"
    " main input[type=email], main input[type=password], main input[type=number],"
    " .site-header a, .site-header button, .score-table .edit-round, main summary,"
    " .out-toggle, .mode-choice"
)


def test_tap_targets_are_big_enough_at_360px(member: Page, tables: Tables) -> None:
    member.set_viewport_size({"width": 360, "height": 740})
    small = {}
    for name in (
        "home",
        "new game",
        "game in progress (8 players)",
        "edit round",
        "share",
        "club",
        "new night",
        "season",
    ):
        member.goto(tables.base + pages(tables)[name])
        found = member.evaluate(SMALL_TARGETS, [CONTROLS, TARGET])
        if found:
            small[name] = found
    member.set_viewport_size({"width": 390, "height": 844})
    assert not small, json.dumps(small, indent=1)
