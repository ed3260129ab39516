"""Forgotten passwords and email confirmation, end to end: the form, the mail as a real SMTP
server on loopback received it, the link in it, and what the account can do afterwards."""

from __future__ import annotations

import re
import time

import pytest
from itsdangerous.timed import TimestampSigner
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.models import Membership, User, UserSession
from scorekeeper.services import account_links
from scorekeeper.services import clubs as club_service

NEW_PASSWORD = "a brand new passphrase"


@pytest.fixture
def app_config(app_config, smtp_server):
    return {**app_config, **smtp_server.config}


def path_of(link: str) -> str:
    """The path of an absolute link in a mail (the test client speaks paths)."""
    return "/" + link.split("/", 3)[3]


def page(response) -> str:
    return response.get_data(as_text=True)


def as_read(response, email: str) -> str:
    """The page as a reader compares it: the address typed made "X", and the name of this one
    rendering of its messages (data-once, new every time) left out."""
    return re.sub(r'data-once="[^"]*"', "", page(response).replace(email, "X"))


def user_row(app, user_id: int) -> User:
    with app.app_context():
        user = db.session.get(User, user_id)
        db.session.expunge(user)
        return user


def ask_reset(client, email: str):
    return client.post("/forgot-password", data={"email": email}, follow_redirects=True)


def reset_link(client, mailbox, email: str, count: int = 1) -> str:
    assert ask_reset(client, email).status_code == 200
    return path_of(mailbox.wait_for(email, count).link("/reset-password/"))


def set_password(client, link: str, password: str = NEW_PASSWORD):
    return client.post(link, data={"password": password, "confirm": password})


# A forgotten password ------------------------------------------------------------------------


def test_sign_in_offers_the_forgotten_password_page(client):
    sign_in_page = page(client.get("/sign-in"))
    assert 'href="/forgot-password"' in sign_in_page
    assert "Forgot your password?" in page(client.get("/forgot-password"))


def test_a_mailed_link_sets_a_new_password_and_works_once(app, client, user_factory, mailbox):
    ana = user_factory("Ana", "ana@example.com")
    answer = ask_reset(client, "ANA@example.com ")
    assert "a link to choose a new password is on its way" in page(answer)

    mail = mailbox.wait_for("ana@example.com")
    assert mail.subject == "Reset your Scorekeeper password"
    assert "Scorekeeper <club@example.org>" in str(mail.message["From"])
    assert "Hello Ana," in mail.body and "60 minutes" in mail.body
    link = path_of(mail.link("/reset-password/"))

    form = client.get(link)
    assert form.status_code == 200 and "ana@example.com" in page(form)
    done = set_password(client, link)
    assert done.status_code == 302
    assert "Password changed" in page(client.get(done.headers["Location"]))

    other = app.test_client()
    old = other.post("/sign-in", data={"email": ana.email, "password": ana.password})
    assert old.status_code == 422
    new = other.post("/sign-in", data={"email": ana.email, "password": NEW_PASSWORD})
    assert new.status_code == 302

    again = client.get(link)
    assert again.status_code == 410 and "works only once" in page(again)
    assert set_password(client, link, "yet another passphrase").status_code == 410


def test_the_mail_speaks_the_account_language_whoever_asks(app, client, user_factory, mailbox):
    ana = user_factory("Ana", "ana@example.com")
    with app.app_context():
        db.session.get(User, ana.id).locale = "fr"
        db.session.commit()
    # Asked from a browser in English: the page answers in English, the mail is in French.
    answer = client.post(
        "/forgot-password",
        data={"email": "ana@example.com"},
        headers={"Accept-Language": "en"},
        follow_redirects=True,
    )
    assert "a link to choose a new password is on its way" in page(answer)
    mail = mailbox.wait_for("ana@example.com")
    assert mail.subject == "Réinitialisez votre mot de passe Scorekeeper"
    assert "Bonjour Ana," in mail.body and "Hello" not in mail.body
    assert "/reset-password/" in mail.body
    # An account that chose no language gets the asking page's.
    user_factory("Ben", "ben@example.com")
    client.post(
        "/forgot-password", data={"email": "ben@example.com"}, headers={"Accept-Language": "es"}
    )
    assert mailbox.wait_for("ben@example.com").subject == "Restablece tu contraseña de Scorekeeper"


