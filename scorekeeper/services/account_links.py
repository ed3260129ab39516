"""Links sent by mail: resetting a forgotten password and confirming an email address.

Both are signed with the app's secret key (itsdangerous), so nothing is stored for them:
- a reset link names the account and a fingerprint of its current password hash and session
  version, and lasts RESET_LIFETIME: using it changes the hash, so it works once, and any
  other password change (or "sign out everywhere") kills it too;
- a confirmation link names the account and the address it was sent to: it confirms that
  address only while it is still the account's.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import Any

from flask import current_app
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from scorekeeper.extensions import db
from scorekeeper.models import User, utcnow
from scorekeeper.services import accounts as account_service
from scorekeeper.services.unit import unit_of_work

RESET_LIFETIME = timedelta(hours=1)
VERIFY_LIFETIME = timedelta(days=7)
_RESET_SALT = "scorekeeper.password-reset"
_VERIFY_SALT = "scorekeeper.email-verify"
# A signed token is about 100 characters; anything much longer is not one of ours.
TOKEN_MAX = 400


class LinkExpired(Exception):
    """The link was genuine but is too old."""


class LinkInvalid(Exception):
    """The link is not one of ours, was already used, or no longer applies."""


def _serializer(salt: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt=salt)


def _fingerprint(user: User) -> str:
    """Changes whenever the password (or the session version) does: kills older reset links."""
    material = f"{user.password_hash or ''}|{user.session_version}"
    return hashlib.sha256(material.encode()).hexdigest()[:24]


def _load(token: str, salt: str, lifetime: timedelta) -> dict[str, Any]:
    if not token or len(token) > TOKEN_MAX:
        raise LinkInvalid()
    try:
        data = _serializer(salt).loads(token, max_age=int(lifetime.total_seconds()))
    except SignatureExpired:
        raise LinkExpired() from None
    except BadSignature:
        raise LinkInvalid() from None
    if not isinstance(data, dict) or not isinstance(data.get("u"), int):
        raise LinkInvalid()
    return data


def _user(user_id: int) -> User:
    user = db.session.get(User, user_id) if 0 < user_id < 2**31 else None
    if user is None:
        raise LinkInvalid()
    return user


# Forgotten passwords ---------------------------------------------------------------------------


def user_by_email(email: str) -> User | None:
    """The account with this address (normalised), or None."""
    email = account_service.normalise_email(email)[: account_service.EMAIL_MAX]
    return db.session.execute(select(User).where(User.email == email)).scalar_one_or_none()


def reset_token(user: User) -> str:
    """A reset link's token for the account as it is now (see the module's docstring)."""
    return _serializer(_RESET_SALT).dumps({"u": user.id, "f": _fingerprint(user)})


def user_for_reset(token: str) -> User:
    """The account a reset link is for; LinkExpired after an hour, LinkInvalid if forged, used
    or outdated by a password change."""
    data = _load(token, _RESET_SALT, RESET_LIFETIME)
    user = _user(data["u"])
    if data.get("f") != _fingerprint(user):
        raise LinkInvalid()
    return user


def reset_password(token: str, password: str) -> User:
    """Set a new password through a reset link and end every session of the account (the
    caller signs this browser in again). The link is dead afterwards. Also confirms the email
    address: the link reached it."""
    user = user_for_reset(token)
    user.password_hash = account_service.password_hash(password)
    if user.email_verified_at is None:
        user.email_verified_at = utcnow()
    account_service.end_all_sessions(user)
    return user


# Confirming an email address ------------------------------------------------------------------


def verify_token(user: User) -> str:
    """A confirmation link's token for the account's current address."""
    return _serializer(_VERIFY_SALT).dumps({"u": user.id, "e": user.email})


def verify_email_user(token: str) -> User:
    """The account a confirmation link is for (nothing is written); LinkExpired, or
    LinkInvalid if forged or if the account's address has changed since it was sent."""
    data = _load(token, _VERIFY_SALT, VERIFY_LIFETIME)
    user = _user(data["u"])
    if data.get("e") != user.email:
        raise LinkInvalid()
    return user


def verify_email(token: str) -> User:
    """Mark the address the link was sent to as confirmed (again: no change); raises as
    verify_email_user does."""
    user = verify_email_user(token)
    if user.email_verified_at is None:
        with unit_of_work():
            user.email_verified_at = utcnow()
    return user


def change_email(user: User, password: str, new_email: str, address: str | None) -> bool:
    """Give the account a new address, unconfirmed until its link is followed; False if it is
    the same address. The password is checked (and throttled) as a sign-in's: WrongPassword,
    TooManyAttempts; EmailTaken if another account has the new one."""
    account_service.check_password(user, password, address)
    new_email = account_service.normalise_email(new_email)
    if new_email == user.email:
        return False
    taken = db.session.execute(select(User.id).where(User.email == new_email)).first()
    if taken is not None:
        raise account_service.EmailTaken(new_email)
    try:
        with unit_of_work():
            user.email = new_email
            user.email_verified_at = None
    except IntegrityError:  # the same address taken at the same moment: the unique index decides
        raise account_service.EmailTaken(new_email) from None
    return True
