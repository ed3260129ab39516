"""Seasons: a club's seasons, their standings, chart, attendance, games and print view."""

from flask import Blueprint

bp = Blueprint("seasons", __name__)

from scorekeeper.seasons import views  # noqa: E402, F401  (routes register on bp)


@bp.app_template_global()
def season_figure(value, fixed: bool = False) -> str:
    """Points ('6', '4.5', '0.33') or, `fixed`, an average ('2.31') as the reader's language
    writes numbers; '–' for none."""
    from flask_babel import format_decimal

    if value is None:
        return "–"
    return format_decimal(round(float(value), 2), format="#,##0.00" if fixed else "#,##0.##")
