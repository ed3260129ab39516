"""HTTP caching, decided in one place: what an answer's ETag is made of, and the 304.

An ETag names everything the answer shows: the version of what it reads (a game's version, a
night's fingerprint) and every setting, role and language it uses. `etag_for` is the one
recipe; a view lists what its page shows (`role=..., rule=...`), and a change to any of it
changes the ETag, so a phone never keeps an old page with a 304. `conditional` answers 304 or
renders; polls.py and answers.py answer 304s before Flask with the same recipe (`etag_text`,
`environ_sent_back`, `etag_header`). Only this module names the headers, sets an ETag or reads
`If-None-Match` and `If-Match` (tests/test_layers.py checks, literals included): a file's own
bytes (`content_etag`: a chart, the service worker), a game's version (`models.etag_of`, what
`etag_for` starts from), a refusal's ETag (`tagged`), a compressed answer's weak ETag (`weaken`).

A full page (`page=True`) also shows who is signed in (the header's links), the messages
waiting for the next page, and its forms' CSRF tokens, which expire: a page is answered 304
only while none of that moved (its tokens are at most a slot old, see CSRF_SLOT).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from flask import Response, current_app, make_response, request, session
from flask.typing import ResponseReturnValue
from flask_babel import get_locale
from flask_login import current_user
from werkzeug.http import parse_etags, quote_etag, unquote_etag

# The headers, named here only: the API's contract documents them with these names.
ETAG_HEADER = "ETag"
IF_NONE_MATCH_HEADER = "If-None-Match"
IF_MATCH_HEADER = "If-Match"
# If-None-Match as a WSGI environ has it (an answer made before Flask).
IF_NONE_MATCH_ENVIRON = "HTTP_IF_NONE_MATCH"

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


def content_etag(data: bytes) -> str:
    """A strong ETag of a body's own bytes (a chart's SVG, the service worker): 12 bytes of
    blake2b, as hex."""
    return hashlib.blake2b(data, digest_size=12).hexdigest()


def sent_back(if_none_match: str | None, etag: str) -> bool:
    """True if an If-None-Match header's value names `etag` (weak or strong), as `unchanged`
    reads it from a request: for an answer made before Flask (polls.py)."""
    return bool(if_none_match) and parse_etags(if_none_match).contains_weak(etag)


def environ_asks(environ: Mapping[str, Any]) -> bool:
    """True if a request (its WSGI environ, before Flask) sent If-None-Match at all."""
    return bool(environ.get(IF_NONE_MATCH_ENVIRON))


def environ_sent_back(environ: Mapping[str, Any], etag: str) -> bool:
    """`sent_back` for a request before Flask: its If-None-Match names `etag`."""
    return sent_back(environ.get(IF_NONE_MATCH_ENVIRON), etag)


def etag_header(etag: str) -> tuple[str, str]:
    """The ETag header of an answer made before Flask (a 304 of polls.py or answers.py)."""
    return (ETAG_HEADER, quote_etag(etag))


def etag_in(headers: Iterable[tuple[str, str]]) -> str | None:
    """The ETag among an answer's headers, unquoted (a weak one too: compression makes it so,
    the entity is the same), or None."""
    for key, value in headers:
        if key.lower() == ETAG_HEADER.lower():
            return unquote_etag(value)[0]
    return None


def if_match(etag: str) -> bool | None:
    """None if the request sent no If-Match; else whether it names `etag` (weak or strong: the
    version is the same whatever the encoding). The API pins a save to it."""
    if IF_MATCH_HEADER not in request.headers:
        return None
    return request.if_match.contains_weak(etag)


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
    etag: str,
    render: Callable[[], ResponseReturnValue],
    *,
    page: bool = False,
    cache_control: str = REVALIDATE,
) -> Response:
    """304 if the request has the answer named `etag` (see `unchanged`), else `render()`'s;
    either way with the ETag and `cache_control` (REVALIDATE unless said)."""
    response = Response(status=304) if unchanged(etag, page=page) else make_response(render())
    return tagged(response, etag, cache_control=cache_control)


def tagged(response: Response, etag: str, *, cache_control: str = REVALIDATE) -> Response:
    """`response` with its ETag and REVALIDATE (an answer built elsewhere: a save's, a
    refusal's that carries the game as it is now)."""
    response.set_etag(etag)
    response.headers["Cache-Control"] = cache_control
    return response


def weaken(response: Response) -> None:
    """Make a strong ETag weak: the answer was compressed (the same entity in another
    encoding, still named by its ETag for If-None-Match and If-Match)."""
    etag, weak = response.get_etag()
    if etag and not weak:
        response.set_etag(etag, weak=True)
