"""Static files as phones receive them: scripts without comment lines and indentation,
stylesheets without comments and needless blanks, icons kept for a day, a stylesheet asked for
by its versioned address (styles.stylesheet_url) kept for a year.

The files in static/js keep their comments for whoever reads them; a phone on a slow network
need not download them (on the heaviest page, a game in progress, they were a tenth of the
bytes). Only whole comment lines go: a `//` after code, or inside a string, stays as it is (no
script of ours has a string spanning lines), so what runs is exactly what is written.

Icons (static/img) may be kept a day without asking again (they change with a release, rarely):
a phone going from page to page need not ask for them each time. A stylesheet's address
carries a digest of the file (`?v=`): while it names the file being served, the phone may keep
the answer for a year without asking again (a release with other CSS has another address).
"""

from __future__ import annotations

import re

from flask import Flask, Response, request

from scorekeeper.web import styles

COMMENT_LINE = re.compile(r"^[ \t]*//[^\n]*\n", re.M)
INDENT = re.compile(r"^[ \t]+", re.M)
SCRIPT_TYPES = frozenset({"text/javascript", "application/javascript"})
ICON_LIFETIME = 24 * 3600  # seconds
VERSIONED_LIFETIME = 365 * 24 * 3600  # seconds


def compact(script: str) -> str:
    """`script` without its comment lines and its lines' indentation."""
    return INDENT.sub("", COMMENT_LINE.sub("", script))


def prepare_static(response: Response) -> Response:
    """An icon or a versioned stylesheet with its lifetime; a static script or stylesheet
    compacted (a 304, a range or a HEAD answer is left alone)."""
    if request.endpoint != "static":
        return response
    filename = (request.view_args or {}).get("filename", "")
    if filename.startswith("img/"):
        response.cache_control.no_cache = None  # send_file's "ask every time"
        response.cache_control.max_age = ICON_LIFETIME
        return response
    version = request.args.get("v")
    if version and version == styles.current_version(filename) and response.status_code < 400:
        response.cache_control.no_cache = None
        response.cache_control.public = True
        response.cache_control.max_age = VERSIONED_LIFETIME
        response.cache_control.immutable = True
    css = response.mimetype == "text/css"
    if (
        (response.mimetype not in SCRIPT_TYPES and not css)
        or response.status_code != 200
        or request.method == "HEAD"
    ):
        return response
    source = response.response
    response.direct_passthrough = False
    data = response.get_data(as_text=True)
    if source is not response.response and hasattr(source, "close"):
        source.close()
    response.set_data(styles.compact(data) if css else compact(data))
    return response


def init_app(app: Flask) -> None:
    """Give icons and versioned stylesheets a lifetime and compact every static script and
    stylesheet that goes out (before compression.py gzips it: Flask runs after_request hooks
    last registered first)."""
    app.after_request(prepare_static)
