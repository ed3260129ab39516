"""Account pages: sign up, in and out, next redirects, throttling, password, tokens, CSRF."""

from __future__ import annotations

import hashlib
import re

import pytest
from sqlalchemy import func, select, update

from scorekeeper.extensions import db
from scorekeeper.models import ApiToken, SignInAttempt, User, utcnow
from scorekeeper.services import accounts as account_service
from scorekeeper.web.responses import safe_next

PASSWORD = "correct horse battery staple"
NEW_PASSWORD = "a brand new passphrase"


def sign_up_data(**fields: str) -> dict[str, str]:
    return {
        "name": "Ana",
        "email": "ana@example.com",
        "password": PASSWORD,
        "confirm": PASSWORD,
        **fields,
    }


def users(app) -> list[User]:
    with app.app_context():
        return list(db.session.execute(select(User)).scalars())


def page_of(client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return response.get_data(as_text=True)


def is_signed_in(client) -> bool:
    return client.get("/account").status_code == 200


# Signing up -------------------------------------------------------------------------------------


def test_sign_up_page_renders_the_form(client):
    page = page_of(client, "/sign-up")
    for name in ("name", "email", "password", "confirm"):
        assert f'name="{name}"' in page
    assert 'autocomplete="new-password"' in page


def test_sign_up_creates_the_account_and_sends_the_visitor_to_sign_in(app, client):
    response = client.post("/sign-up", data=sign_up_data(email="  Ana@Example.COM "))
    assert response.status_code == 302
    assert response.headers["Location"] == "/sign-in"
    [user] = users(app)
    assert (user.name, user.email) == ("Ana", "ana@example.com")
    assert user.password_hash and PASSWORD not in user.password_hash
    page = page_of(client, "/sign-in")
    assert "We sent a mail to ana@example.com. If the address is new here" in page
    assert not is_signed_in(client)
    assert (
        client.post("/sign-in", data={"email": user.email, "password": PASSWORD}).status_code == 302
    )
    assert is_signed_in(client)


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"name": "  "}, "name", "Enter your name."),
        ({"email": "ana.example.com"}, "email", "Enter an email address like ana@example.com."),
        ({"email": ""}, "email", "Enter your email address."),
        (
            {"password": "too short", "confirm": "too short"},
            "password",
            "Use at least 10 characters (at most 500).",
        ),
        ({"confirm": "something else"}, "confirm", "The two passwords are not the same."),
        ({"name": "A" * 81}, "name", "Use at most 80 characters."),
    ],
    ids=["no name", "bad email", "no email", "short password", "mismatch", "long name"],
)
def test_sign_up_errors_show_next_to_the_field(app, client, fields, field, message):
    response = client.post("/sign-up", data=sign_up_data(**fields))
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    error = re.search(rf'<p class="error" id="{field}-error">([^<]*)</p>', page)
    assert error is not None and message in error.group(1)
    assert f'aria-describedby="{field}-error"' in page or f"{field}-error" in page
    assert users(app) == []


def test_sign_up_answers_the_same_for_a_known_and_a_new_address(app, user_factory):
    user_factory(email="ana@example.com")

    def answer(email: str) -> tuple[int, str, str]:
        visitor = app.test_client()
        response = visitor.post("/sign-up", data=sign_up_data(email=email))
        shown = page_of(visitor, response.headers["Location"])
        flashed = re.search(r'<p class="flash flash-success">(.*?)</p>', shown, re.S)
        return response.status_code, response.headers["Location"], flashed.group(1)

    known = answer("ANA@example.com")
    new = answer("ben@example.com")
    assert known == (new[0], new[1], new[2].replace("ben@", "ana@"))
    assert len(users(app)) == 2  # the known address got no second account


def test_signed_in_visitor_is_sent_from_sign_up_to_the_account(signed_in_client):
    response = signed_in_client.get("/sign-up")
    assert response.status_code == 302 and response.headers["Location"] == "/account"


# Signing in and out -----------------------------------------------------------------------------


def test_sign_in_goes_home_and_shows_the_name(client, user_factory):
    account = user_factory(name="Ben", email="ben@example.com")
    response = client.post("/sign-in", data={"email": " BEN@example.com", "password": PASSWORD})
    assert response.status_code == 302
    assert response.headers["Location"] == "/"
    assert "Signed in as Ben." in page_of(client, "/")
    assert page_of(client, "/account").count(account.email) == 1


