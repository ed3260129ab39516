"""Signing out ends the session on the server: copied cookies stop working; sign out everywhere."""

from __future__ import annotations

from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.models import User, UserSession

PASSWORD = "correct horse battery staple"


def copy_cookies(source, target) -> None:
    """Give `target` every cookie `source` holds, as someone who copied them would."""
    for cookie in (source.get_cookie("session"), source.get_cookie("remember_token")):
        if cookie is not None:
            target.set_cookie(cookie.key, cookie.value)


def opens_account(client) -> bool:
    return client.get("/account").status_code == 200


def sessions(app) -> int:
    with app.app_context():
        return db.session.execute(select(func.count(UserSession.id))).scalar_one()


def test_a_cookie_copied_before_sign_out_stops_working(app, user_factory, sign_in):
    account = user_factory()
    browser, thief = app.test_client(), app.test_client()
    sign_in(browser, account.email, PASSWORD, remember=True)
    copy_cookies(browser, thief)
    assert opens_account(thief)
    assert browser.post("/sign-out").status_code == 302
    assert not opens_account(browser)
    response = thief.get("/account")
    assert response.status_code == 302 and response.headers["Location"].startswith("/sign-in")
    # The remember-me cookie alone does not bring the session back either.
    thief.delete_cookie("session")
    assert not opens_account(thief)
    assert sessions(app) == 0


def test_signing_out_one_browser_keeps_the_others_signed_in(app, user_factory, sign_in):
    account = user_factory()
    phone, laptop = app.test_client(), app.test_client()
    sign_in(phone, account.email, PASSWORD)
    sign_in(laptop, account.email, PASSWORD)
    phone.post("/sign-out")
    assert not opens_account(phone)
    assert opens_account(laptop)


def test_account_page_offers_sign_out_everywhere(signed_in_client):
    page = signed_in_client.get("/account").get_data(as_text=True)
    assert 'action="/account/sign-out-everywhere"' in page
    assert "Sign out everywhere" in page
    assert "this one included" in page


def test_sign_out_everywhere_ends_every_session_and_a_new_sign_in_works(app, user_factory, sign_in):
    account = user_factory()
    here, other, copied = app.test_client(), app.test_client(), app.test_client()
    sign_in(here, account.email, PASSWORD)
    sign_in(other, account.email, PASSWORD, remember=True)
    copy_cookies(other, copied)
    response = here.post("/account/sign-out-everywhere")
    assert response.status_code == 302 and response.headers["Location"] == "/sign-in"
    page = here.get("/sign-in").get_data(as_text=True)
    assert "You are signed out on every device." in page
    for client in (here, other, copied):
        assert not opens_account(client)
    other.delete_cookie("session")
    assert not opens_account(other)  # its remember-me cookie is dead too
    assert sessions(app) == 0
    sign_in(other, account.email, PASSWORD)
    assert opens_account(other)
    assert not opens_account(here)


def test_sign_out_everywhere_needs_a_post_and_an_account(app, client, signed_in_client):
    assert signed_in_client.get("/account/sign-out-everywhere").status_code == 405
    response = client.post("/account/sign-out-everywhere")
    assert response.status_code == 302 and response.headers["Location"].startswith("/sign-in")
    assert opens_account(signed_in_client)
    with app.app_context():
        user = db.session.get(User, signed_in_client.account.id)
        assert user.session_version == 1


def test_a_forged_cookie_of_the_old_form_opens_nothing(app, user_factory):
    """A session cookie holding only 'id:version' (what a leaked key let anyone forge before)
    is not a session."""
    account = user_factory()
    client = app.test_client()
    with client.session_transaction() as session:
        session["_user_id"] = f"{account.id}:1"
        session["_fresh"] = True
    assert not opens_account(client)
