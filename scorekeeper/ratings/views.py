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
from scorekeeper.web.etags import conditional, etag_for, page_etag
from scorekeeper.web.responses import svg_response


@bp.get("/clubs/<id:club_id>/ratings")
def index(club_id: int) -> ResponseReturnValue:
    """Every rated player of the club, best first; 304 while the ratings and names are unchanged."""
    club, role = club_for(club_id)
    rated = rating_service.ratings_at(club)
    etag = page_etag(rated.mark, page="ratings", club=club.name, role=role, names=rated.names)

    def render() -> str:
        return render_template(
            "ratings/index.html",
            club=club,
            role=role,
            lines=rated.lines(),
            provisional=rating_service.PROVISIONAL_GAMES,
        )

    return conditional(etag, render, page=True)


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
        new_skill=rating_service.NEWCOMER_SKILL,
        new_doubt=rating_service.NEWCOMER_DOUBT,
    )


@bp.get("/clubs/<id:club_id>/ratings.csv")
def csv(club_id: int) -> ResponseReturnValue:
    """The club's ratings as a spreadsheet file; 304 while it is unchanged."""
    club, _role = club_for(club_id)
    rated = rating_service.ratings_at(club)
    stamp = utcnow().strftime("%Y-%m-%d")  # the file's name carries the day
    etag = etag_for(rated.mark, language=False, file="csv", names=rated.names, day=stamp)

    def render() -> Response:
        response = make_response(rating_service.ratings_csv(rated.lines()))
        response.mimetype = "text/csv"
        response.headers["Content-Disposition"] = (
            f'attachment; filename="club-{club.id}-ratings-{stamp}.csv"'
        )
        return response

    return conditional(etag, render)


@bp.get("/clubs/<id:club_id>/players/<id:entry_id>/rating.svg")
def player_chart(club_id: int, entry_id: int) -> Response:
    """A player's rating after each game (SVG); 304 while the club's ratings are unchanged."""
    club, _role = club_for(club_id)
    if entry_id not in player_service.roster_entries(club):
        abort(404)
    etag = etag_for(rating_service.mark_text(club), chart=rating_chart.shown(entry_id))

    def render() -> bytes:
        rated = rating_service.player_rating(club, entry_id)
        if not rated.steps:
            abort(404)
        labels = rating_chart.labels_of(rated.steps)
        return rating_chart.chart_svg(club, entry_id, rated.steps, labels)[0]

    return svg_response(render, etag)
