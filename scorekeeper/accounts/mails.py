"""The mails the account pages send: a password-reset link and an email-confirmation link.

Each address gets at most LIMIT_MAILS_PER_ADDRESS of each kind, whoever asks, so nobody can
fill someone's inbox from many clients; past that, the page answers as usual and sends nothing.
"""

from __future__ import annotations

from flask import url_for
from flask_babel import gettext as _

from scorekeeper import limits, mail
from scorekeeper.models import User
from scorekeeper.services import account_links


def send_verification(user: User) -> bool:
    """Mail the account a link that confirms its current address; False if none went out."""
    if not limits.mail_allowed("verify", user.email):
        return False
    token = account_links.verify_token(user)
    return mail.send(
        user.email,
        _("Confirm your email address for Scorekeeper"),
        "verify_email",
        user=user,
        link=url_for("accounts.verify_email", token=token, _external=True),
        days=account_links.VERIFY_LIFETIME.days,
    )


def send_reset(user: User) -> bool:
    """Mail the account a link to choose a new password; False if none went out."""
    if not limits.mail_allowed("reset", user.email):
        return False
    token = account_links.reset_token(user)
    return mail.send(
        user.email,
        _("Reset your Scorekeeper password"),
        "reset_password",
        user=user,
        link=url_for("accounts.reset_password", token=token, _external=True),
        minutes=int(account_links.RESET_LIFETIME.total_seconds() // 60),
    )
