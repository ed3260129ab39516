"""Gzip for text answers: pages, CSS, JS, JSON and SVG above a few hundred bytes.

A small after_request hook rather than Flask-Compress: the app needs gzip only (every phone
browser accepts it), no cache of compressed bytes (a static file of 20 KB gzips in well under a
millisecond) and must keep ETags working for the 304 polling, which it does by making the
validator weak (the same entity, another encoding: RFC 9110 8.8.1).
"""

from __future__ import annotations

import gzip

from flask import Flask, Response, request

# Below this a gzip header and a second packet cost more than they save.
MIN_SIZE = 500
TEXT_TYPES = frozenset(
    {
        "text/html",
        "text/css",
        "text/plain",
        "text/csv",
        "text/javascript",
        "application/javascript",
        "application/json",
        "application/manifest+json",
        "application/problem+json",
        "image/svg+xml",
    }
)
# Level 6 (zlib's default) gets within a few percent of 9 at a third of the time.
LEVEL = 6


def accepts_gzip() -> bool:
    """The client takes gzip (a q=0 refuses it)."""
    return request.accept_encodings["gzip"] > 0 or request.accept_encodings["*"] > 0


def compress(response: Response) -> Response:
    """Gzip a text answer the client accepts; say that answers vary with Accept-Encoding."""
    if response.mimetype not in TEXT_TYPES:
        return response
    response.vary.add("Accept-Encoding")
    if (
        response.status_code != 200
        or "Content-Encoding" in response.headers
        or request.method == "HEAD"
        or not accepts_gzip()
    ):
        return response
    if response.is_streamed and not response.direct_passthrough:
        return response  # a generator: its size is unknown and it may be long
    # Static files come as a file wrapper (direct passthrough): read them, then close the file.
    source = response.response
    response.direct_passthrough = False
    data = response.get_data()
    if source is not response.response and hasattr(source, "close"):
        source.close()
    if len(data) < MIN_SIZE:
        return response
    response.set_data(gzip.compress(data, LEVEL, mtime=0))
    response.headers["Content-Encoding"] = "gzip"
    etag, weak = response.get_etag()
    if etag and not weak:
        response.set_etag(etag, weak=True)
    return response


def init_app(app: Flask) -> None:
    """Compress every text answer that goes out."""
    app.after_request(compress)
