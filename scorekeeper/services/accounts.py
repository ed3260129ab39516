"""Account use cases: sign up, sign in (rate-limited), sessions, change password, API tokens.

Passwords are hashed by Werkzeug (scrypt by default); API tokens and session keys are stored
only as their SHA-256, so a copy of the database opens no account. Every public function that
writes commits.

Sign-in throttling never locks an account out: limits that refuse are per (account, address)
pair, so typos or a guesser at one address hold back only that account there (a known browser
counts as a pair of its own there). An address that
fails on many accounts is slowed, not shut: a browser new to the account it tries waits a
while after the address's last failure (at most a minute), and a browser the account signed
in on before (its known-device mark) does not wait at all, so one guesser on a club's Wi-Fi
keeps no member out. Failures for one account from every address only space its attempts out,
by a delay that grows with each failure and never exceeds a minute, and a known browser skips
that too. Addresses are what the trusted-proxy setting makes of X-Forwarded-For.
"""

from __future__ import annotations

import hashlib
import math
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from typing import NoReturn

from flask import current_app
from sqlalchemy import ColumnElement, delete, func, select
from sqlalchemy.exc import IntegrityError
from werkzeug.security import check_password_hash, generate_password_hash

from scorekeeper.extensions import db
from scorekeeper.models import ApiToken, SignInAttempt, User, UserSession, utcnow
from scorekeeper.services.unit import unit_of_work

# Sign-in attempts. Refusals (before the password is even looked at) are per pair: at most
# this many failures of one account from one address within the window.
WINDOW = timedelta(minutes=15)
MAX_FAILURES_PER_PAIR = 5
# One address failing on this many accounts within WINDOW is slowed for browsers new to the
# account they try: each try of another account waits 15, 30, 60 seconds after the address's
# last failure, never more than MAX_ADDRESS_DELAY (a guesser's neighbours wait, never long).
MAX_ACCOUNTS_PER_ADDRESS = 10
ADDRESS_DELAY_STEP = timedelta(seconds=15)
MAX_ADDRESS_DELAY = timedelta(minutes=1)
# One account's failures from every address within the hour: the first ones are free, then
# each attempt waits 1, 2, 4... seconds after the last failure, at most MAX_ACCOUNT_DELAY.
ACCOUNT_WINDOW = timedelta(hours=1)
FREE_FAILURES_PER_ACCOUNT = 10
MAX_ACCOUNT_DELAY = timedelta(minutes=1)
# A signed-in browser's server-side session lasts at most this long (the remember-me cookie's).
SESSION_LIFETIME = timedelta(days=30)
TOKEN_PREFIX = "sk_"
# "sk_" + secrets.token_urlsafe(32): 3 + 43 characters (game tokens are 22, so never confused).
TOKEN_LENGTH = 46
# A token's last use is noted by the requests that write (a GET never writes), at most this
# often: writing it on every call would add a write to each of them.
LAST_USED_EVERY = timedelta(minutes=1)
EMAIL_MAX = 254
ADDRESS_MAX = 64
# Failures of a browser the account signed in on before are kept under its address so marked.
KNOWN_MARK = "known "
PASSWORD_MIN = 10
# Long passphrases are welcome; megabytes of "password" only cost hashing time.
PASSWORD_MAX = 500


class EmailTaken(Exception):
    """Another account already uses this email address."""


class BadCredentials(Exception):
    """The email and password do not match an account (which of the two is never said)."""


class TooManyAttempts(Exception):
    """Too many failed sign-ins for this email or from this address: try again later."""

    def __init__(self, email: str, retry_after: timedelta = WINDOW) -> None:
        super().__init__(email)
        self.retry_after = retry_after

    @property
    def seconds(self) -> int:
        """Whole seconds to wait (for a Retry-After header)."""
        return max(1, math.ceil(self.retry_after.total_seconds()))

    @property
    def minutes(self) -> int:
        """Whole minutes to wait (for the message)."""
        return max(1, math.ceil(self.seconds / 60))


class WrongPassword(Exception):
    """The current password given to change it was not the account's."""


@dataclass(frozen=True)
class NewToken:
    """A token just created: the row, and the secret itself (shown once, never stored)."""

    token: ApiToken
    secret: str


