"""Sending mail (Flask-Mailman): password resets and email confirmations, from templates.

The SMTP server comes from the MAIL_* settings (SCOREKEEPER_MAIL_SERVER, _PORT, _USE_TLS,
_USE_SSL, _USERNAME, _PASSWORD, _DEFAULT_SENDER). With no MAIL_SERVER the app says so at start
and writes each mail to its log instead of sending it, so `make run` works with nothing set up
(whoever reads the log can follow the links in it: set a mail server before going online).
"""

from __future__ import annotations

import logging
import smtplib

from flask import Flask, current_app, render_template, url_for
from flask_mailman import EmailMessage, Mail
from flask_mailman.backends.base import BaseEmailBackend

from scorekeeper.config import public_url_parts

mail = Mail()
# Mails written to the log go through their own logger: the app's logger redacts the tokens
# in links, and a mail whose link is redacted is no use to the one who reads it.
log = logging.getLogger("scorekeeper.mail")
LOG_BACKEND = "scorekeeper.mail.LogEmailBackend"


class LogEmailBackend(BaseEmailBackend):
    """Flask-Mailman backend used when no mail server is set: each mail goes to the log."""

    def send_messages(self, email_messages) -> int:
        for message in email_messages:
            log.warning(
                "No mail server is set (SCOREKEEPER_MAIL_SERVER): this mail was not sent.\n%s",
                message.message().as_string(),
            )
        return len(email_messages)


def configured(app: Flask) -> bool:
    """True if a mail server is set (else mails go to the log)."""
    return bool(app.config.get("MAIL_SERVER"))


def init_app(app: Flask) -> None:
    """Bind Flask-Mailman: SMTP when MAIL_SERVER is set, else the log (said once, at start)."""
    app.config["MAIL_BACKEND"] = "smtp" if configured(app) else LOG_BACKEND
    if not configured(app):
        log.warning(
            "No mail server is set (SCOREKEEPER_MAIL_SERVER): password-reset and "
            "email-confirmation mails are written to this log instead of being sent."
        )
    mail.init_app(app)


def link(endpoint: str, **values: object) -> str:
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
