"""Keeping secrets out of logs: share, edit, invite and club tokens in URLs, and credentials.

A token in a path opens a game (or a club) to whoever reads it, so every log line (gunicorn's
access and error logs, the development server's log, the app's own) has them replaced by
`[redacted]` before it is written.
"""

from __future__ import annotations

import logging
import re
from collections.abc import MutableMapping
from typing import Any, cast

from flask import Flask
from gunicorn.glogging import Logger as GunicornLogger

REDACTED = "[redacted]"
# The routes whose path segment after the prefix is a secret token: /s/<view token>,
# /e/<edit token>, /invite/<invite token>, /c/<club token>, and the mailed links
# /reset-password/<token>, /verify-email/<token>. The slash may be %-encoded when the
# URL sits in a query string (?next=%2Finvite%2F...).
_TOKEN_PATH = re.compile(
    r"(?P<prefix>(?:/|%2F)(?:s|e|c|invite|reset-password|verify-email)(?:/|%2F))"
    r"(?P<token>[^/?#&\s\"'%]+)",
    re.IGNORECASE,
)
# "Bearer sk_...", "Basic ...": whatever follows the scheme is a credential.
_CREDENTIALS = re.compile(r"(?P<prefix>\b(?:Bearer|Basic|Token)\s+)(?P<token>[^\s\"',]+)", re.I)
# Request headers whose value is a secret as a whole.
SECRET_HEADERS = frozenset({"authorization", "proxy-authorization", "cookie", "x-api-key"})


# Every text either pattern can match holds one of these (case-folded): most log atoms (times,
# sizes, user agents, paths of pages without tokens) hold none and skip both patterns.
_MARKS = (
    "/s/",
    "/e/",
    "/c/",
    "/invite/",
    "/reset-password/",
    "/verify-email/",
    "%2f",
    "bearer",
    "basic",
    "token",
)


def redact(text: str) -> str:
    """`text` with every token path segment and credential replaced by [redacted]."""
    lowered = text.casefold()  # as the patterns' IGNORECASE: "ſ" is an "s"
    if not any(mark in lowered for mark in _MARKS):
        return text
    text = _TOKEN_PATH.sub(lambda m: m["prefix"] + REDACTED, text)
    return _CREDENTIALS.sub(lambda m: m["prefix"] + REDACTED, text)


class RedactingFilter(logging.Filter):
    """A logging filter that formats the record's message and redacts it."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg = cleaned
            record.args = None
        return True


FILTER = RedactingFilter()


def _add_filter(logger: logging.Logger) -> None:
    if FILTER not in logger.filters:
        logger.addFilter(FILTER)


class RedactingGunicornLogger(GunicornLogger):
    """gunicorn's logger with tokens and credentials taken out of access and error lines
    (`logger_class` in gunicorn.conf.py)."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        _add_filter(self.error_log)
        _add_filter(self.access_log)

    # types-gunicorn's _AtomsDict leaves out the {header}i, {header}o and {var}e atoms.
    def atoms(  # type: ignore[override]
        self, resp: Any, req: Any, environ: MutableMapping[str, Any], request_time: Any
    ) -> dict[str, Any]:
        atoms = cast(dict[str, Any], super().atoms(resp, req, environ, request_time))
        # A secret header's value is replaced whole (no pattern knows a cookie); tokens in the
        # other atoms are taken out of the line they make, by the access log's filter: once per
        # line, not once per atom (about forty, most never in the line).
        for key in atoms:
            if key.startswith("{") and key[1:-2] in SECRET_HEADERS:
                atoms[key] = REDACTED
        return atoms


def init_app(app: Flask) -> None:
    """Redact the app's own log (app.logger: log through it, not a child logger, whose records
    skip its filters) and the development server's request log."""
    _add_filter(app.logger)
    # Werkzeug's request lines ("GET /s/<token> HTTP/1.1" 200) go through this logger.
    _add_filter(logging.getLogger("werkzeug"))
