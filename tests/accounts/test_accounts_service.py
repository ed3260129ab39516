"""The accounts service: accounts, sign-in throttling, password changes, personal tokens."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import pytest
from sqlalchemy import func, select
from werkzeug.security import check_password_hash

from scorekeeper.extensions import db
from scorekeeper.models import ApiToken, SignInAttempt, User, utcnow
from scorekeeper.services import accounts as account_service

PASSWORD = "correct horse battery staple"


@pytest.fixture
def ctx(app):
    with app.app_context():
        yield


@pytest.fixture
def ana(ctx) -> User:
    return account_service.create_user("  Ana ", " Ana@Example.COM ", PASSWORD)


def attempts() -> int:
    return db.session.execute(select(func.count(SignInAttempt.id))).scalar_one()


# Accounts --------------------------------------------------------------------------------------


def test_create_user_normalises_and_hashes(ana):
    assert ana.email == "ana@example.com" and ana.name == "Ana"
    assert ana.password_hash and PASSWORD not in ana.password_hash
    assert ana.session_version == 1


def test_password_hash_uses_the_configured_method(app, ctx):
    app.config["PASSWORD_HASH_METHOD"] = "scrypt:1024:8:1"
    user = account_service.create_user("Ben", "ben@example.com", PASSWORD)
    assert user.password_hash.startswith("scrypt:1024:8:1$")


def test_default_hash_method_is_scrypt(app_config):
    from scorekeeper import create_app

    config = {k: v for k, v in app_config.items() if k != "PASSWORD_HASH_METHOD"}
    assert create_app(config).config["PASSWORD_HASH_METHOD"] == "scrypt"


def test_email_is_unique_whatever_its_case(ana):
    with pytest.raises(account_service.EmailTaken):
        account_service.create_user("Other Ana", "ANA@example.com", PASSWORD)
    assert db.session.execute(select(func.count(User.id))).scalar_one() == 1


def test_load_user_needs_the_current_session_version(ana):
    assert account_service.load_user(f"{ana.id}:1") is ana
    for junk in (f"{ana.id}:2", f"{ana.id}", "x:1", "", f"{ana.id}:-1", "999:1"):
        assert account_service.load_user(junk) is None, junk


# Signing in -------------------------------------------------------------------------------------


def test_authenticate_with_any_case_of_the_email(ana):
    assert account_service.authenticate("ANA@example.com ", PASSWORD, "10.0.0.1") is ana
    assert attempts() == 0


@pytest.mark.parametrize(
    ("email", "password"),
    [("ana@example.com", "wrong password"), ("nobody@example.com", PASSWORD)],
    ids=["wrong password", "unknown email"],
)
def test_failures_are_recorded_the_same_way(ana, email, password):
    with pytest.raises(account_service.BadCredentials):
        account_service.authenticate(email, password, "10.0.0.1")
    row = db.session.execute(select(SignInAttempt)).scalar_one()
    assert (row.email, row.address) == (email, "10.0.0.1")


def test_sixth_try_for_an_email_is_refused_even_with_the_right_password(ana):
    for number in range(account_service.MAX_FAILURES_PER_EMAIL):
        with pytest.raises(account_service.BadCredentials):
            account_service.authenticate(ana.email, "wrong", f"10.0.0.{number}")
    with pytest.raises(account_service.TooManyAttempts):
        account_service.authenticate(ana.email, PASSWORD, "10.0.0.99")
    assert attempts() == account_service.MAX_FAILURES_PER_EMAIL  # refusals are not counted


def test_too_many_failures_from_one_address(ana):
    for number in range(account_service.MAX_FAILURES_PER_ADDRESS):
        with pytest.raises(account_service.BadCredentials):
            account_service.authenticate(f"guess{number}@example.com", "x", "10.0.0.1")
    with pytest.raises(account_service.TooManyAttempts):
        account_service.authenticate(ana.email, PASSWORD, "10.0.0.1")
    # Another address is not held back.
    assert account_service.authenticate(ana.email, PASSWORD, "10.0.0.2") is ana


def test_old_failures_are_pruned_and_no_longer_count(ana):
    old = utcnow() - account_service.WINDOW - timedelta(seconds=1)
    db.session.add_all(
        SignInAttempt(email=ana.email, address="10.0.0.1", at=old) for _ in range(10)
    )
    db.session.commit()
    assert account_service.authenticate(ana.email, PASSWORD, "10.0.0.1") is ana
    assert attempts() == 0


def test_missing_address_and_long_values_are_stored_cut(ctx):
    with pytest.raises(account_service.BadCredentials):
        account_service.authenticate("x" * 300 + "@example.com", "x", None)
    row = db.session.execute(select(SignInAttempt)).scalar_one()
    assert row.address == "unknown" and len(row.email) == account_service.EMAIL_MAX


def test_account_without_password_cannot_sign_in(ana):
    ana.password_hash = None
    db.session.commit()
    with pytest.raises(account_service.BadCredentials):
        account_service.authenticate(ana.email, PASSWORD, "10.0.0.1")


# Changing the password ---------------------------------------------------------------------------


def test_change_password_bumps_the_session_version(ana):
    account_service.change_password(ana, PASSWORD, "a brand new password", "10.0.0.1")
    assert ana.session_version == 2
    assert account_service.load_user(f"{ana.id}:1") is None
    assert account_service.authenticate(ana.email, "a brand new password", "10.0.0.1") is ana


def test_wrong_current_password_changes_nothing_and_counts_as_a_failure(ana):
    old_hash = ana.password_hash
    with pytest.raises(account_service.WrongPassword):
        account_service.change_password(ana, "not it at all", "a brand new password", "10.0.0.1")
    assert (ana.password_hash, ana.session_version) == (old_hash, 1)
    assert attempts() == 1
    for _ in range(account_service.MAX_FAILURES_PER_EMAIL - 1):
        with pytest.raises(account_service.WrongPassword):
            account_service.change_password(ana, "not it", "a brand new password", "10.0.0.1")
    with pytest.raises(account_service.TooManyAttempts):
        account_service.change_password(ana, PASSWORD, "a brand new password", "10.0.0.1")


# Personal API tokens -----------------------------------------------------------------------------


def test_only_the_sha256_of_a_token_is_stored(ana):
    new = account_service.create_token(ana, " my script ")
    assert new.secret.startswith("sk_") and len(new.secret) == account_service.TOKEN_LENGTH
    assert account_service.looks_personal(new.secret)
    row = db.session.get(ApiToken, new.token.id)
    assert row.name == "my script"
    assert row.token_hash == hashlib.sha256(new.secret.encode()).hexdigest()
    stored = db.session.execute(select(ApiToken.__table__)).one()
    assert new.secret not in [str(value) for value in stored]


def test_two_tokens_differ(ana):
    first = account_service.create_token(ana, "a").secret
    assert account_service.create_token(ana, "b").secret != first


@pytest.mark.parametrize(
    "token", ["abcdefghijklmnopqrstuv", "sk_short", "sk_" + "a" * 44, "SK_" + "a" * 43]
)
def test_what_looks_like_a_personal_token(token):
    assert not account_service.looks_personal(token)


def test_user_for_token(ana):
    secret = account_service.create_token(ana, "a").secret
    assert account_service.user_for_token(secret) is ana
    assert account_service.user_for_token("sk_" + "b" * 43) is None
    assert account_service.user_for_token("not personal") is None


def test_tokens_of_lists_newest_first_and_revoked_ones(ana, ctx):
    first = account_service.create_token(ana, "first").token
    second = account_service.create_token(ana, "second").token
    account_service.revoke_token(ana, first.id)
    assert [t.name for t in account_service.tokens_of(ana)] == ["second", "first"]
    assert first.revoked_at is not None and second.revoked_at is None


def test_revoked_token_opens_nothing_and_revoking_twice_keeps_the_date(ana):
    new = account_service.create_token(ana, "a")
    revoked = account_service.revoke_token(ana, new.token.id)
    when = revoked.revoked_at
    assert account_service.user_for_token(new.secret) is None
    assert account_service.revoke_token(ana, new.token.id).revoked_at == when


def test_nobody_revokes_another_accounts_token(ana):
    ben = account_service.create_user("Ben", "ben@example.com", PASSWORD)
    new = account_service.create_token(ana, "a")
    assert account_service.revoke_token(ben, new.token.id) is None
    assert account_service.revoke_token(ben, 99999) is None
    assert account_service.user_for_token(new.secret) is ana


# Setting a password (imported accounts have none) -------------------------------------------


def test_set_password_hashes_it_and_signs_out_other_sessions(ctx):
    db.session.add(User(email="vic@example.org", name="Vic", password_hash=None))
    db.session.commit()
    user = account_service.set_password(" Vic@Example.org ", "long enough")
    assert check_password_hash(user.password_hash, "long enough")
    assert user.session_version == 2
    assert account_service.authenticate("vic@example.org", "long enough", "1.2.3.4") == user


def test_set_password_refuses_short_passwords_and_unknown_accounts(ctx):
    db.session.add(User(email="vic@example.org", name="Vic"))
    db.session.commit()
    with pytest.raises(ValueError, match="10 to 500 characters"):
        account_service.set_password("vic@example.org", "short")
    with pytest.raises(ValueError, match="10 to 500 characters"):
        account_service.set_password("vic@example.org", "x" * 501)
    with pytest.raises(LookupError, match="no account"):
        account_service.set_password("nobody@example.org", "long enough")
    user = db.session.execute(select(User)).scalar_one()
    assert user.password_hash is None and user.session_version == 1
