"""The accounts service: accounts, sign-in throttling, password changes, personal tokens."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import pytest
from sqlalchemy import func, select, update
from werkzeug.security import check_password_hash

from scorekeeper.extensions import db
from scorekeeper.models import ApiToken, SignInAttempt, User, UserSession, utcnow
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


def test_load_user_needs_a_live_session_and_the_current_version(ana):
    session_id = account_service.start_session(ana)
    assert account_service.load_user(session_id) is ana
    user_id, version, key = session_id.split(":")
    assert (user_id, version) == (str(ana.id), "1") and len(key) >= 40
    # Only the key's SHA-256 is stored.
    stored = db.session.execute(select(UserSession.key_hash)).scalar_one()
    assert stored == hashlib.sha256(key.encode()).hexdigest()
    for junk in (
        f"{ana.id}:1",  # the old form, without a session key
        f"{ana.id}:2:{key}",
        f"{ana.id}:1:{key}x",
        f"999:1:{key}",
        f"x:1:{key}",
        f"{ana.id}:-1:{key}",
        f"{'9' * 30}:1:{key}",
        "",
        "::",
    ):
        assert account_service.load_user(junk) is None, junk


def test_end_session_ends_that_session_only(ana):
    first = account_service.start_session(ana)
    second = account_service.start_session(ana)
    account_service.end_session(first)
    assert account_service.load_user(first) is None
    assert account_service.load_user(second) is ana
    account_service.end_session(None)  # a browser that was not signed in: nothing to do
    account_service.end_session("junk")


def test_end_all_sessions_ends_every_session(ana):
    sessions = [account_service.start_session(ana) for _ in range(3)]
    account_service.end_all_sessions(ana)
    assert all(account_service.load_user(s) is None for s in sessions)
    assert db.session.execute(select(func.count(UserSession.id))).scalar_one() == 0
    assert account_service.load_user(account_service.start_session(ana)) is ana


def test_sessions_expire_and_are_pruned(ana):
    old = account_service.start_session(ana)
    db.session.execute(
        update(UserSession).values(
            created_at=utcnow() - account_service.SESSION_LIFETIME - timedelta(seconds=1)
        )
    )
    db.session.commit()
    assert account_service.load_user(old) is None
    account_service.start_session(ana)
    assert db.session.execute(select(func.count(UserSession.id))).scalar_one() == 1


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


def fail(email: str, address: str, times: int) -> None:
    for _ in range(times):
        with pytest.raises(account_service.BadCredentials):
            account_service.authenticate(email, "wrong", address)


def test_sixth_try_from_one_address_is_refused_even_with_the_right_password(ana):
    fail(ana.email, "10.0.0.1", account_service.MAX_FAILURES_PER_PAIR)
    with pytest.raises(account_service.TooManyAttempts) as refused:
        account_service.authenticate(ana.email, PASSWORD, "10.0.0.1")
    assert attempts() == account_service.MAX_FAILURES_PER_PAIR  # refusals are not counted
    assert refused.value.minutes == 15
    assert 14 * 60 < refused.value.seconds <= 15 * 60


def test_the_owner_still_signs_in_from_another_address(ana):
    fail(ana.email, "203.0.113.9", account_service.MAX_FAILURES_PER_PAIR)
    with pytest.raises(account_service.TooManyAttempts):
        account_service.authenticate(ana.email, PASSWORD, "203.0.113.9")
    assert account_service.authenticate(ana.email, PASSWORD, "10.0.0.1") is ana


def guess(email: str, address: str, known_user: int | None = None) -> float | None:
    """One wrong password: None if it was checked (and failed), else the seconds to wait."""
    try:
        account_service.authenticate(email, "wrong", address, known_user)
    except account_service.BadCredentials:
        return None
    except account_service.TooManyAttempts as refused:
        return refused.retry_after.total_seconds()
    raise AssertionError("a wrong password opened the account")


def test_a_spread_out_attack_only_delays_the_account(ana):
    # 60 guesses from 12 addresses: after the free ones, each waits for the growing delay.
    waits = [guess(ana.email, f"198.51.100.{n % 12}") for n in range(60)]
    checked = waits.count(None)
    assert checked == account_service.FREE_FAILURES_PER_ACCOUNT
    assert 0 < max(w for w in waits if w is not None) <= 60
    # The owner, from a new address and a browser never seen, waits a moment, no more...
    with pytest.raises(account_service.TooManyAttempts) as refused:
        account_service.authenticate(ana.email, PASSWORD, "10.0.0.1")
    assert refused.value.seconds <= 60
    # ...and from a browser that signed in to the account before, not even that.
    assert account_service.authenticate(ana.email, PASSWORD, "10.0.0.1", ana.id) is ana
    # The delay grows with each failure, up to a minute; then the right password works.
    assert account_service.account_delay(account_service.FREE_FAILURES_PER_ACCOUNT + 3) == (
        timedelta(seconds=8)
    )
    assert account_service.account_delay(1000) == account_service.MAX_ACCOUNT_DELAY
    db.session.execute(update(SignInAttempt).values(at=SignInAttempt.at - timedelta(minutes=1)))
    db.session.commit()
    assert account_service.authenticate(ana.email, PASSWORD, "10.0.0.1") is ana
    # An hour on, the failures no longer count and are pruned.
    older = utcnow() - account_service.ACCOUNT_WINDOW - timedelta(seconds=1)
    db.session.execute(update(SignInAttempt).values(at=older))
    db.session.commit()
    assert account_service.authenticate(ana.email, PASSWORD, "10.0.0.1") is ana
    assert attempts() == 0


def test_another_account_s_mark_does_not_skip_the_delay(ana):
    ben = account_service.create_user("Ben", "ben@example.com", PASSWORD)
    for n in range(account_service.FREE_FAILURES_PER_ACCOUNT + 1):
        guess(ana.email, f"198.51.100.{n}")
    assert guess(ana.email, "10.0.0.1", known_user=ben.id) is not None


def test_an_address_failing_on_many_accounts_is_slowed_for_new_browsers(ana):
    for number in range(account_service.MAX_ACCOUNTS_PER_ADDRESS):
        with pytest.raises(account_service.BadCredentials):
            account_service.authenticate(f"guess{number}@example.com", "x", "10.0.0.1")
    with pytest.raises(account_service.TooManyAttempts) as refused:
        account_service.authenticate(ana.email, PASSWORD, "10.0.0.1")
    assert refused.value.seconds <= 60
    # A browser that signed in to the account before is not slowed at all.
    assert account_service.authenticate(ana.email, PASSWORD, "10.0.0.1", ana.id) is ana
    # The accounts it failed on are held by their own pair limit only; other addresses not.
    with pytest.raises(account_service.BadCredentials):
        account_service.authenticate("guess0@example.com", "x", "10.0.0.1")
    assert account_service.authenticate(ana.email, PASSWORD, "10.0.0.2") is ana


def test_the_address_delay_grows_to_a_minute_and_no_more():
    delays = [account_service.address_delay(n).total_seconds() for n in range(9, 15)]
    assert delays == [0, 15, 30, 60, 60, 60]
    assert account_service.address_delay(10**6) == account_service.MAX_ADDRESS_DELAY


def test_typos_at_one_address_hold_back_only_that_account_there(ana):
    ben = account_service.create_user("Ben", "ben@example.com", PASSWORD)
    for _ in range(22):
        guess(ana.email, "192.0.2.1")
    assert account_service.authenticate(ben.email, PASSWORD, "192.0.2.1") is ben


def test_old_failures_no_longer_count_and_are_pruned_after_the_longest_window(ana):
    old = utcnow() - account_service.WINDOW - timedelta(seconds=1)
    db.session.add_all(
        SignInAttempt(email=ana.email, address="10.0.0.1", at=old) for _ in range(10)
    )
    db.session.commit()
    assert account_service.authenticate(ana.email, PASSWORD, "10.0.0.1") is ana
    assert attempts() == 10  # they still count towards the account's hourly limit
    older = utcnow() - account_service.ACCOUNT_WINDOW - timedelta(seconds=1)
    db.session.execute(update(SignInAttempt).values(at=older))
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


def test_change_password_ends_every_session(ana):
    before = account_service.start_session(ana)
    account_service.change_password(ana, PASSWORD, "a brand new password", "10.0.0.1")
    assert ana.session_version == 2
    assert account_service.load_user(before) is None
    assert account_service.authenticate(ana.email, "a brand new password", "10.0.0.1") is ana


def test_wrong_current_password_changes_nothing_and_counts_as_a_failure(ana):
    old_hash = ana.password_hash
    with pytest.raises(account_service.WrongPassword):
        account_service.change_password(ana, "not it at all", "a brand new password", "10.0.0.1")
    assert (ana.password_hash, ana.session_version) == (old_hash, 1)
    assert attempts() == 1
    for _ in range(account_service.MAX_FAILURES_PER_PAIR - 1):
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
