"""Season pages: a club's seasons, a new or changed season, the season page (standings, chart,
the season's story, attendance, games), each player's race chart, moving a game, and the print
view.

Views are thin: check who asks (access), read the form, call one service, flash, redirect.
"""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper.access import club_for, may_score, signed_in_user
from scorekeeper.charts import season as season_chart
from scorekeeper.i18n import prefer_locale, problem_text
from scorekeeper.models import Club, Season, utcnow
from scorekeeper.seasons import bp
from scorekeeper.seasons.forms import MoveGameForm, SeasonForm
from scorekeeper.services import removals, season_standings, season_story
from scorekeeper.services import seasons as season_service
from scorekeeper.services.seasons import SeasonError
from scorekeeper.web.responses import svg_response


def _season_or_404(club: Club, season_id: int) -> Season:
    season = season_service.club_season(club, season_id)
    if season is None:
        abort(404)
    return season


def _put_problems(form: SeasonForm, error: SeasonError) -> list[str]:
    """Show each problem next to its field; return those that belong to no field."""
    general: list[str] = []
    for problem in error.problems:
        if problem.field and problem.field in form:
            form[problem.field].errors = [*form[problem.field].errors, problem_text(problem)]
        else:
            general.append(problem_text(problem))
    return general


def _save(form: SeasonForm, save) -> tuple[season_service.Saved | None, list[str], int]:
    """Validate the form and call `save(input)`; (saved or None, general problems, status)."""
    if not form.validate_on_submit():
        expired = "csrf_token" in form.errors
        general = [_("The form expired: please save again.")] if expired else []
        return None, general, 400 if form.is_submitted() else 200
    typed = form.typed_number_errors()
    if typed:
        for name, message in typed.items():
            form[name].errors = [*form[name].errors, message]
        return None, [], 422
    try:
        return save(form.season_input()), [], 200
    except SeasonError as error:
        return None, _put_problems(form, error), 422


def _flash_filed(saved: season_service.Saved) -> None:
    if saved.filed:
        flash(
            ngettext(
                "%(num)s game played in these dates was filed under the season.",
                "%(num)s games played in these dates were filed under the season.",
                saved.filed,
            ),
            "info",
        )
    if saved.left:
        flash(
            ngettext(
                "%(num)s game played outside the new dates left the season.",
                "%(num)s games played outside the new dates left the season.",
                saved.left,
            ),
            "info",
        )


@bp.get("/clubs/<id:club_id>/seasons")
def index(club_id: int) -> ResponseReturnValue:
    """The club's seasons, the latest-starting first."""
    club, role = club_for(club_id)
    return render_template(
        "seasons/index.html",
        club=club,
        role=role,
        seasons=season_service.seasons_of(club),
        today=utcnow().date(),
    )


@bp.route("/clubs/<id:club_id>/seasons/new", methods=["GET", "POST"])
def new(club_id: int) -> ResponseReturnValue:
    """Set up a season (scorers and the owner)."""
    club, role = club_for(club_id, "scorer", next_url=url_for("seasons.new", club_id=club_id))
    form = SeasonForm(data={"starts_on": utcnow().date()})
    saved, general, status = _save(form, lambda data: season_service.create_season(club, data))
    if saved is not None:
        flash(_("The season %(name)s is set up.", name=saved.season.name), "success")
        _flash_filed(saved)
        return redirect(url_for("seasons.detail", club_id=club.id, season_id=saved.season.id))
    return render_template(
        "seasons/form.html", club=club, role=role, form=form, season=None, general=general
    ), status


@bp.route("/clubs/<id:club_id>/seasons/<id:season_id>/edit", methods=["GET", "POST"])
def edit(club_id: int, season_id: int) -> ResponseReturnValue:
    """Change a season's name, dates, rules or standings method (scorers and the owner)."""
    back = url_for("seasons.edit", club_id=club_id, season_id=season_id)
    club, role = club_for(club_id, "scorer", next_url=back)
    season = _season_or_404(club, season_id)
    form = SeasonForm.for_season(season)
    saved, general, status = _save(form, lambda data: season_service.update_season(season, data))
    if saved is not None:
        flash(_("The season %(name)s is saved.", name=saved.season.name), "success")
        _flash_filed(saved)
        return redirect(url_for("seasons.detail", club_id=club.id, season_id=season.id))
    return render_template(
        "seasons/form.html", club=club, role=role, form=form, season=season, general=general
    ), status


