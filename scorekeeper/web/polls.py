"""Live polls answered before Flask: every phone at the table polls the game page's or the share
page's live part every few seconds with the ETag it holds, and while the game is unchanged the
answer is a 304 from one light query, with no request context, session, hooks or template.

The ETag is the views' own (`etags.etag_text`, what `etag_for` makes in `games/views/pages.py`'s
`live` and `_share_page`): the game's version, the part, the reader's access and language.
Whatever this layer cannot decide exactly as the views do goes on to Flask, which answers the
same request the same way: a reader signed in (their account's language) or with a session this
layer cannot read, a database that does not answer (the view's 503), a club game (its roles),
a phone without a valid device cookie or right to the game, a query string, a cookie with a NUL
byte, an ETag that no longer matches (the new part is rendered there)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from babel import Locale
from flask import Flask
from itsdangerous import BadSignature
from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header
from werkzeug.sansio.http import parse_cookie

from scorekeeper.extensions import db
from scorekeeper.i18n import LANGUAGE_COOKIE, locales, phone_locale
from scorekeeper.models import etag_of
from scorekeeper.services import games as game_service
from scorekeeper.web import devices
from scorekeeper.web.converters import IdConverter
from scorekeeper.web.etags import (
    REVALIDATE,
    environ_asks,
    environ_sent_back,
    etag_header,
    etag_text,
)
from scorekeeper.web.security import HEADERS_OF_304, HSTS

Wsgi = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

SHARE_LIVE = re.compile(r"/s/([A-Za-z0-9_-]{1,64})/live")
GAME_LIVE = re.compile(rf"/games/({IdConverter.regex})/live")
# What the views' answers vary with (i18n.py, compression.py), said the same way here.
VARY = "Accept-Language, Cookie, Accept-Encoding"
# Flask-Login's session key of a signed-in account.
USER_KEY = "_user_id"
# How many Accept-Language headers (with the language cookie) a process keeps the answer to.
LANGUAGES_KEPT = 256


def cookies_of(raw: str) -> dict[str, str]:
    """A Cookie header's cookies, the first of a repeated name winning (as Flask's
    request.cookies.get reads them): a plain dict, whose misses cost no exception."""
    pairs: list[tuple[str, str]] = parse_cookie(raw, cls=list)  # type: ignore[arg-type, assignment]
    cookies: dict[str, str] = {}
    for name, value in pairs:
        cookies.setdefault(name, value)
    return cookies


class Poller:
    """Decides a poll's 304 as the views would, or leaves the request to them (None)."""

    def __init__(self, app: Flask):
        self.app = app
        config = app.config
        self.session_cookie = config.get("SESSION_COOKIE_NAME", "session")
        self.remember_cookie = config.get("REMEMBER_COOKIE_NAME", "remember_token")
        self.default_locale = config.get("BABEL_DEFAULT_LOCALE", "en")
        self.max_age = int(app.permanent_session_lifetime.total_seconds())
        secure = [("Strict-Transport-Security", HSTS)] if config.get("SECURE_COOKIES") else []
        self.headers = [
            ("Cache-Control", REVALIDATE),
            ("Vary", VARY),
            *HEADERS_OF_304.items(),
            *secure,
        ]
        self.names: dict[str, str] = {}  # a language code -> its name as get_locale() writes it
        # (language cookie, Accept-Language) -> that name: a phone's header takes ~60 us to rank.
        self.languages: dict[tuple[str | None, str | None], str] = {}
        self.engine: Engine | None = None  # the app's, read once in an app context
        self.signing: tuple[Any, Any] | None = None  # (secret key, its session serializer)

    def unchanged(self, environ: dict[str, Any]) -> list[tuple[str, str]] | None:
        """The 304's headers if this poll's ETag is still the live part's, else None."""
        path = environ.get("PATH_INFO", "")
        if not path.endswith("/live") or environ.get("QUERY_STRING"):
            return None
        share, game = SHARE_LIVE.fullmatch(path), GAME_LIVE.fullmatch(path)
        raw_cookies = environ.get("HTTP_COOKIE", "")
        if (share is None and game is None) or "\x00" in raw_cookies or "\\" in raw_cookies:
            return None
        cookies = cookies_of(raw_cookies)
        if self.session_of(cookies) is None:
            return None
        device = cookies.get(devices.COOKIE, "")
        if game is not None and not devices.valid(device):
            return None  # the view would make this phone a device token first
        engine = self.app_engine()
        try:
            if share is not None:
                ref, right = game_service.game_ref(view_token=share.group(1), engine=engine)
                shown: dict[str, object] = {"part": "share-live"}
            elif game is not None:
                game_id = int(game.group(1))
                ref, right = game_service.game_ref(device=device, game_id=game_id, engine=engine)
                shown = {"part": "game", "access": right}
        except SQLAlchemyError:
            return None  # the database busy or away: the view answers it (503, logged)
        if ref is None or ref.club_id is not None or (game is not None and right is None):
            return None
        shown["language"] = self.language(cookies, environ.get("HTTP_ACCEPT_LANGUAGE"))
        etag = etag_text(etag_of(ref.id, ref.version, ref.view_token), shown)
        if not environ_sent_back(environ, etag):
            return None
        return [etag_header(etag), *self.headers]

    def app_engine(self) -> Engine:
        """The app's database engine (made once by Flask-SQLAlchemy): a poll's one query runs
        on it without an app context pushed and torn down around it."""
        if self.engine is None:
            with self.app.app_context():
                self.engine = db.engine
        return self.engine

    def session_of(self, cookies: Any) -> dict[str, Any] | None:
        """The session of a reader no account is signed in for (empty if none), or None: a
        remember-me cookie, or a session that is not ours, is permanent (Flask would send it
        again) or names an account."""
        if self.remember_cookie in cookies:
            return None
        value = cookies.get(self.session_cookie)
        if not value:
            return {}
        serializer = self._serializer()
        if serializer is None:
            return None
        try:
            data = serializer.loads(value, max_age=self.max_age)
        except BadSignature:
            return None
        if not isinstance(data, dict) or USER_KEY in data or data.get("_permanent"):
            return None
        return data

    def _serializer(self) -> Any:
        """Flask's session serializer, made once for the app's secret key (Flask makes one per
        request; a new key, as a test sets one, makes a new one)."""
        key = self.app.secret_key
        if self.signing is None or self.signing[0] != key:
            interface = self.app.session_interface
            self.signing = (key, interface.get_signing_serializer(self.app))  # type: ignore[attr-defined]
        return self.signing[1]

    def language(self, cookies: Any, accept: str | None) -> str:
        """The request's language as i18n.select_locale picks it for an anonymous reader of a
        page with no club language: the switcher's cookie, the phone's, or the default."""
        asked = (cookies.get(LANGUAGE_COOKIE), accept)
        name = self.languages.get(asked)
        if name is None:
            served = locales()
            chosen = asked[0]
            if chosen not in served:
                chosen = phone_locale(served, parse_accept_header(accept, LanguageAccept))
            code = chosen or self.default_locale
            name = self.names.get(code)
            if name is None:
                name = self.names[code] = str(Locale.parse(code))
            if len(self.languages) >= LANGUAGES_KEPT:
                self.languages.clear()  # headers are few; a flood of made-up ones starts over
            self.languages[asked] = name
        return name


def answer_polls(app: Flask, wsgi: Wsgi) -> Wsgi:
    """`wsgi` (the app's), with unchanged live polls answered 304 before it."""
    poller = Poller(app)

    def poll(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "GET" and environ_asks(environ):
            headers = poller.unchanged(environ)
            if headers is not None:
                start_response("304 NOT MODIFIED", headers)
                return []
        return wsgi(environ, start_response)

    return poll
