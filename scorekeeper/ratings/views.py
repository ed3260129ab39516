"""Ratings pages (club members only): the club's ratings, how they work, a player's rating
chart and the ratings as CSV. Views are thin: check who asks, ask the ratings service, render.
"""

from __future__ import annotations

from flask import Response, abort, make_response, render_template
from flask.typing import ResponseReturnValue

from scorekeeper.access import club_for
from scorekeeper.charts import rating as rating_chart
from scorekeeper.models import utcnow
from scorekeeper.ratings import bp
from scorekeeper.services import players as player_service
from scorekeeper.services import ratings as rating_service
from scorekeeper.web.responses import svg_response


@bp.get("/clubs/<id:club_id>/ratings")
def index(club_id: int) -> ResponseReturnValue:
    """Every rated player of the club, best first."""
    club, role = club_for(club_id)
    return render_template(
        "ratings/index.html",
        club=club,
        role=role,
        lines=rating_service.club_ratings(club),
        provisional=rating_service.PROVISIONAL_GAMES,
    )


@bp.get("/clubs/<id:club_id>/ratings/how")
def how(club_id: int) -> ResponseReturnValue:
    """How ratings work, in words."""
    club, role = club_for(club_id)
    return render_template(
        "ratings/how.html",
        club=club,
        role=role,
        provisional=rating_service.PROVISIONAL_GAMES,
        base=rating_service.BASE,
        scale=rating_service.SCALE,
    )


@bp.get("/clubs/<id:club_id>/ratings.csv")
def csv(club_id: int) -> ResponseReturnValue:
    """The club's ratings as a spreadsheet file."""
    club, _role = club_for(club_id)
    response = make_response(rating_service.ratings_csv(rating_service.club_ratings(club)))
    response.mimetype = "text/csv"
    stamp = utcnow().strftime("%Y-%m-%d")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="club-{club.id}-ratings-{stamp}.csv"'
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/clubs/<id:club_id>/players/<id:entry_id>/rating.svg")
def player_chart(club_id: int, entry_id: int) -> Response:
    """A player's rating after each game (SVG); 304 while it is unchanged."""
    club, _role = club_for(club_id)
    if entry_id not in player_service.roster_entries(club):
        abort(404)
    rated = rating_service.player_rating(club, entry_id)
    if not rated.steps:
        abort(404)
    labels = rating_chart.labels_of(rated.steps)
    return svg_response(*rating_chart.chart_svg(club, entry_id, rated.steps, labels))
