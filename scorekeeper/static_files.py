"""Static files as phones receive them: scripts without comment lines and indentation, icons
kept for a day.

The files in static/js keep their comments for whoever reads them; a phone on a slow network
need not download them (on the heaviest page, a game in progress, they were a tenth of the
bytes). Only whole comment lines go: a `//` after code, or inside a string, stays as it is (no
script of ours has a string spanning lines), so what runs is exactly what is written.

Icons (static/img) may be kept a day without asking again (they change with a release, rarely):
a phone going from page to page need not ask for them each time.
"""

from __future__ import annotations

import re

from flask import Flask, Response, request

COMMENT_LINE = re.compile(r"^[ \t]*//[^\n]*\n", re.M)
INDENT = re.compile(r"^[ \t]+", re.M)
SCRIPT_TYPES = frozenset({"text/javascript", "application/javascript"})
ICON_LIFETIME = 24 * 3600  # seconds


def compact(script: str) -> str:
    """`script` without its comment lines and its lines' indentation."""
    return INDENT.sub("", COMMENT_LINE.sub("", script))


def prepare_static(response: Response) -> Response:
    """An icon with its lifetime; a static script compacted (a 304, a range or a HEAD answer
    is left alone)."""
    if request.endpoint == "static" and (request.view_args or {}).get("filename", "").startswith(
        "img/"
    ):
        response.cache_control.no_cache = None  # send_file's "ask every time"
        response.cache_control.max_age = ICON_LIFETIME
        return response
    if (
        request.endpoint != "static"
        or response.mimetype not in SCRIPT_TYPES
        or response.status_code != 200
        or request.method == "HEAD"
    ):
        return response
    source = response.response
    response.direct_passthrough = False
    data = response.get_data(as_text=True)
    if source is not response.response and hasattr(source, "close"):
        source.close()
    response.set_data(compact(data))
    return response


def init_app(app: Flask) -> None:
    """Give icons a lifetime and compact every static script that goes out (before
    compression.py gzips it: Flask runs after_request hooks last registered first)."""
    app.after_request(prepare_static)
