"""Club nights: several tables at once, their live page, and late arrivals at a table."""

from flask import Blueprint

bp = Blueprint("nights", __name__)

from scorekeeper.nights import views  # noqa: E402, F401  (routes register on bp)


@bp.app_template_global()
def night_title(night) -> str:
    """'Tuesday league · 3 Jun 2025', or the date alone for a night without a name."""
    from flask_babel import format_date

    day = format_date(night.played_on, "medium")
    return f"{night.name} · {day}" if night.name else day
