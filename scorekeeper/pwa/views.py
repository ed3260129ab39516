"""Routes a phone asks for at fixed addresses: the manifest, the service worker, the favicon."""

from __future__ import annotations

from flask import Response, current_app, jsonify, send_from_directory, url_for
from flask_babel import gettext as _

from scorekeeper.pwa import bp

# The header's navy: the phone's status bar and splash screen match the page.
THEME_COLOR = "#12263f"
BACKGROUND_COLOR = "#ffffff"


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
    the browser checks it for a new version on each visit (no-cache)."""
    assert current_app.static_folder is not None  # create_app names it
    response = send_from_directory(current_app.static_folder, "js/sw.js", max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = "/"
    return response


@bp.get("/favicon.ico")
def favicon() -> Response:
    """The icon browsers ask for at the root (pages name favicon.svg; this is for the rest)."""
    assert current_app.static_folder is not None  # create_app names it
    return send_from_directory(current_app.static_folder, "img/favicon.ico", max_age=86400)