@pytest.mark.parametrize(
    ("email", "password"),
    [("ana@example.com", "wrong password!"), ("nobody@example.com", PASSWORD)],
    ids=["wrong password", "unknown email"],
)
def test_wrong_credentials_get_one_message(app, client, user_factory, email, password):
    user_factory(email="ana@example.com")
    response = client.post("/sign-in", data={"email": email, "password": password})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "That email and password do not match an account." in page
    assert 'role="alert"' in page
    assert not is_signed_in(client)
    with app.app_context():
        assert db.session.execute(select(func.count(SignInAttempt.id))).scalar_one() == 1


def test_sign_in_with_empty_fields_shows_field_errors(client):
    response = client.post("/sign-in", data={})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "Enter your email address." in page and "Enter your password." in page


def test_sign_in_follows_a_safe_next(client, user_factory):
    account = user_factory()
    page = page_of(client, "/sign-in?next=/games/new")
    assert 'action="/sign-in?next=/games/new"' in page
    response = client.post(
        "/sign-in?next=/games/new", data={"email": account.email, "password": PASSWORD}
    )
    assert response.headers["Location"] == "/games/new"


@pytest.mark.parametrize(
    "target",
    [
        "https://evil.example/steal",
        "http://localhost/account",
        "//evil.example/steal",
        "/\\evil.example",
        "\\\\evil.example",
        "javascript:alert(1)",
        "/\r\nLocation: https://evil.example",
        "evil.example",
        "",
    ],
)
def test_unsafe_next_is_ignored(client, user_factory, target):
    account = user_factory()
    response = client.post(
        "/sign-in",
        query_string={"next": target},
        data={"email": account.email, "password": PASSWORD},
    )
    assert response.status_code == 302
    assert response.headers["Location"] == "/"


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("/games/3?x=1", "/games/3?x=1"),
        ("/", "/"),
        ("https://evil.example", None),
        ("//evil.example", None),
        ("/\\evil.example", None),
        ("/\nx", None),
        ("/" + "a" * 2000, None),
        (None, None),
    ],
)
def test_safe_next(target, expected):
    assert safe_next(target) == expected


def test_pages_that_need_an_account_send_to_sign_in_and_back(client, user_factory):
    response = client.get("/account")
    assert response.status_code == 302
    assert response.headers["Location"] == "/sign-in?next=%2Faccount"
    assert "Sign in to see that page." in page_of(client, response.headers["Location"])
    account = user_factory()
    signed_in = client.post(
        "/sign-in?next=%2Faccount", data={"email": account.email, "password": PASSWORD}
    )
    assert signed_in.headers["Location"] == "/account"


def test_sign_out_is_post_only_and_signs_out(signed_in_client):
    assert signed_in_client.get("/sign-out").status_code == 405
    assert is_signed_in(signed_in_client)
    response = signed_in_client.post("/sign-out")
    assert response.status_code == 302 and response.headers["Location"] == "/"
    home = page_of(signed_in_client, "/")
    assert "You are signed out." in home
    assert "Sign in" in home and "Sign up" in home
    assert not is_signed_in(signed_in_client)


def test_nav_offers_sign_in_or_the_account(client, signed_in_client):
    signed_out = page_of(client, "/")
    assert 'href="/sign-in"' in signed_out and 'href="/sign-up"' in signed_out
    assert "My account" not in signed_out
    signed_in = page_of(signed_in_client, "/")
    assert 'href="/account"' in signed_in
    assert re.search(
        r'<form method="post" action="/sign-out"[^>]*>\s*<input type="hidden" '
        r'name="csrf_token"',
        signed_in,
    )


def test_remember_me_sets_a_lax_http_only_cookie(client, user_factory):
    account = user_factory()
    response = client.post(
        "/sign-in", data={"email": account.email, "password": PASSWORD, "remember": "y"}
    )
    cookies = response.headers.getlist("Set-Cookie")
    remember = [c for c in cookies if c.startswith("remember_token=")]
    assert remember and "HttpOnly" in remember[0] and "SameSite=Lax" in remember[0]
    session = [c for c in cookies if c.startswith("session=")]
    assert session and "HttpOnly" in session[0] and "SameSite=Lax" in session[0]
    # The remember cookie alone signs the browser back in.
    client.delete_cookie("session")
    assert is_signed_in(client)


