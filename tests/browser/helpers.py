"""What a player does in the browser tests, shared by their modules: sign up or in, score a
round on the game page, check the page fits the phone, and take a screenshot."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Locator, Page, expect

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
NO_SIDE_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth"
IMAGES_IN_VIEW_LOADED = """() => Array.from(document.images)
    .filter(img => {
        const box = img.getBoundingClientRect();
        return box.bottom > 0 && box.top < innerHeight;
    })
    .every(img => img.complete && img.naturalWidth > 0)"""


def shot(page: Page, name: str, *, full_page: bool = False) -> None:
    """Save what the phone shows, once the pictures in view (charts, QR code) have loaded."""
    page.wait_for_function(IMAGES_IN_VIEW_LOADED)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / name), full_page=full_page)


# Accounts -------------------------------------------------------------------------------------


def sign_in(page: Page, base: str, email: str, password: str) -> None:
    """Sign in from the sign-in page, as a member does on their own phone."""
    page.goto(base + "/sign-in")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()


def fill_sign_up(page: Page, name: str, email: str, password: str) -> None:
    """On the sign-up page: type the name, email and password twice, create the account, then
    sign in on the page the answer leads to."""
    expect(page.get_by_role("heading", level=1)).to_have_text("Create an account")
    page.get_by_label("Your name").fill(name)
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_label("Password again").fill(password)
    page.get_by_role("button", name="Create account").click()
    expect(page.locator(".flash-success").first).to_contain_text(
        f"We sent a mail to {email}. If the address is new here, your account is ready"
    )
    expect(page.get_by_role("heading", level=1)).to_have_text("Sign in")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()


def confirm_email(page: Page, mailbox, email: str) -> None:
    """Open the confirmation link mailed to `email` (as the SMTP server received it) on this
    phone and press its button."""
    page.goto(mailbox.wait_for(email).link("/verify-email/"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Confirm your email address")
    page.get_by_role("button", name="Confirm my email address").click()
    expect(page.locator(".flash-success")).to_have_text(f"Thank you: {email} is confirmed.")


# The game page --------------------------------------------------------------------------------


def type_into(field: Locator, text: str) -> None:
    """Type into a field (it takes the focus, as a tap does; what was there is replaced)."""
    field.fill(text)


def key_in(field: Locator, text: str) -> None:
    """Tap a field, clear it and type key by key (slower: for the tests about typing)."""
    field.click()
    field.fill("")
    field.press_sequentially(text)


def set_up(page: Page, names: list[str], *, rounds: int | None = None, typing=type_into) -> None:
    """On the setup page: type the names (adding rows as needed) and maybe the number of rounds."""
    for _ in range(len(names) - 4):
        page.get_by_role("button", name="Add a player").click()
    for seat, name in enumerate(names):
        typing(page.get_by_label(f"Player {seat + 1}", exact=True), name)
    if rounds is not None:
        page.get_by_text("Rules and options").click()
        type_into(page.get_by_label("Rounds", exact=True), str(rounds))


def hand(page: Page, name: str) -> Locator:
    """One player's block of the round sheet."""
    return page.locator("fieldset.hand").filter(
        has=page.locator("legend", has_text=re.compile(rf"^{name}\b"))
    )


def pips(page: Page, name: str) -> Locator:
    return page.get_by_label(f"Pips left in {name}'s hand")


def went_out(page: Page, name: str) -> None:
    hand(page, name).get_by_text("Went out").click()


def save(page: Page, *, online: bool = True) -> None:
    """Tap Save; online, wait for the page it opens (saved: the script reloads the game page;
    refused: the server's page), so the next step never races that navigation."""
    button = page.get_by_role("button", name="Save round")
    if not online:  # the round goes to the outbox: nothing navigates
        button.click()
        return
    # The script marks the page (history.replaceState to #record), which Playwright counts as
    # a navigation, then reloads it: wait for the new document, not only the mark.
    page.evaluate("window.skPageBeforeSave = true")
    with page.expect_navigation():
        button.click()
    page.wait_for_function("() => !window.skPageBeforeSave && document.readyState === 'complete'")


def record(
    page: Page, out: str, hands: dict[str, int | str], *, typing=type_into, online: bool = True
) -> None:
    """Score a round by numbers, the way a scorer does it on the game page."""
    went_out(page, out)
    for name, value in hands.items():
        typing(pips(page, name), str(value))
    save(page, online=online)


def totals(page: Page) -> list[str]:
    return [t.strip() for t in page.locator("#sheet tr.totals td").all_inner_texts()]


def wait_until_kept(page: Page, url: str) -> None:
    """Wait until the service worker has kept `url`'s answer: it stores a page as it arrives,
    a moment after the page shows, and a phone that goes offline sooner has no copy."""
    page.wait_for_function("url => caches.match(url).then(Boolean)", arg=url)