def test_the_answer_is_the_same_whether_or_not_the_address_has_an_account(
    client, user_factory, mailbox
):
    user_factory("Ana", "ana@example.com")
    unknown = as_read(ask_reset(client, "nobody@example.com"), "nobody@example.com")
    known = as_read(ask_reset(client, "ana@example.com"), "ana@example.com")
    assert unknown == known
    mailbox.wait_for("ana@example.com")
    assert mailbox.to("nobody@example.com") == []
    assert [mail.recipients for mail in mailbox.mails] == [["ana@example.com"]]


def test_bad_input_is_shown_next_to_the_field_and_kept(client):
    answer = client.post("/forgot-password", data={"email": "ana at example"})
    assert answer.status_code == 422
    assert "Enter an email address like ana@example.com." in page(answer)
    assert 'value="ana at example"' in page(answer)


def test_a_new_password_must_be_long_enough_and_typed_twice(client, user_factory, mailbox):
    user_factory("Ana", "ana@example.com")
    link = reset_link(client, mailbox, "ana@example.com")
    short = client.post(link, data={"password": "short", "confirm": "short"})
    assert short.status_code == 422 and "Use at least 10 characters" in page(short)
    differ = client.post(link, data={"password": NEW_PASSWORD, "confirm": "something else"})
    assert differ.status_code == 422 and "The two passwords are not the same." in page(differ)
    assert set_password(client, link).status_code == 302  # still usable: nothing was set


def test_a_link_is_dead_after_an_hour(app, client, user_factory, monkeypatch):
    ana = user_factory("Ana", "ana@example.com")
    real = TimestampSigner.get_timestamp
    monkeypatch.setattr(TimestampSigner, "get_timestamp", lambda self: int(time.time()) - 3601)
    with app.app_context():
        token = account_links.reset_token(db.session.get(User, ana.id))
    monkeypatch.setattr(TimestampSigner, "get_timestamp", real)
    answer = client.get(f"/reset-password/{token}")
    assert answer.status_code == 410 and "works for one hour" in page(answer)


def test_changing_the_password_kills_an_unused_link(app, client, user_factory, sign_in, mailbox):
    ana = user_factory("Ana", "ana@example.com")
    link = reset_link(client, mailbox, ana.email)
    signed_in = app.test_client()
    sign_in(signed_in, ana.email, ana.password)
    changed = signed_in.post(
        "/account/password",
        data={"current": ana.password, "password": NEW_PASSWORD, "confirm": NEW_PASSWORD},
    )
    assert changed.status_code == 302
    assert client.get(link).status_code == 410


@pytest.mark.parametrize(
    "token",
    ["", "junk", "x" * 500, "eyJ1Ijo1LCJmIjoiMSJ9.ZZZZZZ.forged", "%00", "..%2F..%2Fetc"],
)
def test_a_forged_or_broken_link_is_refused_without_an_error(client, token):
    answer = client.get(f"/reset-password/{token}")
    assert answer.status_code in (404, 410)
    assert client.post(f"/reset-password/{token}", data={}).status_code in (404, 410)
    assert client.get(f"/verify-email/{token}").status_code in (404, 410)


def test_a_reset_signs_out_every_other_session_and_signs_this_browser_in(
    app, client, user_factory, sign_in, mailbox
):
    ana = user_factory("Ana", "ana@example.com")
    phone = app.test_client()
    sign_in(phone, ana.email, ana.password)
    assert phone.get("/account").status_code == 200
    set_password(client, reset_link(client, mailbox, ana.email))
    assert phone.get("/account").status_code == 302  # sent to sign in
    assert client.get("/account").status_code == 200
    with app.app_context():
        sessions = db.session.execute(
            select(func.count()).where(UserSession.user_id == ana.id)
        ).scalar_one()
    assert sessions == 1


