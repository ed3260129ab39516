"""Account use cases: sign up, sign in (rate-limited), change password, personal API tokens.

Passwords are hashed by Werkzeug (scrypt by default); API tokens are stored only as their
SHA-256, so a copy of the database opens no account. Every public function that writes commits.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache

from flask import current_app
from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import InstrumentedAttribute
from werkzeug.security import check_password_hash, generate_password_hash

from scorekeeper.extensions import db
from scorekeeper.models import ApiToken, SignInAttempt, User, utcnow

# Sign-in attempts: at most this many failures within WINDOW; the next attempt is refused.
WINDOW = timedelta(minutes=15)
MAX_FAILURES_PER_EMAIL = 5
MAX_FAILURES_PER_ADDRESS = 20
TOKEN_PREFIX = "sk_"
# "sk_" + secrets.token_urlsafe(32): 3 + 43 characters (game tokens are 22, so never confused).
TOKEN_LENGTH = 46
# Writing last_used_at on every API call would turn each read into a write.
LAST_USED_EVERY = timedelta(minutes=1)
EMAIL_MAX = 254
ADDRESS_MAX = 64
PASSWORD_MIN = 10
# Long passphrases are welcome; megabytes of "password" only cost hashing time.
PASSWORD_MAX = 500


class EmailTaken(Exception):
    """Another account already uses this email address."""


class BadCredentials(Exception):
    """The email and password do not match an account (which of the two is never said)."""


class TooManyAttempts(Exception):
    """Too many failed sign-ins for this email or from this address: try again later."""


class WrongPassword(Exception):
    """The current password given to change it was not the account's."""


@dataclass(frozen=True)
class NewToken:
    """A token just created: the row, and the secret itself (shown once, never stored)."""

    token: ApiToken
    secret: str


# Signing in ----------------------------------------------------------------------------------


def load_user(session_id: str) -> User | None:
    """Flask-Login's loader: 'id:session_version'; a stale version (password changed) signs out."""
    user_id, _, version = session_id.partition(":")
    if not user_id.isdecimal() or not version.isdecimal():
        return None
    user = db.session.get(User, int(user_id))
    if user is None or user.session_version != int(version):
        return None
    return user


def normalise_email(email: str) -> str:
    """The form an address is stored and looked up in: trimmed, lower-case."""
    return email.strip().lower()


def _hash(password: str) -> str:
    method = current_app.config.get("PASSWORD_HASH_METHOD", "scrypt")
    return generate_password_hash(password, method=method)


@cache
def _decoy_hash(method: str) -> str:
    """A hash to check against when no account has the email, so both cases take as long."""
    return generate_password_hash(secrets.token_urlsafe(16), method=method)


def create_user(name: str, email: str, password: str) -> User:
    """Create an account; raises EmailTaken if the (normalised) address is in use."""
    email = normalise_email(email)
    if db.session.execute(select(User.id).where(User.email == email)).first() is not None:
        raise EmailTaken(email)
    user = User(name=name.strip(), email=email, password_hash=_hash(password))
    db.session.add(user)
    try:
        db.session.commit()
    except IntegrityError:  # signed up twice at once: the unique index decides
        db.session.rollback()
        raise EmailTaken(email) from None
    return user


def _failures(column: InstrumentedAttribute[str], value: str, since: datetime) -> int:
    return db.session.execute(
        select(func.count(SignInAttempt.id)).where(column == value, SignInAttempt.at >= since)
    ).scalar_one()


def _throttle(email: str, address: str | None) -> tuple[str, str]:
    """Prune old attempts; TooManyAttempts if the email or the address used up its failures.
    Returns the email and address as they are stored."""
    email = email[:EMAIL_MAX]
    address = (address or "unknown")[:ADDRESS_MAX]
    since = utcnow() - WINDOW
    db.session.execute(delete(SignInAttempt).where(SignInAttempt.at < since))
    if (
        _failures(SignInAttempt.email, email, since) >= MAX_FAILURES_PER_EMAIL
        or _failures(SignInAttempt.address, address, since) >= MAX_FAILURES_PER_ADDRESS
    ):
        db.session.commit()
        raise TooManyAttempts(email)
    return email, address


def _record_failure(email: str, address: str) -> None:
    db.session.add(SignInAttempt(email=email, address=address, at=utcnow()))
    db.session.commit()


def authenticate(email: str, password: str, address: str | None) -> User:
    """The account these credentials open. Raises TooManyAttempts (before looking at the
    password) when the email or the address has used up its failures within WINDOW, else
    BadCredentials on a mismatch, which is recorded as a failure."""
    email, address = _throttle(normalise_email(email), address)
    user = db.session.execute(select(User).where(User.email == email)).scalar_one_or_none()
    if user is None or user.password_hash is None:
        method = current_app.config.get("PASSWORD_HASH_METHOD", "scrypt")
        check_password_hash(_decoy_hash(method), password)
        matched = False
    else:
        matched = check_password_hash(user.password_hash, password)
    if not matched:
        _record_failure(email, address)
        raise BadCredentials(email)
    db.session.commit()
    return user


def change_password(user: User, current: str, new: str, address: str | None) -> None:
    """Set a new password and bump the session version, which signs out every other session.
    Raises WrongPassword if `current` is not the account's password (a failure counted like a
    sign-in's, so a borrowed session cannot guess it), TooManyAttempts once they are used up."""
    email, address = _throttle(user.email, address)
    if user.password_hash is None or not check_password_hash(user.password_hash, current):
        _record_failure(email, address)
        raise WrongPassword()
    user.password_hash = _hash(new)
    user.session_version += 1
    db.session.commit()


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
    user.password_hash = _hash(password)
    user.session_version += 1
    db.session.commit()
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
    db.session.add(token)
    db.session.commit()
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
        token.revoked_at = utcnow()
        db.session.commit()
    return token


def user_for_token(secret: str) -> User | None:
    """The account a personal token belongs to, if it exists and is not revoked; notes its use
    (at most once a minute)."""
    if not looks_personal(secret):
        return None
    token = db.session.execute(
        select(ApiToken).where(ApiToken.token_hash == token_hash(secret))
    ).scalar_one_or_none()
    if token is None or token.revoked_at is not None:
        return None
    now = utcnow()
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_EVERY:
        token.last_used_at = now
        db.session.commit()
    return db.session.get(User, token.user_id)