def test_without_remember_me_no_remember_cookie(client, user_factory):
    account = user_factory()
    response = client.post("/sign-in", data={"email": account.email, "password": PASSWORD})
    assert not any(c.startswith("remember_token=") for c in response.headers.getlist("Set-Cookie"))


# Throttling -------------------------------------------------------------------------------------


def test_sixth_try_is_refused_with_429_even_with_the_right_password(app, client, user_factory):
    account = user_factory()
    for _ in range(5):
        response = client.post("/sign-in", data={"email": account.email, "password": "nope nope"})
        assert response.status_code == 422
    response = client.post("/sign-in", data={"email": account.email, "password": PASSWORD})
    assert response.status_code == 429
    assert "Too many failed sign-ins. Wait 15 minutes, then try again." in response.get_data(
        as_text=True
    )
    assert 14 * 60 < int(response.headers["Retry-After"]) <= 15 * 60
    assert not is_signed_in(client)


def test_a_guesser_elsewhere_does_not_lock_the_owner_out(app, user_factory):
    account = user_factory()
    guesser = app.test_client()
    attacker = {"REMOTE_ADDR": "203.0.113.66"}
    for _ in range(6):
        guesser.post(
            "/sign-in",
            data={"email": account.email, "password": "nope nope"},
            environ_base=attacker,
        )
    refused = guesser.post(
        "/sign-in", data={"email": account.email, "password": PASSWORD}, environ_base=attacker
    )
    assert refused.status_code == 429
    owner = app.test_client()
    response = owner.post(
        "/sign-in",
        data={"email": account.email, "password": PASSWORD},
        environ_base={"REMOTE_ADDR": "192.0.2.10"},
    )
    assert response.status_code == 302
    assert is_signed_in(owner)


def test_throttle_says_the_same_for_an_unknown_email(client):
    for _ in range(5):
        client.post("/sign-in", data={"email": "nobody@example.com", "password": "nope nope"})
    response = client.post("/sign-in", data={"email": "nobody@example.com", "password": "x"})
    assert response.status_code == 429
    assert "Too many failed sign-ins." in response.get_data(as_text=True)


ROUTER = {"REMOTE_ADDR": "192.0.2.1"}


def guess_unknown_emails(app, count: int = account_service.MAX_ACCOUNTS_PER_ADDRESS) -> None:
    """A guesser behind the club's router fails on `count` accounts nobody has, each once."""
    guesser = app.test_client()
    for number in range(count):
        answer = guesser.post(
            "/sign-in",
            data={"email": f"guess{number}@example.com", "password": "x"},
            environ_base=ROUTER,
        )
        assert answer.status_code == 422


def sign_in_at_router(client, account, password: str = PASSWORD):
    return client.post(
        "/sign-in", data={"email": account.email, "password": password}, environ_base=ROUTER
    )


def a_minute_passes(app) -> None:
    """Every recorded failure moves a minute into the past (the rows are the throttle's clock)."""
    with app.app_context():
        db.session.execute(
            update(SignInAttempt).values(at=SignInAttempt.at - account_service.MAX_ADDRESS_DELAY)
        )
        db.session.commit()


def test_a_guesser_on_the_club_wifi_keeps_no_known_browser_out(app, user_factory, sign_in):
    """A browser that signed in to its account before signs in at once, whatever a neighbour
    behind the same router did (on main: 429, Retry-After ~895 s)."""
    ana = user_factory("Ana")
    phone = app.test_client()
    sign_in(phone, ana.email, PASSWORD)
    phone.post("/sign-out")
    guess_unknown_emails(app)
    response = sign_in_at_router(phone, ana)
    assert response.status_code == 302
    assert is_signed_in(phone)


def test_a_known_browser_guessing_its_own_account_is_still_limited_per_account(
    app, user_factory, sign_in
):
    ana = user_factory("Ana")
    phone = app.test_client()
    sign_in(phone, ana.email, PASSWORD)
    phone.post("/sign-out")
    guess_unknown_emails(app)
    for _ in range(account_service.MAX_FAILURES_PER_PAIR):
        assert sign_in_at_router(phone, ana, "nope nope").status_code == 422
    refused = sign_in_at_router(phone, ana)
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) > 14 * 60  # the pair's own limit, as before