# Signing in ----------------------------------------------------------------------------------


def load_user(session_id: str) -> User | None:
    """Flask-Login's loader: 'id:session_version:key', as start_session made it. None (signed
    out) if the session was ended, has expired, or the password changed since."""
    user_id, version, key = _parse_session_id(session_id)
    if user_id is None:
        return None
    return db.session.execute(
        select(User)
        .join(UserSession, UserSession.user_id == User.id)
        .where(
            User.id == user_id,
            User.session_version == version,
            UserSession.key_hash == token_hash(key),
            UserSession.created_at >= utcnow() - SESSION_LIFETIME,
        )
    ).scalar_one_or_none()


def _parse_session_id(session_id: str) -> tuple[int | None, int, str]:
    user_id, version, key = (session_id.split(":", 2) + ["", ""])[:3]
    # Ids and versions are 32-bit: a longer number would overflow the database's integer.
    if not (user_id.isdecimal() and version.isdecimal() and len(user_id + version) < 20 and key):
        return None, 0, ""
    return int(user_id), int(version), key


def start_session(user: User) -> str:
    """Record a new signed-in session of the account and return the id Flask-Login keeps in
    the session and remember-me cookies: 'id:session_version:random key' (only the key's
    SHA-256 is stored). Expired sessions of the account are pruned on the way."""
    key = secrets.token_urlsafe(32)
    with unit_of_work():
        db.session.execute(
            delete(UserSession).where(
                UserSession.user_id == user.id,
                UserSession.created_at < utcnow() - SESSION_LIFETIME,
            )
        )
        db.session.add(UserSession(user_id=user.id, key_hash=token_hash(key)))
    return f"{user.id}:{user.session_version}:{key}"


def end_session(session_id: str | None) -> None:
    """End one session (signing out): its cookies, and any copy of them, stop working."""
    _user_id, _version, key = _parse_session_id(session_id or "")
    if key:
        with unit_of_work():
            db.session.execute(delete(UserSession).where(UserSession.key_hash == token_hash(key)))


def _end_all_sessions(user: User) -> None:
    db.session.execute(delete(UserSession).where(UserSession.user_id == user.id))
    # The version is part of every session id: an old cookie cannot match a new session.
    user.session_version += 1


@unit_of_work()
def end_all_sessions(user: User) -> None:
    """Sign the account out everywhere: every browser's session ends (API tokens stay)."""
    _end_all_sessions(user)


def normalise_email(email: str) -> str:
    """The form an address is stored and looked up in: trimmed, lower-case."""
    return email.strip().lower()


def password_hash(password: str) -> str:
    """The stored form of a password (Werkzeug, PASSWORD_HASH_METHOD)."""
    method = current_app.config.get("PASSWORD_HASH_METHOD", "scrypt")
    return generate_password_hash(password, method=method)


@cache
def _decoy_hash(method: str) -> str:
    """A hash to check against when no account has the email, so both cases take as long."""
    return generate_password_hash(secrets.token_urlsafe(16), method=method)


def create_user(name: str, email: str, password: str) -> User:
    """Create an account; raises EmailTaken if the (normalised) address is in use. The
    password is hashed first either way, so a taken address answers no faster."""
    email = normalise_email(email)
    hashed = password_hash(password)
    if db.session.execute(select(User.id).where(User.email == email)).first() is not None:
        raise EmailTaken(email)
    user = User(name=name.strip(), email=email, password_hash=hashed)
    try:
        with unit_of_work():
            db.session.add(user)
    except IntegrityError:  # signed up twice at once: the unique index decides
        raise EmailTaken(email) from None
    return user


def _failures(since: datetime, *conditions: ColumnElement[bool]) -> tuple[int, datetime | None]:
    """How many failures match since then, and when the oldest of them was."""
    count, oldest = db.session.execute(
        select(func.count(SignInAttempt.id), func.min(SignInAttempt.at)).where(
            SignInAttempt.at >= since, *conditions
        )
    ).one()
    return count, oldest


