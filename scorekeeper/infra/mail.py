"""Sending mail (Flask-Mailman): password resets and email confirmations, from templates.

The SMTP server comes from the MAIL_* settings (SCOREKEEPER_MAIL_SERVER, _PORT, _USE_TLS,
_USE_SSL, _USERNAME, _PASSWORD, _DEFAULT_SENDER). With no MAIL_SERVER the app says so at start
and writes each mail to its log instead of sending it: whole under `make dev` and the tests
(on your own machine the log is how you follow the links), with every token link redacted
anywhere else (a live reset link in a server's log opens an account), where the club owners
also see a warning at the top of every page that mails are not sent.

A mail is rendered in the request (its language, its links) and sent after the answer, by this
process's outbox (`Outbox`): a page never waits for the mail server, so "Forgot your
password?" answers as fast for an address with an account as for one without, and a slow or
unreachable server costs the visitor nothing. A refused send is tried again after 5, 10, 20
seconds (MAIL_ATTEMPTS, MAIL_RETRY_SECONDS) and each failure is logged; a full outbox
(MAIL_OUTBOX_SIZE) refuses the mail, logged too. Mails still waiting when the process stops
get MAIL_DRAIN_SECONDS to go out.
"""

from __future__ import annotations

import atexit
import logging
import os
import smtplib
import threading
import time
import weakref
from collections import deque
from dataclasses import dataclass
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
# The app's extension key of its outbox.
_OUTBOX = "scorekeeper_outbox"
# Every outbox of this process, to drain at exit (weak: an app gone needs no draining).
_OUTBOXES: weakref.WeakSet[Outbox] = weakref.WeakSet()


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


@dataclass(frozen=True)
class Letter:
    """One rendered mail waiting in the outbox, and the name of its template (for the log)."""

    template: str
    message: EmailMessage


class Outbox:
    """This process's mails on their way out. A request puts a rendered mail here and answers
    at once; one thread, started when a mail waits and gone when none does, sends them in
    order inside an app context, trying each MAIL_ATTEMPTS times with a pause that doubles from
    MAIL_RETRY_SECONDS. At most MAIL_OUTBOX_SIZE mails wait or are being sent."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self._waiting: deque[Letter] = deque()
        self._unsent = 0  # waiting, or being sent now
        self._sender: threading.Thread | None = None
        self._changed = threading.Condition()
        _OUTBOXES.add(self)

    @property
    def unsent(self) -> int:
        """How many mails wait or are being sent."""
        with self._changed:
            return self._unsent

    def put(self, letter: Letter) -> bool:
        """Queue a mail to be sent after the answer; False if the outbox is full."""
        with self._changed:
            if self._unsent >= int(self.app.config["MAIL_OUTBOX_SIZE"]):
                return False
            self._waiting.append(letter)
            self._unsent += 1
            if self._sender is None:
                self._sender = threading.Thread(
                    target=self._run, name="scorekeeper-outbox", daemon=True
                )
                self._sender.start()
        return True

    def wait(self, timeout: float) -> bool:
        """Wait until every mail put here was sent or given up (True), at most `timeout` s."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while self._unsent:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
        return True

    def _run(self) -> None:
        while True:
            with self._changed:
                if not self._waiting:
                    self._sender = None
                    return
                letter = self._waiting.popleft()
            try:
                self._deliver(letter)
            except Exception:  # never lose the thread to one mail: the next still go out
                self.app.logger.exception("Could not send the %s mail", letter.template)
            finally:
                with self._changed:
                    self._unsent -= 1
                    self._changed.notify_all()

    def _deliver(self, letter: Letter) -> None:
        attempts = max(1, int(self.app.config["MAIL_ATTEMPTS"]))
        pause = float(self.app.config["MAIL_RETRY_SECONDS"])
        with self.app.app_context():
            for attempt in range(1, attempts + 1):
                try:
                    _send_once(letter.message)
                except (smtplib.SMTPException, OSError) as error:
                    if attempt == attempts:
                        self.app.logger.error(
                            "Could not send the %s mail (%s attempts, the last: %s); given up",
                            letter.template,
                            attempts,
                            error,
                        )
                        return
                    wait = pause * 2 ** (attempt - 1)
                    self.app.logger.warning(
                        "Could not send the %s mail (attempt %s of %s: %s); trying again in %g s",
                        letter.template,
                        attempt,
                        attempts,
                        error,
                        wait,
                    )
                    time.sleep(wait)
                else:
                    return

    def forget(self) -> None:
        """In a forked child: the parent's mails and thread are the parent's to finish."""
        self._waiting.clear()
        self._unsent = 0
        self._sender = None
        self._changed = threading.Condition()


def _send_once(message: EmailMessage) -> None:
    """Send a mail on a connection of its own, closed whatever happens (Flask-Mailman keeps a
    connection open when the server refuses the mail): each try starts afresh."""
    try:
        message.send()
    finally:
        connection, message.connection = message.connection, None
        if connection is not None:
            try:
                connection.close()
            except (smtplib.SMTPException, OSError):
                pass  # the connection is gone either way


def outbox(app: Flask) -> Outbox:
    """The app's outbox in this process."""
    box = app.extensions.get(_OUTBOX)
    if box is None:
        box = app.extensions[_OUTBOX] = Outbox(app)
    return box


def _drain_at_exit() -> None:
    """Give the mails still waiting MAIL_DRAIN_SECONDS to go out; say how many did not."""
    for box in list(_OUTBOXES):
        if box.unsent and not box.wait(float(box.app.config["MAIL_DRAIN_SECONDS"])):
            log.error("The process stops with %s mails not sent.", box.unsent)


def _forget_after_fork() -> None:
    for box in list(_OUTBOXES):
        box.forget()


atexit.register(_drain_at_exit)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_after_fork)


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
    app.extensions[_OUTBOX] = Outbox(app)
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
    """Render one plain-text mail from templates/mail/<template>.txt now and send it after the
    answer (the outbox); with no mail server it is written to the log at once. False (logged)
    only if the outbox is full: a server that refuses it later is the outbox's to log."""
    body = render_template(f"mail/{template}.txt", **context)
    message = EmailMessage(subject=subject, body=body, to=[to])
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    if app.config["MAIL_BACKEND"] == LOG_BACKEND:
        message.send()  # nothing to wait for: the log is at hand
        return True
    box = outbox(app)
    if box.put(Letter(template, message)):
        return True
    app.logger.error(
        "Could not send the %s mail: the outbox is full (%s mails waiting, MAIL_OUTBOX_SIZE)",
        template,
        box.unsent,
    )
    return False