def test_a_neighbour_guessing_my_password_keeps_my_known_phone_in(app, user_factory, sign_in):
    """Five wrong passwords for Ana's account from a neighbour behind the same router hold back
    new browsers there (the pair's limit), not Ana's phone that signed in before (on main:
    429 for 15 minutes)."""
    ana = user_factory("Ana")
    phone = app.test_client()
    sign_in(phone, ana.email, PASSWORD)
    phone.post("/sign-out")
    neighbour = app.test_client()
    for _ in range(account_service.MAX_FAILURES_PER_PAIR):
        assert sign_in_at_router(neighbour, ana, "nope nope").status_code == 422
    assert sign_in_at_router(neighbour, ana).status_code == 429
    assert sign_in_at_router(phone, ana).status_code == 302
    assert is_signed_in(phone)


def test_a_mark_for_another_account_does_not_skip_the_address_delay(app, user_factory, sign_in):
    ana, ben = user_factory("Ana"), user_factory("Ben")
    phone = app.test_client()
    sign_in(phone, ben.email, PASSWORD)
    phone.post("/sign-out")
    guess_unknown_emails(app)
    refused = sign_in_at_router(phone, ana)
    assert refused.status_code == 429
    assert 0 < int(refused.headers["Retry-After"]) <= 60


def test_at_a_slowed_address_a_new_browser_waits_a_minute_at_most(app, user_factory):
    """A new browser at an address that failed on many accounts waits, with the right password,
    a minute at most after the last failure, then signs in (on main: ~15 minutes)."""
    ana = user_factory("Ana")
    guess_unknown_emails(app)
    stranger = app.test_client()
    refused = sign_in_at_router(stranger, ana)
    assert refused.status_code == 429
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    assert "Too many failed sign-ins. Wait" in refused.get_data(as_text=True)
    assert "seconds, then try again." in refused.get_data(as_text=True)
    # A guesser that went on for long (300 more accounts) makes nobody wait longer.
    with app.app_context():
        db.session.add_all(
            SignInAttempt(email=f"more{n}@example.com", address=ROUTER["REMOTE_ADDR"], at=utcnow())
            for n in range(300)
        )
        db.session.commit()
    refused = sign_in_at_router(stranger, ana)
    assert refused.status_code == 429
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    a_minute_passes(app)
    assert sign_in_at_router(stranger, ana).status_code == 302
    assert is_signed_in(stranger)
    # Other addresses were never slowed.
    other = app.test_client()
    response = other.post(
        "/sign-in",
        data={"email": ana.email, "password": PASSWORD},
        environ_base={"REMOTE_ADDR": "192.0.2.7"},
    )
    assert response.status_code == 302


def test_22_typos_behind_a_club_router_keep_no_other_member_out(app, user_factory):
    typists = [user_factory(name) for name in ("Ana", "Ben", "Cy", "Dee", "Ed")]
    late = user_factory("Flo")
    router = {"REMOTE_ADDR": "192.0.2.1"}
    club = app.test_client()
    for n in range(22):  # five members mistype their passwords, 4 or 5 times each
        email = typists[n % len(typists)].email
        answer = club.post(
            "/sign-in", data={"email": email, "password": "typo"}, environ_base=router
        )
        assert answer.status_code == 422
    member = app.test_client()
    response = member.post(
        "/sign-in", data={"email": late.email, "password": PASSWORD}, environ_base=router
    )
    assert response.status_code == 302
    assert is_signed_in(member)


def test_60_guesses_from_12_addresses_do_not_lock_the_owner_out(app, user_factory, sign_in):
    owner = user_factory("Owner")
    phone = app.test_client()  # the owner's phone has signed in before
    sign_in(phone, owner.email, PASSWORD)
    phone.post("/sign-out")
    guesser = app.test_client()
    answers = [
        guesser.post(
            "/sign-in",
            data={"email": owner.email, "password": f"guess {n}"},
            environ_base={"REMOTE_ADDR": f"203.0.113.{n % 12}"},
        )
        for n in range(60)
    ]
    assert {answer.status_code for answer in answers} == {422, 429}
    assert max(int(a.headers.get("Retry-After", 0)) for a in answers) <= 60
    # The owner's phone, from yet another address, signs in at once.
    response = phone.post(
        "/sign-in",
        data={"email": owner.email, "password": PASSWORD},
        environ_base={"REMOTE_ADDR": "192.0.2.10"},
    )
    assert response.status_code == 302
    assert is_signed_in(phone)
    # A browser never used before waits a minute at most, not an hour.
    stranger = app.test_client()
    response = stranger.post(
        "/sign-in",
        data={"email": owner.email, "password": PASSWORD},
        environ_base={"REMOTE_ADDR": "192.0.2.11"},
    )
    assert response.status_code == 429
    assert 0 < int(response.headers["Retry-After"]) <= 60
    assert "then try again" in response.get_data(as_text=True)


