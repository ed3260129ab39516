"""Read answers kept whole and answered before Flask: a game's page, its share page, its charts
and the API's JSON of it, once rendered for one version of the game, are the same bytes for
every later request that names the same things, so they are kept per process and sent again
with no request context, session, hooks or template.

An answer's name says everything it shows, worked out from the request and one light query
(the game's version and this phone's right, as the polls in polls.py): the route and its
arguments, the game's version and key (models.etag_of: another game with its id misses), the
reader's access and language, this phone (a scorer's history says "this phone"), whether the
share page offers "keep this game", the CSRF slot and the session's own CSRF token (a form's
token is signed once per slot: etags.py's CSRF_SLOT), the address the page was asked at
(absolute links), and whether the answer is gzipped. A request this layer
cannot name exactly as the views would answer it goes on to Flask, as polls.py leaves its own:
a signed-in reader, a session it cannot read, a club game, a phone without a right, a query
string (but the version a page puts in a chart's address, which the view ignores). A request
with If-None-Match naming the kept answer's ETag (a browser asking again for a chart or a page
it holds) is answered 304 with the headers the views' 304 carries (polls.py's); the live
parts' polls are polls.py's.

Flask's answer to a named request is kept when it is a 200 that sets no cookie (a session
changed, a message shown, a new phone, a new CSRF token: each of those is the first answer
only) and the game did not move while it was made (the name, worked out again after, is the
same). Round sheets carry a fresh write key per view (forms.new_write_key): each is a slot,
filled with a new key on every replay; a gzipped answer is kept as deflate blocks standing
alone (compression.segment), the new keys go in between as stored blocks.

Answers are kept beside the parts they are made of (services/games/snapshot.py: `kept_answer`,
the same LRU as the version's rendered parts, so no new cache site), so a repeat view costs the
query and a copy; old versions are never asked for again and fall out first.
"""

from __future__ import annotations

import gzip
import re
import struct
import time
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from flask import Flask
from sqlalchemy.exc import SQLAlchemyError

from scorekeeper.forms import WRITE_KEYS, new_write_key
from scorekeeper.models import etag_of
from scorekeeper.services import games as game_service
from scorekeeper.services.accounts import looks_personal
from scorekeeper.web import devices
from scorekeeper.web.compression import GZIP_HEADER, segment
from scorekeeper.web.converters import IdConverter
from scorekeeper.web.etags import CSRF_SLOT, environ_sent_back, etag_header, etag_in, etag_text
from scorekeeper.web.polls import Poller, cookies_of

Wsgi = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

_ID = IdConverter.regex
_TOKEN = r"[A-Za-z0-9_-]{1,64}"
# route name -> the paths it answers (each argument a group)
ROUTES = {
    "game": re.compile(rf"/games/({_ID})"),
    "share": re.compile(rf"/s/({_TOKEN})"),
    "game-chart": re.compile(rf"/games/({_ID})/chart/(race|rounds)\.svg"),
    "share-chart": re.compile(rf"/s/({_TOKEN})/chart/(race|rounds)\.svg"),
    "api-game": re.compile(rf"/api/v1/games/({_ID})"),
}
# A chart's address in a page carries its version (?v=14) so that a browser asks again after a
# round; the chart view reads nothing of it.
CACHE_BUSTER = re.compile(r"v=[0-9]{1,10}")
# The API's bearer token, as api/views/common.py reads it.
BEARER = re.compile(r"[Bb][Ee][Aa][Rr][Ee][Rr] +([A-Za-z0-9._~+/-]{1,200}=*)")
# What the address of a page is made of (absolute links, the share link's QR code), before and
# after a trusted proxy's headers (security.py's ProxyFix runs inside this layer).
ADDRESS = (
    "wsgi.url_scheme",
    "HTTP_HOST",
    "SERVER_NAME",
    "SERVER_PORT",
    "SCRIPT_NAME",
    "HTTP_X_FORWARDED_PROTO",
    "HTTP_X_FORWARDED_HOST",
    "HTTP_X_FORWARDED_PORT",
    "HTTP_X_FORWARDED_PREFIX",
)
# The final empty block of a deflate stream (fixed Huffman, end of block).
FINAL_BLOCK = b"\x03\x00"
# Flask's session key of the messages waiting for the next page.
FLASHES = "_flashes"
# Headers worked out again for each answer (by this layer or by gunicorn).
PER_ANSWER = frozenset({"content-length", "date", "set-cookie"})


