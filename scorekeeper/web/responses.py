"""Answers several blueprints send alike: an SVG image (a chart or a QR code) and its headers,
the JSON body of a refusal (`Error`: the API's error answers and the app-wide error handlers
for JSON clients send this one model), where a "go back there" redirect may go, and a part of a
game's answers kept per version with its gzip (`kept_text`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast
from urllib.parse import urlsplit

from flask import Response, current_app
from pydantic import BaseModel, ConfigDict

from scorekeeper.services import games as game_service
from scorekeeper.services.games import Snapshot
from scorekeeper.web.compression import offer_kept
from scorekeeper.web.etags import conditional

# SVG opened on its own is a document of our origin: let it load nothing and run nothing. Charts
# and QR codes carry no CSS (charts/draw.py writes presentation attributes), so no style either.
SVG_POLICY = "default-src 'none'"
# A longer "next" path is not one of ours.
NEXT_MAX = 2000


def svg_response(svg: bytes | Callable[[], bytes], etag: str) -> Response:
    """An SVG answer that the browser revalidates every time (304 while unchanged); `svg` may
    be a function that draws it, called only when the answer is not a 304."""

    def render() -> Response:
        response = Response(svg() if callable(svg) else svg, mimetype="image/svg+xml")
        response.headers["Content-Security-Policy"] = SVG_POLICY
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response

    response = conditional(etag, render)
    response.vary.add("Accept-Language")
    return response


def safe_next(target: str | None) -> str | None:
    """`target` if it is a path on this site ("/games/3?x=1"), else None: never another host
    ("//evil.example", "https://evil.example", "/\\evil.example") or a scheme ("javascript:")."""
    if not target or len(target) > NEXT_MAX or not target.startswith("/"):
        return None
    if target.startswith("//") or "\\" in target or any(ord(c) < 32 or c == "\x7f" for c in target):
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return None
    return target


class Error(BaseModel):
    """A request that could not be served, with a message for people."""

    model_config = ConfigDict(extra="forbid")

    error: str


def json_response(answer: BaseModel, status: int = 200) -> Response:
    """A body model as a JSON answer, written by the app's JSON provider as every answer is."""
    # Flask types this as sansio's Response; it is the app's response_class.
    response = cast(Response, current_app.json.response(answer.model_dump(mode="json")))
    response.status_code = status
    return response


def json_error(message: str, status: int) -> Response:
    """A refusal as JSON: `{"error": message}` (the `Error` model)."""
    return json_response(Error(error=message), status)


def kept_text(snapshot: Snapshot, etag: str, render: Callable[[], str]) -> str:
    """A part of this version's answers as `render` makes it, kept under `etag` (its ETag:
    services' kept_part), and offered to the answer's gzip with its own deflate blocks, made
    once and kept beside it (compression.py)."""
    text = game_service.kept_part(snapshot, etag, render)
    if snapshot.kept:
        offer_kept(text, lambda make: game_service.kept_part(snapshot, f"{etag}|deflate", make))
    return text