# Changing the password --------------------------------------------------------------------------


def change(client, current=PASSWORD, new=NEW_PASSWORD, confirm=None):
    return client.post(
        "/account/password",
        data={"current": current, "password": new, "confirm": confirm or new},
    )


def test_change_password_signs_out_every_other_session(app, user_factory, sign_in):
    account = user_factory()
    here, elsewhere = app.test_client(), app.test_client()
    sign_in(here, account.email, PASSWORD)
    sign_in(elsewhere, account.email, PASSWORD, remember=True)
    assert is_signed_in(elsewhere)
    response = change(here)
    assert response.status_code == 302 and response.headers["Location"] == "/account"
    assert "Password changed. Every other device was signed out." in page_of(here, "/account")
    assert is_signed_in(here)
    # The other browser's session cookie (and its remember-me cookie) no longer open anything.
    response = elsewhere.get("/account")
    assert response.status_code == 302 and response.headers["Location"].startswith("/sign-in")
    elsewhere.delete_cookie("session")
    assert not is_signed_in(elsewhere)
    with app.app_context():
        user = db.session.get(User, account.id)
        assert user.session_version == 2
    third = app.test_client()
    assert (
        third.post("/sign-in", data={"email": account.email, "password": PASSWORD}).status_code
        == 422
    )
    sign_in(third, account.email, NEW_PASSWORD)


def test_change_password_keeps_a_remembered_browser_remembered(app, user_factory, sign_in):
    account = user_factory()
    client = app.test_client()
    sign_in(client, account.email, PASSWORD, remember=True)
    response = change(client)
    assert any(c.startswith("remember_token=") for c in response.headers.getlist("Set-Cookie"))
    client.delete_cookie("session")
    assert is_signed_in(client)


def test_wrong_current_password_changes_nothing(app, signed_in_client):
    response = change(signed_in_client, current="not my password")
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert re.search(r'id="current-error">That is not your current password.<', page)
    with app.app_context():
        user = db.session.get(User, signed_in_client.account.id)
        assert user.session_version == 1
    assert is_signed_in(signed_in_client)


def test_new_passwords_must_match_and_be_long_enough(signed_in_client):
    response = change(signed_in_client, confirm="something different")
    assert response.status_code == 422
    assert "The two passwords are not the same." in response.get_data(as_text=True)
    response = change(signed_in_client, new="short")
    assert "Use at least 10 characters (at most 500)." in response.get_data(as_text=True)


def test_change_password_needs_an_account(client):
    response = change(client)
    assert response.status_code == 302 and response.headers["Location"].startswith("/sign-in")


# API tokens -------------------------------------------------------------------------------------


def test_account_page_shows_the_account(signed_in_client):
    page = page_of(signed_in_client, "/account")
    assert signed_in_client.account.email in page
    assert "You have no API tokens." in page
    assert 'action="/account/tokens"' in page


def test_create_token_shows_it_once_and_stores_only_its_hash(app, signed_in_client):
    response = signed_in_client.post("/account/tokens", data={"name": "Tablet app"})
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    page = response.get_data(as_text=True)
    [secret] = re.findall(r'value="(sk_[A-Za-z0-9_-]{43})"', page)
    assert "it is shown only this once" in page
    with app.app_context():
        row = db.session.execute(select(ApiToken)).scalar_one()
        assert row.token_hash == hashlib.sha256(secret.encode()).hexdigest()
        assert (row.name, row.user_id) == ("Tablet app", signed_in_client.account.id)
    account_page = page_of(signed_in_client, "/account")
    assert secret not in account_page
    assert "Tablet app" in account_page and "not used to save anything yet" in account_page
    with app.app_context():
        assert account_service.user_for_token(secret).id == signed_in_client.account.id
    # A read notes nothing; a write does.
    assert "not used to save anything yet" in page_of(signed_in_client, "/account")
    with app.app_context():
        assert account_service.user_for_token(secret, note_use=True)
    page = page_of(signed_in_client, "/account")
    assert "last used to save" in page and "not used to save anything yet" not in page


