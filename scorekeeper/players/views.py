"""Player pages (club members only): a roster entry's record and chart, head-to-head between
two entries, and the club's head-to-head matrix.

Views are thin: check who asks (access), ask the players service, render. A merged entry's
address redirects to the entry it was merged into.
"""

from __future__ import annotations

from datetime import date

from babel.dates import format_skeleton
from flask import abort, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import get_locale

from scorekeeper.access import club_for
from scorekeeper.charts import player as player_chart
from scorekeeper.charts import rating as rating_chart
from scorekeeper.models import RosterPlayer
from scorekeeper.players import bp
from scorekeeper.players.forms import OpponentForm
from scorekeeper.services import players as player_service
from scorekeeper.services import ratings as rating_service
from scorekeeper.web.responses import svg_response

# Entries merged into another point one step on (the merge service keeps it so); a few hops
# are followed in case older data still chains.
MAX_HOPS = 5


def _entry(
    entries: dict[int, RosterPlayer], entry_id: int
) -> tuple[RosterPlayer | None, RosterPlayer]:
    """(the entry asked for if it was merged, else None; the entry to show), or 404."""
    entry = entries.get(entry_id)
    if entry is None:
        abort(404)
    asked = entry
    for _hop in range(MAX_HOPS):
        if entry.merged_into_id is None:
            break
        entry = entries.get(entry.merged_into_id) or abort(404)
    return (asked if asked is not entry else None), entry


def month_labels(points: list[player_service.MonthPoint]) -> list[str]:
    """'Mar 2025', in the reader's language."""
    locale = get_locale() or "en"
    return [format_skeleton("yMMM", date(p.year, p.month, 1), locale=locale) for p in points]


@bp.get("/clubs/<id:club_id>/players/<id:entry_id>")
def detail(club_id: int, entry_id: int) -> ResponseReturnValue:
    """A roster entry's page: record, best and worst game, last games, chart, opponent form."""
    club, role = club_for(club_id)
    entries = player_service.roster_entries(club)
    merged, entry = _entry(entries, entry_id)
    if merged is not None:
        return redirect(url_for("players.detail", club_id=club.id, entry_id=entry.id))
    names = {e.id: e.display_name for e in entries.values()}
    record = player_service.player_record(club, entry.id, names)
    points = player_service.monthly_averages(club, entry.id)
    labels = month_labels(points)
    form = OpponentForm(formdata=None)
    form.set_choices(player_service.opponents(entries, entry.id))
    rated = rating_service.player_rating(club, entry.id, entries)
    rating_key = (
        rating_chart.chart_key(rated.steps, rating_chart.labels_of(rated.steps))
        if rated.steps
        else None
    )
    return render_template(
        "players/detail.html",
        rated=rated,
        rating_key=rating_key,
        club=club,
        role=role,
        entry=entry,
        record=record,
        points=list(zip(labels, points, strict=True)),
        chart_key=player_chart.chart_key(points, labels) if points else None,
        form=form,
    )


@bp.get("/clubs/<id:club_id>/players/<id:entry_id>/chart.svg")
def chart(club_id: int, entry_id: int) -> ResponseReturnValue:
    """The player's average per round by month (SVG); 304 while their games are unchanged."""
    club, _role = club_for(club_id)
    entries = player_service.roster_entries(club)
    merged, entry = _entry(entries, entry_id)
    if merged is not None:
        return redirect(url_for("players.chart", club_id=club.id, entry_id=entry.id))
    points = player_service.monthly_averages(club, entry.id)
    if not points:
        abort(404)
    return svg_response(*player_chart.chart_svg(club, entry.id, points, month_labels(points)))


@bp.get("/clubs/<id:club_id>/players/<id:entry_id>/vs")
def pick_opponent(club_id: int, entry_id: int) -> ResponseReturnValue:
    """The opponent form's target (GET): on to the head-to-head page, or back with the error."""
    club, role = club_for(club_id)
    entries = player_service.roster_entries(club)
    _merged, entry = _entry(entries, entry_id)
    form = OpponentForm(formdata=request.args)
    form.set_choices(player_service.opponents(entries, entry.id))
    if form.validate():
        return redirect(
            url_for("players.versus", club_id=club.id, a=entry.id, b=form.opponent.data)
        )
    return redirect(url_for("players.detail", club_id=club.id, entry_id=entry.id) + "#compare")


@bp.get("/clubs/<id:club_id>/players/<id:a>/vs/<id:b>")
def versus(club_id: int, a: int, b: int) -> ResponseReturnValue:
    """Two roster entries over the games they both played."""
    club, role = club_for(club_id)
    entries = player_service.roster_entries(club)
    merged_a, entry_a = _entry(entries, a)
    merged_b, entry_b = _entry(entries, b)
    if entry_a.id == entry_b.id:
        return redirect(url_for("players.detail", club_id=club.id, entry_id=entry_a.id))
    if merged_a is not None or merged_b is not None:
        return redirect(url_for("players.versus", club_id=club.id, a=entry_a.id, b=entry_b.id))
    form = OpponentForm(formdata=None, opponent=entry_b.id)
    form.set_choices(player_service.opponents(entries, entry_a.id))
    return render_template(
        "players/versus.html",
        club=club,
        role=role,
        a=entry_a,
        b=entry_b,
        h2h=player_service.head_to_head(club, entry_a.id, entry_b.id),
        form=form,
    )


@bp.get("/clubs/<id:club_id>/head-to-head")
def matrix(club_id: int) -> ResponseReturnValue:
    """The club's head-to-head table: each active player against each other, wins-losses."""
    club, role = club_for(club_id)
    entries = player_service.roster_entries(club)
    return render_template(
        "players/matrix.html",
        club=club,
        role=role,
        matrix=player_service.head_to_head_matrix(club, entries),
    )