@dataclass(frozen=True)
class Kept:
    """An answer's status and headers and its text between the write keys it carried: `texts`
    (one more than the slots), `slots` (which of the answer's keys each slot held: one new key
    each per replay) and, gzipped, each text as deflate blocks standing alone (`blocks`)."""

    status: str
    headers: tuple[tuple[str, str], ...]
    texts: tuple[bytes, ...]
    slots: tuple[int, ...]
    blocks: tuple[bytes, ...] | None
    # The answer's bytes as sent when it has no slot (the same every time).
    whole: bytes

    @property
    def etag(self) -> str | None:
        """The answer's ETag, unquoted (compression makes it weak: the same entity)."""
        return etag_in(self.headers)

    def body(self) -> bytes:
        """The answer's bytes, with new write keys in its slots."""
        if not self.slots:
            return self.whole
        keys = [new_write_key().encode() for _key in range(max(self.slots) + 1)]
        if self.blocks is None:
            pieces = [self.texts[0]]
            for slot, text in zip(self.slots, self.texts[1:], strict=True):
                pieces += [keys[slot], text]
            return b"".join(pieces)
        crc = zlib.crc32(self.texts[0])
        length = len(self.texts[0])
        pieces = [GZIP_HEADER, self.blocks[0]]
        for slot, text, blocks in zip(self.slots, self.texts[1:], self.blocks[1:], strict=True):
            key = keys[slot]
            # A stored block (no compression, byte-aligned) joins blocks standing alone.
            pieces += [b"\x00", struct.pack("<HH", len(key), len(key) ^ 0xFFFF), key, blocks]
            crc = zlib.crc32(text, zlib.crc32(key, crc))
            length += len(key) + len(text)
        pieces += [FINAL_BLOCK, struct.pack("<II", crc, length & 0xFFFFFFFF)]
        return b"".join(pieces)


def kept_from(
    status: str, headers: list[tuple[str, str]], body: bytes, write_keys: list[str]
) -> Kept | None:
    """What to keep of Flask's answer; None if it is encoded in a way this cannot replay."""
    kept_headers = tuple((k, v) for k, v in headers if k.lower() not in PER_ANSWER)
    encoding = next((v for k, v in headers if k.lower() == "content-encoding"), None)
    if encoding not in (None, "gzip"):
        return None
    keys = [key.encode() for key in dict.fromkeys(write_keys)]
    if not keys:
        return Kept(status, kept_headers, (body,), (), None, body)
    text = gzip.decompress(body) if encoding else body
    pattern = re.compile(b"|".join(re.escape(key) for key in keys))
    texts, slots, position = [], [], 0
    for found in pattern.finditer(text):
        texts.append(text[position : found.start()])
        slots.append(keys.index(found.group()))
        position = found.end()
    texts.append(text[position:])
    blocks = tuple(segment(piece) for piece in texts) if encoding else None
    return Kept(status, kept_headers, tuple(texts), tuple(slots), blocks, body)