def test_an_account_without_a_password_sets_one_through_the_link(app, client, mailbox):
    # An imported account has no password until its owner sets one.
    with app.app_context():
        db.session.add(User(name="Imported", email="imp@example.com", password_hash=None))
        db.session.commit()
    set_password(client, reset_link(client, mailbox, "imp@example.com"))
    other = app.test_client()
    signed = other.post("/sign-in", data={"email": "imp@example.com", "password": NEW_PASSWORD})
    assert signed.status_code == 302


# Confirming the email address ----------------------------------------------------------------


def sign_up(client, email: str = "cy@example.com"):
    """Sign up, then sign in as the answer asks; the page after signing in."""
    data = {"name": "Cy", "email": email, "password": NEW_PASSWORD, "confirm": NEW_PASSWORD}
    signed_up = client.post("/sign-up", data=data, follow_redirects=True)
    assert "If the address is new here, your account is ready" in page(signed_up)
    credentials = {"email": email, "password": NEW_PASSWORD}
    return client.post("/sign-in", data=credentials, follow_redirects=True)


def test_signing_up_with_a_known_address_mails_its_owner(client, user_factory, mailbox):
    user_factory("Ana", "ana@example.com")
    data = {"name": "X", "email": "ana@example.com", "password": NEW_PASSWORD}
    client.post("/sign-up", data={**data, "confirm": NEW_PASSWORD})
    mail = mailbox.wait_for("ana@example.com")
    assert mail.subject == "You already have a Scorekeeper account"
    assert "Hello Ana," in mail.body and "/forgot-password" in mail.body


def test_sign_up_mails_a_confirmation_link_and_the_account_works_at_once(app, client, mailbox):
    sign_up(client)
    account = page(client.get("/account"))
    assert "not confirmed" in account and "Send the link again" in account

    mail = mailbox.wait_for("cy@example.com")
    assert mail.subject == "Confirm your email address for Scorekeeper"
    link = path_of(mail.link("/verify-email/"))
    opened = client.get(link)  # a GET only shows the button: a mail scanner confirms nothing
    assert opened.status_code == 200 and "Confirm my email address" in page(opened)
    with app.app_context():
        cy = db.session.execute(select(User).where(User.email == "cy@example.com")).scalar_one()
        assert cy.email_verified_at is None
    confirmed = client.post(link, follow_redirects=True)
    assert "cy@example.com is confirmed" in page(confirmed)
    assert "not confirmed" not in page(client.get("/account"))
    assert client.post(link).status_code == 302  # twice: still fine, nothing changes


def test_the_link_is_sent_again_on_request(client, mailbox):
    sign_up(client)
    mailbox.wait_for("cy@example.com")
    again = client.post("/account/verify-email", follow_redirects=True)
    assert "A new link is on its way to cy@example.com" in page(again)
    mailbox.wait_for("cy@example.com", 2)


def test_a_confirmed_address_gets_no_second_link(signed_in_client, mailbox):
    answer = signed_in_client.post("/account/verify-email", follow_redirects=True)
    assert "already confirmed" in page(answer)
    assert mailbox.mails == []


