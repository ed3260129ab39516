"""A real SMTP server on loopback (aiosmtpd) that keeps what it receives, for the mail tests."""

from __future__ import annotations

import asyncio
import email
import re
import socket
import threading
import time
from dataclasses import dataclass
from email.message import Message
from email.policy import default

from aiosmtpd.controller import Controller


@dataclass(frozen=True)
class Received:
    """One mail as the server got it: the envelope and the parsed message."""

    sender: str
    recipients: list[str]
    message: Message

    @property
    def subject(self) -> str:
        return str(self.message["Subject"])

    @property
    def body(self) -> str:
        part = self.message.get_body(preferencelist=("plain",))  # type: ignore[attr-defined]
        return part.get_content()

    def link(self, path: str) -> str:
        """The first link in the body whose path starts with `path` ('/reset-password/')."""
        found = re.search(r"https?://\S+" + re.escape(path) + r"\S+", self.body)
        assert found, self.body
        return found.group(0)


class Mailbox:
    """What the SMTP server received, in order; `wait_for` waits for a mail to an address.

    `delay`: seconds the server takes before it answers each mail (a slow server); `refuse`:
    how many mails it first turns away with a temporary error (451), as a busy server does."""

    def __init__(self, delay: float = 0.0, refuse: int = 0) -> None:
        self.mails: list[Received] = []
        self._lock = threading.Lock()
        self.delay = delay
        self.refuse = refuse

    async def handle_DATA(self, server, session, envelope) -> str:  # noqa: N802 (aiosmtpd's name)
        await asyncio.sleep(self.delay)
        with self._lock:
            if self.refuse > 0:
                self.refuse -= 1
                return "451 Busy: try again later"
        message = email.message_from_bytes(envelope.content, policy=default)
        with self._lock:
            self.mails.append(Received(envelope.mail_from, list(envelope.rcpt_tos), message))
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[Received]:
        """Every mail received for this address so far."""
        with self._lock:
            return [mail for mail in self.mails if address in mail.recipients]

    def wait_for(self, address: str, count: int = 1, timeout: float = 10.0) -> Received:
        """The `count`-th mail to this address, waiting for it to arrive."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            mails = self.to(address)
            if len(mails) >= count:
                return mails[count - 1]
            time.sleep(0.05)
        raise AssertionError(f"no mail #{count} for {address}; got {self.mails!r}")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class SmtpServer:
    """aiosmtpd in its own thread on 127.0.0.1; `config` points the app at it."""

    def __init__(self, delay: float = 0.0, refuse: int = 0) -> None:
        self.mailbox = Mailbox(delay, refuse)
        self.controller = Controller(self.mailbox, hostname="127.0.0.1", port=free_port())

    def start(self) -> SmtpServer:
        self.controller.start()
        return self

    def stop(self) -> None:
        self.controller.stop()

    @property
    def config(self) -> dict[str, object]:
        return {
            "MAIL_SERVER": "127.0.0.1",
            "MAIL_PORT": self.controller.port,
            "MAIL_USE_TLS": False,
            "MAIL_DEFAULT_SENDER": "Scorekeeper <club@example.org>",
        }