def _page() -> int:
    page = request.args.get("page", 1, type=int) or 1
    return min(max(page, 1), 10**6)


@bp.get("/clubs/<id:club_id>/seasons/<id:season_id>")
def detail(club_id: int, season_id: int) -> ResponseReturnValue:
    """The season page: standings and how they were computed, the chart over the club nights,
    attendance, and the season's games (scorers can move a game to another season)."""
    club, role = club_for(club_id)
    season = _season_or_404(club, season_id)
    table = season_standings.standings(season)
    move = None
    if may_score(role):
        seasons = season_service.seasons_of(club)
        if len(seasons) > 1:
            move = MoveGameForm(formdata=None)
            move.set_seasons(seasons, season)
    return render_template(
        "seasons/detail.html",
        club=club,
        role=role,
        season=season,
        table=table,
        story=season_story.story(season, club, table),
        attendance=season_standings.attendance(season),
        games=season_standings.season_games(season, _page()),
        move=move,
    )


@bp.get("/clubs/<id:club_id>/seasons/<id:season_id>/print")
def print_view(club_id: int, season_id: int) -> ResponseReturnValue:
    """The standings and the season's story on one page for the notice board, in black and
    white."""
    club, _role = club_for(club_id)
    season = _season_or_404(club, season_id)
    prefer_locale(club.locale)
    table = season_standings.standings(season)
    return render_template(
        "seasons/print.html",
        club=club,
        season=season,
        table=table,
        story=season_story.story(season, club, table),
        now=utcnow(),
    )


@bp.get("/clubs/<id:club_id>/seasons/<id:season_id>/chart.svg")
def chart(club_id: int, season_id: int) -> ResponseReturnValue:
    """The leaders' standing after each club night (SVG, cached per season data version)."""
    club, _role = club_for(club_id)
    season = _season_or_404(club, season_id)
    prefer_locale(request.args.get("lang"))  # from the print page: in the page's language
    return svg_response(*season_chart.chart_svg(season))


@bp.get("/clubs/<id:club_id>/seasons/<id:season_id>/race/<id:entry_id>.svg")
def race_chart(club_id: int, season_id: int, entry_id: int) -> ResponseReturnValue:
    """A player's place after each club night (a small SVG, cached per season data version).
    With ?v= naming the current data version the browser may keep it: a change is a new URL."""
    club, _role = club_for(club_id)
    season = _season_or_404(club, season_id)
    try:
        svg, etag, version = season_chart.race_svg(season, entry_id)
    except season_chart.NotInSeason:
        abort(404)
    response = svg_response(svg, etag)
    if request.args.get("v") == version:
        response.headers["Cache-Control"] = season_chart.RACE_KEPT
    return response


@bp.post("/clubs/<id:club_id>/seasons/<id:season_id>/games/<id:game_id>/move")
def move_game(club_id: int, season_id: int, game_id: int) -> ResponseReturnValue:
    """File a game of this season under another of the club's seasons."""
    back = url_for("seasons.detail", club_id=club_id, season_id=season_id)
    club, _role = club_for(club_id, "scorer", next_url=back)
    season = _season_or_404(club, season_id)
    form = MoveGameForm()
    form.set_seasons(season_service.seasons_of(club), season)
    if not form.validate() or form.season_id.data is None:
        flash(_("Choose the season to move the game to."), "error")
        return redirect(back)
    target = _season_or_404(club, form.season_id.data)
    try:
        season_service.move_game(club, game_id, target)
    except SeasonError as error:
        for problem in error.problems:
            flash(problem_text(problem), "error")
        return redirect(back)
    flash(_("The game now counts for %(season)s.", season=target.name), "success")
    return redirect(back)


@bp.route("/clubs/<id:club_id>/seasons/<id:season_id>/delete", methods=["GET", "POST"])
def delete(club_id: int, season_id: int) -> ResponseReturnValue:
    """A second step, then the season goes; its games and nights stay (the club's history says
    who deleted it)."""
    back = url_for("seasons.delete", club_id=club_id, season_id=season_id)
    club, role = club_for(club_id, "scorer", next_url=back)
    season = _season_or_404(club, season_id)
    if request.method == "GET":
        return render_template("seasons/delete.html", club=club, role=role, season=season)
    removals.delete_season(club, season, signed_in_user())
    flash(_("Season “%(name)s” deleted; its games are kept.", name=season.name), "success")
    return redirect(url_for("seasons.index", club_id=club.id))