def test_an_unconfirmed_account_cannot_join_by_invite_until_it_confirms(
    app, client, user_factory, mailbox
):
    owner = user_factory("Olga", "olga@example.com")
    with app.app_context():
        club = club_service.create_club(db.session.get(User, owner.id), "Thursday Trains")
        token = club_service.create_invite(club, db.session.get(User, owner.id), "scorer").token
        club_id = club.id
    sign_up(client)
    invite_page = page(client.get(f"/invite/{token}"))
    assert "first confirm your email address" in invite_page
    refused = client.post(f"/invite/{token}", follow_redirects=True)
    assert "Confirm your email address first" in page(refused)
    with app.app_context():
        assert (
            db.session.execute(
                select(func.count()).where(Membership.club_id == club_id)
            ).scalar_one()
            == 1
        )

    client.post(path_of(mailbox.wait_for("cy@example.com").link("/verify-email/")))
    joined = client.post(f"/invite/{token}", follow_redirects=True)
    assert "Welcome to Thursday Trains! You joined as scorer." in page(joined)


def test_a_club_goes_only_to_a_confirmed_address(app, user_factory, sign_in):
    owner = user_factory("Olga", "olga@example.com")
    cy = user_factory("Cy", "cy@example.com", verified=False)
    with app.app_context():
        club = club_service.create_club(db.session.get(User, owner.id), "Thursday Trains")
        db.session.add(Membership(club_id=club.id, user_id=cy.id, role="scorer"))
        db.session.commit()
        club_id = club.id
    client = app.test_client()
    sign_in(client, owner.email, owner.password)
    refused = client.post(
        f"/clubs/{club_id}/transfer", data={"user_id": str(cy.id)}, follow_redirects=True
    )
    assert "Cy has not confirmed their email address yet" in page(refused)
    with app.app_context():
        assert club_service.role_in(db.session.get(User, cy.id), club_id) == "scorer"


# Changing the email address -------------------------------------------------------------------


def change_email(client, email: str, password: str):
    return client.post("/account/email", data={"email": email, "current": password})


def test_a_new_address_is_unconfirmed_until_its_link_is_followed(
    app, user_factory, sign_in, mailbox
):
    ana = user_factory("Ana", "ana@example.com")
    client = app.test_client()
    sign_in(client, ana.email, ana.password)
    assert client.get("/account/email").status_code == 200
    wrong = change_email(client, "ana@new.example", "not my password")
    assert wrong.status_code == 422 and "That is not your current password." in page(wrong)
    assert 'value="ana@new.example"' in page(wrong)
    assert user_row(app, ana.id).email == "ana@example.com"

    assert change_email(client, "Ana@New.example", ana.password).status_code == 302
    changed = user_row(app, ana.id)
    assert (changed.email, changed.email_verified_at) == ("ana@new.example", None)
    link = path_of(mailbox.wait_for("ana@new.example").link("/verify-email/"))
    assert mailbox.to("ana@example.com") == []
    client.post(link)
    assert user_row(app, ana.id).email_verified_at is not None


def test_a_link_for_an_address_no_longer_used_does_not_confirm_the_new_one(
    app, user_factory, sign_in, mailbox
):
    ana = user_factory("Ana", "ana@example.com", verified=False)
    client = app.test_client()
    sign_in(client, ana.email, ana.password)
    client.post("/account/verify-email")
    old_link = path_of(mailbox.wait_for("ana@example.com").link("/verify-email/"))
    change_email(client, "ana@new.example", ana.password)
    answer = client.post(old_link)
    assert answer.status_code == 410 and "no longer uses" in page(answer)
    assert user_row(app, ana.id).email_verified_at is None


def test_an_address_another_account_uses_is_refused_next_to_the_field(app, user_factory, sign_in):
    ana = user_factory("Ana", "ana@example.com")
    user_factory("Ben", "ben@example.com")
    client = app.test_client()
    sign_in(client, ana.email, ana.password)
    taken = change_email(client, "BEN@example.com", ana.password)
    assert taken.status_code == 422
    assert "Another account already uses this email address." in page(taken)


def test_account_pages_for_mail_need_a_signed_in_visitor(client):
    for url in ("/account/email",):
        assert client.get(url).status_code == 302
    for url in ("/account/email", "/account/verify-email"):
        answer = client.post(url, data={})
        assert answer.status_code == 302 and "/sign-in" in answer.headers["Location"]