def test_token_needs_a_name(app, signed_in_client):
    response = signed_in_client.post("/account/tokens", data={"name": "  "})
    assert response.status_code == 422
    assert 'id="name-error"' in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.execute(select(ApiToken.id)).first() is None


def test_revoke_token(app, signed_in_client):
    with app.app_context():
        user = db.session.get(User, signed_in_client.account.id)
        new = account_service.create_token(user, "Old script")
        token_id, secret = new.token.id, new.secret
    assert signed_in_client.get(f"/account/tokens/{token_id}/revoke").status_code == 405
    response = signed_in_client.post(f"/account/tokens/{token_id}/revoke")
    assert response.status_code == 302 and response.headers["Location"] == "/account"
    page = page_of(signed_in_client, "/account")
    assert "Token “Old script” revoked: it no longer opens anything." in page
    assert '<span class="tag">revoked</span>' in page
    assert f"/account/tokens/{token_id}/revoke" not in page  # no button for a revoked token
    with app.app_context():
        assert db.session.get(ApiToken, token_id).revoked_at is not None
        assert account_service.user_for_token(secret) is None


def test_nobody_revokes_another_accounts_token(app, signed_in_client, user_factory):
    other = user_factory(name="Ben")
    with app.app_context():
        token_id = account_service.create_token(db.session.get(User, other.id), "Ben's").token.id
    assert signed_in_client.post(f"/account/tokens/{token_id}/revoke").status_code == 404
    assert signed_in_client.post("/account/tokens/99999/revoke").status_code == 404
    with app.app_context():
        assert db.session.get(ApiToken, token_id).revoked_at is None


def test_token_routes_need_an_account(client):
    for path in ("/account/tokens", "/account/tokens/1/revoke"):
        response = client.post(path, data={"name": "x"})
        assert response.status_code == 302, path
        assert response.headers["Location"].startswith("/sign-in"), path


# CSRF -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/sign-up",
        "/sign-in",
        "/sign-out",
        "/account/sign-out-everywhere",
        "/account/password",
        "/account/tokens",
        "/account/tokens/{token_id}/revoke",
    ],
)
def test_csrf_is_enforced_on_account_forms(app, signed_in_client, path):
    with app.app_context():
        user = db.session.get(User, signed_in_client.account.id)
        token_id = account_service.create_token(user, "Kept").token.id
    app.config["WTF_CSRF_ENABLED"] = True
    data = {
        **sign_up_data(email="new@example.com"),
        "current": PASSWORD,
        "email": signed_in_client.account.email,
    }
    response = signed_in_client.post(path.format(token_id=token_id), data=data)
    assert response.status_code == 400
    assert "The form expired or came from another site" in response.get_data(as_text=True)
    assert is_signed_in(signed_in_client)  # sign-out did not happen
    with app.app_context():
        assert db.session.execute(select(func.count(User.id))).scalar_one() == 1
        user = db.session.get(User, signed_in_client.account.id)
        assert user.session_version == 1
        tokens = list(db.session.execute(select(ApiToken)).scalars())
        assert [(t.name, t.revoked_at) for t in tokens] == [("Kept", None)]


def test_forms_work_with_csrf_enabled(app, user_factory):
    account = user_factory()
    app.config["WTF_CSRF_ENABLED"] = True
    client = app.test_client()
    page = page_of(client, "/sign-in")
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)
    response = client.post(
        "/sign-in", data={"email": account.email, "password": PASSWORD, "csrf_token": token}
    )
    assert response.status_code == 302
    assert is_signed_in(client)


def test_token_names_are_shown_as_text(signed_in_client):
    name = '<script>alert("x")</script>'
    created = signed_in_client.post("/account/tokens", data={"name": name})
    for page in (created.get_data(as_text=True), page_of(signed_in_client, "/account")):
        assert name not in page
        assert "&lt;script&gt;" in page
