"""HTTP caching, decided in one place: what an answer's ETag is made of, and the 304.

An ETag names everything the answer shows: the version of what it reads (a game's version, a
night's fingerprint) and every setting, role and language it uses. `etag_for` is the one
recipe; a view lists what its page shows (`role=..., rule=...`), and a change to any of it
changes the ETag, so a phone never keeps an old page with a 304. `conditional` answers 304 or
renders; polls.py answers pollers' 304s before Flask with the same recipe (`etag_text`,
`sent_back`). Only this module reads `If-None-Match` (tests/test_layers.py checks).

A full page (`page=True`) also shows who is signed in (the header's links), the messages
waiting for the next page, and its forms' CSRF tokens, which expire: a page is answered 304
only while none of that moved (its tokens are at most a slot old, see CSRF_SLOT).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from typing import Any

from flask import Response, current_app, make_response, request, session
from flask.typing import ResponseReturnValue
from flask_babel import get_locale
from flask_login import current_user
from werkzeug.http import parse_etags

# Cache-Control of every revalidated answer: kept by the browser, asked again each time.
REVALIDATE = "private, no-cache"
# A page's forms carry CSRF tokens that live an hour (Flask-WTF's default): a page kept with a
# 304 is rendered again every half hour, so its tokens are never older than the limit allows.
CSRF_SLOT = 1800


def etag_for(version: object, *, language: bool = True, **shown: object) -> str:
    """The ETag of an answer showing `version` of what it reads, in the request's language
    (unless `language` is False: the API's JSON has no words) and every setting `shown`
    (`role="owner", rule="zero"`). With nothing else shown it is the version itself."""
    if language:
        shown["language"] = get_locale()
    return etag_text(version, shown)


def etag_text(version: object, shown: dict[str, object]) -> str:
    """etag_for's recipe, given everything shown (the language too, where words are shown):
    for an answer made before Flask (polls.py), outside a request."""
    if not shown:
        return str(version)
    text = "\x1f".join(f"{name}={value}" for name, value in sorted(shown.items()))
    digest = hashlib.blake2b(text.encode(), digest_size=8).hexdigest()
    return f"{version}-{digest}"


def sent_back(if_none_match: str | None, etag: str) -> bool:
    """True if an If-None-Match header's value names `etag` (weak or strong), as `unchanged`
    reads it from a request: for an answer made before Flask (polls.py)."""
    return bool(if_none_match) and parse_etags(if_none_match).contains_weak(etag)


def page_etag(version: object, **shown: object) -> str:
    """The ETag of a full page: `etag_for` plus the signed-in account (the header's links)
    and the CSRF slot of its forms."""
    user = current_user.get_id() if current_user.is_authenticated else None
    everything: dict[str, Any] = {**shown, "user": user, "slot": int(time.time()) // CSRF_SLOT}
    return etag_for(version, **everything)


def unchanged(etag: str, *, page: bool = False) -> bool:
    """True if the request already has the answer named `etag` (If-None-Match; compression
    makes ETags weak, the page is the same) and, on a full `page`, no message waits."""
    if not request.if_none_match.contains_weak(etag):
        return False
    if not page:
        return True
    # A flashed message shows on the next page rendered: that page is not the one kept.
    cookie = current_app.config.get("SESSION_COOKIE_NAME", "session")
    return cookie not in request.cookies or "_flashes" not in session


def conditional(
    etag: str, render: Callable[[], ResponseReturnValue], *, page: bool = False
) -> Response:
    """304 if the request has the answer named `etag` (see `unchanged`), else `render()`'s;
    either way with the ETag and REVALIDATE."""
    response = Response(status=304) if unchanged(etag, page=page) else make_response(render())
    return tagged(response, etag)


def tagged(response: Response, etag: str) -> Response:
    """`response` with its ETag and REVALIDATE (an answer built elsewhere: a save's)."""
    response.set_etag(etag)
    response.headers["Cache-Control"] = REVALIDATE
    return response
