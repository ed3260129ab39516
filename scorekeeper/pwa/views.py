"""Routes a phone asks for at fixed addresses: the manifest, the service worker, the favicon."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from flask import Response, current_app, jsonify, send_from_directory, session, url_for
from flask_babel import gettext as _

from scorekeeper.pwa import bp
from scorekeeper.web.etags import conditional, content_etag
from scorekeeper.web.styles import FIRST, LATER, stylesheet_url

# The header's navy: the phone's status bar and splash screen match the page.
THEME_COLOR = "#12263f"
BACKGROUND_COLOR = "#ffffff"


@bp.after_request
def keep_the_session_as_it_is(response: Response) -> Response:
    """The manifest, the service worker and the icon change nothing of the visitor's, so their
    answers never set the session cookie. A phone fetches them while the page that asked for
    them may already be sending a form: a late answer carrying the session as it was (say,
    Flask-Login's first mark on a new session) would undo what the form's answer set, such as
    a sign-in."""
    session.modified = False
    return response


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """What a phone needs to install the app: its name, icons, colours and start page."""
    response = jsonify(
        {
            "name": _("Scorekeeper"),
            "short_name": _("Scorekeeper"),
            "description": _(
                "Scorekeeper keeps score for Mexican Train and the classic draw game."
            ),
            "start_url": url_for("main.index"),
            "scope": "/",
            "display": "standalone",
            "theme_color": THEME_COLOR,
            "background_color": BACKGROUND_COLOR,
            "icons": [
                _icon("icon-192.png", "192x192"),
                _icon("icon-512.png", "512x512"),
                _icon("icon-maskable-512.png", "512x512", purpose="maskable"),
                _icon("favicon.svg", "any"),
            ],
        }
    )
    response.mimetype = "application/manifest+json"
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response


def _icon(name: str, sizes: str, purpose: str = "any") -> dict[str, str]:
    return {
        "src": url_for("static", filename=f"img/{name}"),
        "sizes": sizes,
        "type": "image/png" if name.endswith(".png") else "image/svg+xml",
        "purpose": purpose,
    }


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, from the root so that it may serve every page of the app offline;
    the browser checks it for a new version on each visit (no-cache). It names the pages'
    stylesheets by their versioned addresses, and its shell cache by their versions."""
    assert current_app.static_folder is not None  # create_app names it
    script = Path(current_app.static_folder, "js", "sw.js").read_text(encoding="utf-8")
    urls = [stylesheet_url(name) for name in (*FIRST, LATER)]
    version = hashlib.sha256(" ".join(urls).encode()).hexdigest()[:12]
    script = script.replace('["/static/css/later.css"]', json.dumps(urls), 1)
    script = script.replace('"sk-shell-v4"', f'"sk-shell-v4-{version}"', 1)
    body = script.encode()
    response = conditional(
        content_etag(body),
        lambda: Response(body, mimetype="text/javascript"),
        cache_control="no-cache",
    )
    response.headers["Service-Worker-Allowed"] = "/"
    return response


@bp.get("/favicon.ico")
def favicon() -> Response:
    """The icon browsers ask for at the root (pages name favicon.svg; this is for the rest)."""
    assert current_app.static_folder is not None  # create_app names it
    return send_from_directory(current_app.static_folder, "img/favicon.ico", max_age=86400)
