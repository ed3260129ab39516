"""Views for the home page (what the app is, this device's games), the language switcher and the
health check."""

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from scorekeeper.i18n import locales, remember_language
from scorekeeper.web.responses import safe_next

bp = Blueprint("main", __name__)


@bp.get("/")
def index() -> str:
    """Say what the app does, and list the games this phone created or opened (newest first)."""
    from scorekeeper.services.games import games_of_device
    from scorekeeper.web.devices import current_device

    return render_template("main/index.html", games=games_of_device(current_device()))


@bp.get("/language/<code>")
def language(code: str) -> ResponseReturnValue:
    """Serve this browser in language `code` from now on, then go back to the page it came from
    (`next`, a path on this site). Only a cookie is written: no account, no database."""
    if code not in locales():
        abort(404)
    back = safe_next(request.args.get("next")) or url_for("main.index")
    return remember_language(redirect(back, 303), code)


@bp.get("/healthz")
def healthz() -> tuple[str, int, dict[str, str]]:
    """Answer load balancers and uptime checks without touching the database."""
    return "ok", 200, {"Content-Type": "text/plain; charset=utf-8"}
