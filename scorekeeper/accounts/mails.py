"""The mails the account pages send: a password-reset link and an email-confirmation link.

Each address gets at most LIMIT_MAILS_PER_ADDRESS of each kind, whoever asks, so nobody can
fill someone's inbox from many clients; past that, the page answers as usual and sends nothing.
"""

from __future__ import annotations

from flask_babel import gettext as _

from scorekeeper.i18n import speaking
from scorekeeper.infra import mail
from scorekeeper.models import User
from scorekeeper.services import account_links
from scorekeeper.web import limits


def _send(kind: str, user: User, subject: str, endpoint: str, token: str, **context) -> bool:
    """Mail `user` the templates/mail/<endpoint>.txt with the link to `endpoint`/`token`, if
    the address may get one more mail of this kind now; False if none went out."""
    if not limits.mail_allowed(kind, user.email):
        return False
    link = mail.link(f"accounts.{endpoint}", token=token)
    return mail.send(user.email, subject, endpoint, user=user, link=link, **context)


def send_verification(user: User) -> bool:
    """Mail the account a link that confirms its current address; False if none went out.
    In the account's language when it chose one (else the asking page's)."""
    with speaking(user.locale):
        subject = _("Confirm your email address for Scorekeeper")
        token = account_links.verify_token(user)
        days = account_links.VERIFY_LIFETIME.days
        return _send("verify", user, subject, "verify_email", token, days=days)


def send_reset(user: User) -> bool:
    """Mail the account a link to choose a new password; False if none went out.
    In the account's language when it chose one (else the asking page's)."""
    with speaking(user.locale):
        subject = _("Reset your Scorekeeper password")
        token = account_links.reset_token(user)
        minutes = int(account_links.RESET_LIFETIME.total_seconds() // 60)
        return _send("reset", user, subject, "reset_password", token, minutes=minutes)


def send_account_exists(email: str) -> bool:
    """Tell the owner of `email` that someone tried to sign up with it (perhaps they forgot
    they had an account): how to sign in, or choose a new password. False if none went out."""
    user = account_links.user_by_email(email)
    if user is None or not limits.mail_allowed("exists", user.email):
        return False
    with speaking(user.locale):
        subject = _("You already have a Scorekeeper account")
        sign_in = mail.link("accounts.sign_in")
        forgot = mail.link("accounts.forgot_password")
        return mail.send(
            user.email, subject, "account_exists", user=user, sign_in=sign_in, forgot=forgot
        )
