"""Sending mail (Flask-Mailman): password resets and email confirmations, from templates.

The SMTP server comes from the MAIL_* settings (SCOREKEEPER_MAIL_SERVER, _PORT, _USE_TLS,
_USE_SSL, _USERNAME, _PASSWORD, _DEFAULT_SENDER). With no MAIL_SERVER the app says so at start
and writes each mail to its log instead of sending it: whole under `make dev` and the tests
(on your own machine the log is how you follow the links), with every token link redacted
anywhere else (a live reset link in a server's log opens an account), where the club owners
also see a warning at the top of every page that mails are not sent.
"""

from __future__ import annotations

import logging
import smtplib
from typing import Any

from flask import Flask, current_app, render_template, url_for
from flask_login import current_user
from flask_mailman import EmailMessage, Mail
from flask_mailman.backends.base import BaseEmailBackend
from sqlalchemy import select

from scorekeeper.config import public_url_parts
from scorekeeper.extensions import db
from scorekeeper.infra.logs import redact
from scorekeeper.models import Membership

mail = Mail()
# Mails written to the log go through their own logger: the app's logger redacts the tokens
# in links, and a mail whose link is redacted is no use to the one who reads it.
log = logging.getLogger("scorekeeper.mail")
LOG_BACKEND = "scorekeeper.infra.mail.LogEmailBackend"


class LogEmailBackend(BaseEmailBackend):
    """Flask-Mailman backend used when no mail server is set: each mail goes to the log."""

    def send_messages(self, email_messages) -> int:
        for message in email_messages:
            text = message.message().as_string()
            if not links_in_log(current_app):
                text = redact(text)
            log.warning(
                "No mail server is set (SCOREKEEPER_MAIL_SERVER): this mail was not sent.\n%s",
                text,
            )
        return len(email_messages)


def configured(app: Flask) -> bool:
    """True if a mail server is set (else mails go to the log)."""
    return bool(app.config.get("MAIL_SERVER"))


def links_in_log(app: Flask) -> bool:
    """True under debug and the tests: a mail written to the log keeps its live links."""
    return bool(app.debug or app.testing)


def _mail_off_warning() -> bool:
    """True if the signed-in visitor owns a club and this server, outside debug, sends no
    mail: then nobody can reset a password or confirm an address to join a club."""
    if configured(current_app) or links_in_log(current_app):
        return False
    if not current_user.is_authenticated:
        return False
    owned = select(Membership.id).where(
        Membership.user_id == current_user.id, Membership.role == "owner"
    )
    return db.session.execute(owned.limit(1)).first() is not None


def init_app(app: Flask) -> None:
    """Bind Flask-Mailman: SMTP when MAIL_SERVER is set, else the log (said once, at start)."""
    app.config["MAIL_BACKEND"] = "smtp" if configured(app) else LOG_BACKEND
    if not configured(app):
        log.warning(
            "No mail server is set (SCOREKEEPER_MAIL_SERVER): password-reset and "
            "email-confirmation mails are written to this log instead of being sent%s.",
            ""
            if links_in_log(app)
            else ", their links redacted (club owners are told on every page)",
        )
    mail.init_app(app)
    app.jinja_env.globals["mail_off_warning"] = _mail_off_warning


def link(endpoint: str, **values: Any) -> str:
    """The full address of a page for a mail: built from PUBLIC_URL when it is set (never
    from the request's Host header, which whoever asked for the mail chose), else, in debug
    and tests, from the request."""
    public = current_app.config.get("PUBLIC_URL")
    if not public:
        return url_for(endpoint, _external=True, **values)
    scheme, netloc, path = public_url_parts(public)
    adapter = current_app.url_map.bind(netloc, script_name=path or "/", url_scheme=scheme)
    return adapter.build(endpoint, values, force_external=True)


def send(to: str, subject: str, template: str, **context: object) -> bool:
    """Send one plain-text mail rendered from templates/mail/<template>.txt; False (and the
    error logged) if the mail server refused it or could not be reached."""
    body = render_template(f"mail/{template}.txt", **context)
    message = EmailMessage(subject=subject, body=body, to=[to])
    try:
        message.send()
    except (smtplib.SMTPException, OSError):
        current_app.logger.exception("Could not send the %s mail", template)
        return False
    return True
