"""The health check, answered before Flask: a load balancer's probe every few seconds costs no
request context, session, hooks or database (GET and HEAD /healthz; anything else goes on to the
app, whose /healthz route answers the same for the test client and `url_for`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from scorekeeper.web.security import HEADERS

PATH = "/healthz"
BODY = b"ok"
# What the app's own answer would carry: its security headers, never cached.
ANSWER = [
    ("Content-Type", "text/plain; charset=utf-8"),
    ("Content-Length", str(len(BODY))),
    ("Cache-Control", "no-store"),
    *HEADERS.items(),
]

Wsgi = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def answer_probes(app: Wsgi) -> Wsgi:
    """`app`, with GET and HEAD /healthz answered "ok" before it."""

    def probe(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        method = environ.get("REQUEST_METHOD")
        if environ.get("PATH_INFO") != PATH or method not in ("GET", "HEAD"):
            return app(environ, start_response)
        start_response("200 OK", list(ANSWER))
        return [] if method == "HEAD" else [BODY]

    return probe
