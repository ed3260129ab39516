"""Views for the home page (what the app is, this device's games) and the health check."""

from flask import Blueprint, render_template

bp = Blueprint("main", __name__)


@bp.get("/")
def index() -> str:
    """Say what the app does, and list the games this phone created or opened (newest first)."""
    from scorekeeper.devices import current_device
    from scorekeeper.services.games import games_of_device

    return render_template("main/index.html", games=games_of_device(current_device()))


@bp.get("/healthz")
def healthz() -> tuple[str, int, dict[str, str]]:
    """Answer load balancers and uptime checks without touching the database."""
    return "ok", 200, {"Content-Type": "text/plain; charset=utf-8"}
