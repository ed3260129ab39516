"""Gzip for text answers: pages, CSS, JS, JSON and SVG above a few hundred bytes.

A small after_request hook rather than Flask-Compress: the app needs gzip only (every phone
browser accepts it), no store of compressed answers (a static file of 20 KB gzips in well under a
millisecond) and must keep ETags working for the 304 polling, which it does by making the
validator weak (the same entity, another encoding: RFC 9110 8.8.1).

A page opens with the same bytes on every page of a language, up to and including its inline
stylesheets (its first screen's CSS, ~9-17 KB: styles.py): that opening is gzipped once per
process and each page's compression goes on from a copy of the compressor's state after it
(`zlib.Compress.copy`), so a page pays only for its own part (a finished game's page: 1.8 ms ->
0.7 ms, when the opening was ~27 KB). The openings are few (languages x stylesheet sets): at
most HEADS are kept.

A part of a page kept per version (games/parts.py: a round sheet's eight tile pickers are most
of a game page's bytes) is compressed once too, as deflate blocks that refer to nothing before
their start and end on a byte boundary (`segment`): a page carrying it is compressed up to the
part, the part's blocks are copied in, and the rest is compressed by a fresh compressor
(deflate streams may be joined so; pigz does the same). The view offers its parts
(`offer_part`); a part not found in the answer as offered is compressed as usual.
"""

from __future__ import annotations

import gzip
import struct
import zlib
from collections.abc import Callable
from typing import Any

from flask import Flask, Response, g, request

from scorekeeper.web.etags import weaken

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
# A page's opening ends with its inline stylesheets, all within the first bytes of the page.
STYLE_END = b"</style>"
HEAD_REACH = 200_000
# Openings kept: each language's pages with each set of stylesheets (4 x 6 today).
HEADS = 64
# zlib's window bits for a gzip stream (header and trailer), as gzip.compress writes; a raw
# deflate stream (a kept part's blocks).
GZIP_BITS = 31
RAW_BITS = -15
# A gzip member's header (no name, no time; "unknown" system), before raw deflate blocks.
GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
# A part is looked for by its first bytes, then compared whole.
PROBE = 64
# A kept part's text and its own deflate blocks (`segment`), got when the page is compressed.
Part = tuple[bytes, bytes]
# opening bytes -> (its gzip stream so far, the compressor's state after it)
_openings: dict[bytes, tuple[bytes, Any]] = {}


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
    ):
        return response
    # A short answer (a health check, a small JSON) stays as it is: no need to read the
    # request's Accept-Encoding for it.
    if not response.direct_passthrough and not response.is_streamed:
        if len(response.get_data()) < MIN_SIZE:
            return response
    if not accepts_gzip():
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
    response.set_data(gzipped(data, [part() for part in g.get("compressed_parts", ())]))
    response.headers["Content-Encoding"] = "gzip"
    weaken(response)
    return response


def gzipped(data: bytes, parts: list[Part] | None = None) -> bytes:
    """`data` as one gzip stream; a page's opening (its head up to its stylesheets) is
    compressed once and the rest goes on from there, copying in the blocks of the kept `parts`
    it carries (an answer that is a kept part, a poll's or the API's, is its blocks)."""
    cut = opening_length(data)
    if not cut:
        spliced = _spliced(data, 0, parts or [])
        if not spliced:
            return gzip.compress(data, LEVEL, mtime=0)
        raw = zlib.compressobj(LEVEL, zlib.DEFLATED, RAW_BITS)
        return _joined(data, 0, GZIP_HEADER, raw, spliced)
    opening = data[:cut]
    found = _openings.get(opening)
    if found is None:
        if len(_openings) >= HEADS:
            return gzip.compress(data, LEVEL, mtime=0)
        compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, GZIP_BITS)
        found = _openings[opening] = (compressor.compress(opening), compressor)
    start, compressor = found
    rest = compressor.copy()
    spliced = _spliced(data, cut, parts or [])
    if not spliced:
        return start + rest.compress(data[cut:]) + rest.flush()
    return _joined(data, cut, start, rest, spliced)


def _joined(
    data: bytes, cut: int, start: bytes, rest: Any, spliced: list[tuple[int, bytes, bytes]]
) -> bytes:
    """`data` as one gzip stream: `start` (the header and the opening, if any) and `rest`'s
    compression up to each spliced part, the part's blocks, then a fresh raw compressor."""
    # The trailer (CRC and length of the whole) is written here: `rest` never finishes a
    # gzip member of its own.
    pieces = [start]
    position = cut
    for at, text, blocks in spliced:
        pieces += [rest.compress(data[position:at]), rest.flush(zlib.Z_SYNC_FLUSH), blocks]
        rest = zlib.compressobj(LEVEL, zlib.DEFLATED, RAW_BITS)
        position = at + len(text)
    pieces += [rest.compress(data[position:]), rest.flush()]
    pieces.append(struct.pack("<II", zlib.crc32(data), len(data) & 0xFFFFFFFF))
    return b"".join(pieces)


def segment(text: bytes) -> bytes:
    """`text` as raw deflate blocks that stand alone: no reference before their start, no
    final block, ending on a byte boundary (a kept part, compressed once)."""
    compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, RAW_BITS)
    return compressor.compress(text) + compressor.flush(zlib.Z_SYNC_FLUSH)


def offer_part(part: Callable[[], Part]) -> None:
    """Offer this answer's compression a kept part (its text and `segment`, got only if the
    answer is gzipped)."""
    g.setdefault("compressed_parts", []).append(part)


def offer_kept(text: str, keep: Callable[[Callable[[], Part]], Part]) -> str:
    """Offer the kept part `text` to this answer's gzip with its own blocks, made once and
    kept where `keep` keeps what it is given to make (beside the part, under its ETag)."""

    def blocks() -> Part:
        data = text.encode()
        return data, segment(data)

    offer_part(lambda: keep(blocks))
    return text


def _spliced(data: bytes, start: int, parts: list[Part]) -> list[tuple[int, bytes, bytes]]:
    """Where each part is in `data` after `start`, in order (a part not found is left out)."""
    found = []
    position = start
    for text, blocks in sorted(parts, key=lambda part: data.find(part[0][:PROBE], start)):
        at = data.find(text[:PROBE], position)
        while at >= 0 and not data.startswith(text, at):
            at = data.find(text[:PROBE], at + 1)
        if at >= 0 and len(text) >= PROBE:
            found.append((at, text, blocks))
            position = at + len(text)
    return found


def opening_length(data: bytes) -> int:
    """The length of a page's opening: up to the end of the last of its first run of inline
    <style> elements (0: no inline style near the start)."""
    end = data.find(STYLE_END, 0, HEAD_REACH)
    if end < 0:
        return 0
    end += len(STYLE_END)
    while data.startswith(b"<style>", end):
        following = data.find(STYLE_END, end, HEAD_REACH)
        if following < 0:
            return 0
        end = following + len(STYLE_END)
    return end


def init_app(app: Flask) -> None:
    """Compress every text answer that goes out."""
    app.after_request(compress)
