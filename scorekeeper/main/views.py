"""Views for the landing page and the health check."""

from flask import Blueprint, render_template

bp = Blueprint("main", __name__)


@bp.get("/")
def index() -> str:
    """Show what the app does and where to start."""
    return render_template("main/index.html")


@bp.get("/healthz")
def healthz() -> tuple[str, int, dict[str, str]]:
    """Answer load balancers and uptime checks without touching the database."""
    return "ok", 200, {"Content-Type": "text/plain; charset=utf-8"}