def account_delay(failures: int) -> timedelta:
    """How long after an account's last failure its next attempt waits, after `failures`
    failures within the hour from every address: nothing, then 1, 2, 4... seconds, at most
    MAX_ACCOUNT_DELAY (a delay, never a lockout)."""
    extra = failures - FREE_FAILURES_PER_ACCOUNT
    if extra < 0:
        return timedelta(0)
    return min(MAX_ACCOUNT_DELAY, timedelta(seconds=2 ** min(extra, 16)))


def address_delay(accounts: int) -> timedelta:
    """How long after an address's last failure a new browser there may try another account,
    once the address failed on `accounts` accounts within WINDOW: nothing below
    MAX_ACCOUNTS_PER_ADDRESS, then 15, 30, 60 seconds, never more than MAX_ADDRESS_DELAY."""
    extra = accounts - MAX_ACCOUNTS_PER_ADDRESS
    if extra < 0:
        return timedelta(0)
    step: timedelta = ADDRESS_DELAY_STEP * 2 ** min(extra, 16)
    return min(MAX_ADDRESS_DELAY, step)


def _throttle(email: str, address: str | None, known: bool = False) -> tuple[str, str]:
    """Prune old attempts; TooManyAttempts if this (email, address) pair used up its failures,
    or, unless `known` (this browser signed in to the account before), while the address's
    delay (it failed on many accounts) or the account's growing delay runs. Returns the email
    and address as stored."""
    email = email[:EMAIL_MAX]
    address = (address or "unknown")[:ADDRESS_MAX]
    now = utcnow()
    with unit_of_work(alone=True):  # the pruning stays, whether the attempt is refused or not
        db.session.execute(delete(SignInAttempt).where(SignInAttempt.at < now - max_window()))
    count, oldest = _failures(
        now - WINDOW, SignInAttempt.email == email, SignInAttempt.address == address
    )
    if count >= MAX_FAILURES_PER_PAIR:
        _refuse(email, (oldest or now) + WINDOW - now)
    if count == 0 and not known:
        accounts, last = db.session.execute(
            select(func.count(SignInAttempt.email.distinct()), func.max(SignInAttempt.at)).where(
                SignInAttempt.at >= now - WINDOW, SignInAttempt.address == address
            )
        ).one()
        wait = (last or now) + address_delay(accounts) - now
        if wait > timedelta(0):
            _refuse(email, wait)
    if not known:
        failures, last = db.session.execute(
            select(func.count(SignInAttempt.id), func.max(SignInAttempt.at)).where(
                SignInAttempt.at >= now - ACCOUNT_WINDOW, SignInAttempt.email == email
            )
        ).one()
        wait = (last or now) + account_delay(failures) - now
        if wait > timedelta(0):
            _refuse(email, wait)
    return email, address


def _refuse(email: str, wait: timedelta) -> NoReturn:
    raise TooManyAttempts(email, wait)


def max_window() -> timedelta:
    """How long a failure is kept: the longest window it counts in."""
    return max(WINDOW, ACCOUNT_WINDOW)


def _record_failure(email: str, address: str) -> None:
    """Count a failure at once, in a unit of its own: the sign-in then fails, and a unit
    around it would take the count back (so the failure may not run inside another unit)."""
    with unit_of_work(alone=True):
        db.session.add(SignInAttempt(email=email, address=address, at=utcnow()))


def authenticate(
    email: str, password: str, address: str | None, known_user: int | None = None
) -> User:
    """The account these credentials open. Raises TooManyAttempts (before looking at the
    password) when this email from this address used up its failures, or while the delay of an
    address that failed on many accounts or the account's growing delay runs (both skipped when
    `known_user` is its id: the browser's known-device mark), else BadCredentials on a
    mismatch, which is recorded as a failure."""
    email = normalise_email(email)
    user = db.session.execute(select(User).where(User.email == email)).scalar_one_or_none()
    known = user is not None and known_user == user.id
    if known:
        # A known browser's failures count apart from everyone else's at its address: a
        # neighbour's guesses at the account do not hold it back, its own still do.
        address = f"{KNOWN_MARK}{address or 'unknown'}"
    email, address = _throttle(email, address, known)
    if user is None or user.password_hash is None:
        method = current_app.config.get("PASSWORD_HASH_METHOD", "scrypt")
        check_password_hash(_decoy_hash(method), password)
        matched = False
    else:
        matched = check_password_hash(user.password_hash, password)
    if not matched or user is None:
        _record_failure(email, address)
        raise BadCredentials(email)
    assert user is not None  # a password matched only the user's own hash
    return user


