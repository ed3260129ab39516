"""Answers several blueprints send alike: an SVG image (a chart or a QR code) and its headers, and
where a "go back there" redirect may go."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Response, request

# SVG opened on its own is a document of our origin: let it load nothing and run nothing.
SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'"
# A longer "next" path is not one of ours.
NEXT_MAX = 2000


def svg_response(svg: bytes, etag: str) -> Response:
    """An SVG answer that the browser revalidates every time (304 while unchanged)."""
    response = Response(svg, mimetype="image/svg+xml")
    response.set_etag(etag)
    response.headers["Cache-Control"] = "private, no-cache"
    response.headers["Content-Security-Policy"] = SVG_POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.vary.add("Accept-Language")
    return response.make_conditional(request)


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
