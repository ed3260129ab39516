"""Answers several blueprints send alike: an SVG image (a chart or a QR code) and its headers."""

from __future__ import annotations

from flask import Response, request

# SVG opened on its own is a document of our origin: let it load nothing and run nothing.
SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'"


def svg_response(svg: bytes, etag: str) -> Response:
    """An SVG answer that the browser revalidates every time (304 while unchanged)."""
    response = Response(svg, mimetype="image/svg+xml")
    response.set_etag(etag)
    response.headers["Cache-Control"] = "private, no-cache"
    response.headers["Content-Security-Policy"] = SVG_POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.vary.add("Accept-Language")
    return response.make_conditional(request)