class Answers:
    """Names requests as the views would answer them (no app context needed: the one light
    read runs on the app's engine, as the polls' does)."""

    def __init__(self, app: Flask):
        self.app = app
        self.poller = Poller(app)
        self.csrf_field = app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")

    def name(self, environ: dict[str, Any]) -> str | None:
        """Everything the answer to this request shows, as one string; None: Flask answers."""
        if environ.get("REQUEST_METHOD") != "GET":
            return None
        path = environ.get("PATH_INFO", "")
        route, found = next(
            ((route, hit) for route, pattern in ROUTES.items() if (hit := pattern.fullmatch(path))),
            ("", None),
        )
        if found is None:
            return None
        query = environ.get("QUERY_STRING")
        if query and not (route.endswith("chart") and CACHE_BUSTER.fullmatch(query)):
            return None  # what a query asks (a print page's ?lang=) is the views' to read
        gzipped = "gzip" in environ.get("HTTP_ACCEPT_ENCODING", "")
        if route == "api-game":
            return self._api_name(environ, int(found.group(1)), gzipped)
        raw_cookies = environ.get("HTTP_COOKIE", "")
        if "\x00" in raw_cookies or "\\" in raw_cookies:
            return None
        cookies = cookies_of(raw_cookies)
        session = self.poller.session_of(cookies)
        if session is None or FLASHES in session:
            return None  # signed in, a session this layer cannot read, or a message waiting
        device = cookies.get(devices.COOKIE, "")
        if not devices.valid(device):
            if route.startswith("game"):
                return None  # the view makes this phone a device token first
            device = ""
        engine = self.poller.app_engine()
        try:
            if route.startswith("game"):
                game_id = int(found.group(1))
                ref, right = game_service.game_ref(device=device, game_id=game_id, engine=engine)
            else:
                token = found.group(1)
                ref, right = game_service.game_ref(view_token=token, device=device, engine=engine)
        except SQLAlchemyError:
            return None
        if ref is None or ref.club_id is not None or (route.startswith("game") and right is None):
            return None
        shown: dict[str, object] = {
            "route": route,
            "arguments": found.groups(),
            "language": self.poller.language(cookies, environ.get("HTTP_ACCEPT_LANGUAGE")),
            "gzip": gzipped,
            "address": tuple(environ.get(name) for name in ADDRESS),
        }
        if route == "game":
            shown |= {"access": right, "device": device}
        elif route == "share":
            shown["offer_keep"] = right is None
        if not route.endswith("chart"):
            # A page's forms: its CSRF token, signed from the session's once per slot.
            shown |= {"slot": int(time.time()) // CSRF_SLOT, "csrf": session.get(self.csrf_field)}
        return etag_text(etag_of(ref.id, ref.version, ref.view_token), shown)

    def _api_name(self, environ: dict[str, Any], game_id: int, gzipped: bool) -> str | None:
        """The API's GET of a game with one of its own tokens (its JSON has no words)."""
        found = BEARER.fullmatch(environ.get("HTTP_AUTHORIZATION", "").strip())
        if found is None:
            return None
        token = found.group(1)
        try:
            keys = game_service.game_keys(game_id, self.poller.app_engine())
        except SQLAlchemyError:
            return None
        if keys is None or keys.club_id is not None:
            return None
        if looks_personal(token) or not game_service.opens(token, keys, edit=False):
            return None
        if game_service.opens(token, keys, edit=True):
            return None  # a scorer's answer lists the hands sent, which move without a version
        shown = {"route": "api-game", "gzip": gzipped}
        return etag_text(etag_of(keys.id, keys.version, keys.view_token), shown)


def answer_kept(app: Flask, wsgi: Wsgi) -> Wsgi:
    """`wsgi` (the app's), with the read answers it made once sent again before it."""
    answers = Answers(app)
    unchanged = answers.poller.headers  # a 304's headers but its ETag, as the views send them

    def serve(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        name = answers.name(environ)
        kept = None if name is None else game_service.kept_answer(name, app)
        if name is None:
            return wsgi(environ, start_response)
        if kept is not None:
            etag = kept.etag
            if etag and environ_sent_back(environ, etag):
                start_response("304 NOT MODIFIED", [etag_header(etag), *unchanged])
                return []
            body = kept.body()
            start_response(kept.status, [*kept.headers, ("Content-Length", str(len(body)))])
            return [body]
        asked = dict(environ)  # as asked: a trusted proxy's headers are applied inside
        environ[WRITE_KEYS] = []
        answered: dict[str, Any] = {}

        def capture(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            answered["status"], answered["headers"] = status, headers
            return start_response(status, headers, exc_info)

        answer = wsgi(environ, capture)
        status, headers = answered.get("status", ""), answered.get("headers", [])
        if not status.startswith("200 ") or any(k.lower() == "set-cookie" for k, _v in headers):
            return answer
        try:
            data = b"".join(answer)
        finally:
            close = getattr(answer, "close", None)
            if close is not None:
                close()
        # Kept only if the game did not move while the answer was made (versions only grow).
        with app.app_context():
            if answers.name(asked) == name:
                made = kept_from(status, headers, data, environ[WRITE_KEYS])
                if made is not None:
                    game_service.keep_answer(name, made)
        return [data]

    return serve
