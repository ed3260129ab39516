"""A forgotten password on a phone: sign-in's "Forgot your password?", the mail as the SMTP
server received it, its link opened in the browser, a new password, signed in; the other phone
signed out; the link dead afterwards. Every page of the flow is axe-clean and fits 360 px."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from helpers import NO_SIDE_SCROLL, fill_sign_up, shot, sign_in
from playwright.sync_api import Browser, Page, expect
from test_accessibility import AXE, serious_violations

PASSWORD = "first passphrase here"
NEW_PASSWORD = "second passphrase here"
EMAIL = "rosa.reset@example.com"
NEW_EMAIL = "rosa.new@example.com"


@pytest.fixture
def phones(browser: Browser, browser_context_args: dict) -> Iterator[tuple[Page, Page]]:
    """Rosa's phone and her laptop, with their own cookies (axe is injected: bypass_csp)."""
    contexts = [browser.new_context(**browser_context_args, bypass_csp=True) for _ in "AB"]
    try:
        yield contexts[0].new_page(), contexts[1].new_page()
    finally:
        for context in contexts:
            context.close()


def checked(page: Page, name: str) -> None:
    """The page fits a 360 px phone and axe finds nothing serious on it."""
    page.set_viewport_size({"width": 360, "height": 740})
    assert page.evaluate(NO_SIDE_SCROLL), name
    if AXE.exists():
        assert serious_violations(page) == [], name
    page.set_viewport_size({"width": 390, "height": 844})


def test_a_forgotten_password_is_reset_through_the_mailed_link(
    phones: tuple[Page, Page], live_server: str, mailbox
) -> None:
    phone, laptop = phones
    phone.goto(live_server + "/sign-up")
    fill_sign_up(phone, "Rosa", EMAIL, PASSWORD)
    phone.get_by_role("button", name="Sign out").click()
    sign_in(laptop, live_server, EMAIL, PASSWORD)

    # The phone forgot the password: sign-in offers a way back.
    phone.goto(live_server + "/sign-in")
    phone.get_by_role("link", name="Forgot your password?").click()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Forgot your password?")
    checked(phone, "forgot password")
    shot(phone, "forgot-password.png")
    phone.get_by_label("Email").fill(EMAIL)
    phone.get_by_role("button", name="Send me a link").click()
    expect(phone.locator(".flash-success")).to_contain_text(
        f"If an account uses {EMAIL}, a link to choose a new password is on its way."
    )

    # The mail arrived (the sign-up's confirmation came first); its link opens on the phone.
    mail = mailbox.wait_for(EMAIL, 2)
    assert mail.subject == "Reset your Scorekeeper password"
    link = mail.link("/reset-password/")
    phone.goto(link)
    expect(phone.get_by_role("heading", level=1)).to_have_text("Choose a new password")
    checked(phone, "reset password")
    phone.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    phone.get_by_label("New password again").fill("not the same")
    phone.get_by_role("button", name="Set new password").click()
    expect(phone.locator(".field-error")).to_contain_text("The two passwords are not the same.")
    phone.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    phone.get_by_label("New password again").fill(NEW_PASSWORD)
    phone.get_by_role("button", name="Set new password").click()
    expect(phone.locator(".flash-success")).to_have_text(
        "Password changed. Every other device was signed out."
    )
    expect(phone.get_by_role("button", name="Sign out")).to_be_visible()

    # The laptop was signed out; the link works no more.
    laptop.goto(live_server + "/account")
    expect(laptop.get_by_role("heading", level=1)).to_have_text("Sign in")
    phone.goto(link)
    expect(phone.get_by_role("heading", level=1)).to_have_text("This link no longer works")
    checked(phone, "link gone")
    sign_in(laptop, live_server, EMAIL, NEW_PASSWORD)

    # The reset link reached the address: that confirms it. A new address needs its own link.
    laptop.goto(live_server + "/account")
    expect(laptop.locator(".account-facts")).to_contain_text("confirmed")
    laptop.get_by_role("link", name="Change email").click()
    checked(laptop, "change email")
    laptop.get_by_label("Email").fill(NEW_EMAIL)
    laptop.get_by_label("Current password").fill(NEW_PASSWORD)
    laptop.get_by_role("button", name="Change email").click()
    expect(laptop.locator(".flash-success")).to_contain_text(f"Your email is now {NEW_EMAIL}.")
    expect(laptop.locator(".account-facts")).to_contain_text("not confirmed")
    laptop.get_by_role("button", name="Send the link again").click()
    expect(laptop.locator(".flash-success")).to_have_text(
        f"A new link is on its way to {NEW_EMAIL}."
    )
    laptop.goto(mailbox.wait_for(NEW_EMAIL, 2).link("/verify-email/"))
    checked(laptop, "verify email")
    shot(laptop, "verify-email.png")
    laptop.get_by_role("button", name="Confirm my email address").click()
    expect(laptop.locator(".flash-success")).to_have_text(f"Thank you: {NEW_EMAIL} is confirmed.")
    expect(laptop.locator(".account-facts")).not_to_contain_text("not confirmed")