def change_password(user: User, current: str, new: str, address: str | None) -> None:
    """Set a new password and end every session of the account (the caller starts a new one).
    Raises WrongPassword if `current` is not the account's password (a failure counted like a
    sign-in's, so a borrowed session cannot guess it), TooManyAttempts once they are used up."""
    check_password(user, current, address)
    with unit_of_work():
        user.password_hash = password_hash(new)
        _end_all_sessions(user)


def check_password(user: User, password: str, address: str | None) -> None:
    """Make sure a signed-in user typed their own password before a sensitive change: raises
    WrongPassword (a failure counted like a sign-in's, so a borrowed session cannot guess it),
    or TooManyAttempts once they are used up."""
    email, address = _throttle(user.email, address)
    if user.password_hash is None or not check_password_hash(user.password_hash, password):
        _record_failure(email, address)
        raise WrongPassword()


@unit_of_work()
def set_password(email: str, password: str) -> User:
    """Give an account a new password (imported accounts have none) and sign out its sessions;
    ValueError for a password of the wrong length, LookupError for an unknown email."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ValueError(f"A password needs {PASSWORD_MIN} to {PASSWORD_MAX} characters.")
    user = db.session.execute(
        select(User).where(func.lower(User.email) == normalise_email(email))
    ).scalar_one_or_none()
    if user is None:
        raise LookupError(f"There is no account with the email {email!r}.")
    user.password_hash = password_hash(password)
    user.session_version += 1
    return user


# Personal API tokens ---------------------------------------------------------------------------


def token_hash(secret: str) -> str:
    """The SHA-256 (hex) of a token: all the database keeps of it."""
    return hashlib.sha256(secret.encode()).hexdigest()


def looks_personal(secret: str) -> bool:
    """True if a bearer token has the shape of a personal token (not a game's token)."""
    return secret.startswith(TOKEN_PREFIX) and len(secret) == TOKEN_LENGTH


def create_token(user: User, name: str) -> NewToken:
    """A new personal token for the account; the secret is returned once and never stored."""
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken(user_id=user.id, name=name.strip(), token_hash=token_hash(secret))
    with unit_of_work():
        db.session.add(token)
    return NewToken(token, secret)


def tokens_of(user: User) -> list[ApiToken]:
    """The account's tokens, newest first, revoked ones included."""
    return list(
        db.session.execute(
            select(ApiToken)
            .where(ApiToken.user_id == user.id)
            .order_by(ApiToken.created_at.desc(), ApiToken.id.desc())
        ).scalars()
    )


def revoke_token(user: User, token_id: int) -> ApiToken | None:
    """Revoke one of the account's tokens (already revoked: left as it was); None if not theirs."""
    token = db.session.get(ApiToken, token_id)
    if token is None or token.user_id != user.id:
        return None
    if token.revoked_at is None:
        with unit_of_work():
            token.revoked_at = utcnow()
    return token


def user_for_token(secret: str, *, note_use: bool = False) -> User | None:
    """The account a personal token belongs to, if it exists and is not revoked.

    `note_use`: the request writes (creates a game, saves a round...): note the token's last
    use, at most once a minute. Reads note nothing, so a GET never writes (the account page
    says "last used to save")."""
    if not looks_personal(secret):
        return None
    token = db.session.execute(
        select(ApiToken).where(ApiToken.token_hash == token_hash(secret))
    ).scalar_one_or_none()
    if token is None or token.revoked_at is not None:
        return None
    now = utcnow()
    if note_use and (token.last_used_at is None or now - token.last_used_at >= LAST_USED_EVERY):
        with unit_of_work():
            token.last_used_at = now
    return db.session.get(User, token.user_id)


@unit_of_work()
def set_locale(user: User, locale: str | None) -> None:
    """The language the account reads in (None: each device's own)."""
    user.locale = locale or None
