"""Club night pages: the club's nights, starting a night, the night's live page, late arrivals
and the club's late-arrival rule.

Views are thin: check who asks (access), read the form, call one service,
flash, redirect.
"""

from __future__ import annotations

import random
from typing import Any

from flask import (
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_wtf import FlaskForm

from scorekeeper.access import club_for, game_for_device, signed_in_user
from scorekeeper.i18n import problem_text
from scorekeeper.models import Club, ClubNight
from scorekeeper.nights import bp
from scorekeeper.nights.forms import (
    MAX_GUEST_ROWS,
    RULE_LABELS,
    LateForm,
    LateRuleForm,
    guest_rows_from,
    night_form_class,
    seed_from,
)
from scorekeeper.services import clubs as club_service
from scorekeeper.services import games as game_service
from scorekeeper.services import nights as night_service
from scorekeeper.services import ratings as rating_service
from scorekeeper.services import removals, table_draw
from scorekeeper.services import roster as roster_service
from scorekeeper.services.nights import NightError
from scorekeeper.web import limits
from scorekeeper.web.devices import current_device
from scorekeeper.web.etags import conditional, etag_for, page_etag


def _put_problems(form: FlaskForm, problems, aliases: dict[str, str] | None = None) -> list[str]:
    """Show each problem next to its field; return those that belong to the whole form (a
    table's problem says which table)."""
    general: list[str] = []
    for problem in problems:
        text = problem_text(problem)
        name = (aliases or {}).get(problem.field, problem.field)
        if name and name in form:
            form[name].errors = [*form[name].errors, text]
        elif name and name.startswith("table-") and not problem.code.startswith("night_"):
            general.append(_("Table %(n)s: %(message)s", n=name[6:], message=text))
        else:
            general.append(text)
    return general


def _night_or_404(club: Club, night_id: int) -> ClubNight:
    night = night_service.get_night(club, night_id)
    if night is None:
        abort(404)
    return night


def _rule_form(club: Club) -> LateRuleForm:
    return LateRuleForm(formdata=None, data={"rule": night_service.late_rule(club).value})


# The club's nights -----------------------------------------------------------------------------


@bp.get("/clubs/<id:club_id>/nights")
def index(club_id: int) -> ResponseReturnValue:
    """The club's nights, newest first; scorers start one; the owner sets the late rule."""
    club, role = club_for(club_id)
    return render_template(
        "nights/index.html",
        club=club,
        role=role,
        nights=night_service.nights_of(club),
        rule_form=_rule_form(club) if role == "owner" else None,
        rule=night_service.late_rule(club).value,
    )


@bp.post("/clubs/<id:club_id>/late-rule")
def late_rule(club_id: int) -> ResponseReturnValue:
    """The owner chooses how a late arrival's missed rounds are scored."""
    back = url_for("nights.index", club_id=club_id)
    club, _role = club_for(club_id, "owner", next_url=back)
    form = LateRuleForm()
    if not form.validate():
        flash(_("Choose how a late arrival's missed rounds are scored."), "error")
        return redirect(back)
    night_service.set_late_rule(club, form.rule.data)
    flash(
        _(
            "Saved: a late arrival scores %(rule)s for each round they missed.",
            rule=str(RULE_LABELS[form.rule.data]).lower(),
        ),
        "success",
    )
    return redirect(back)


# Starting a night ------------------------------------------------------------------------------


def _render_new(club, role, form, general=None, status=200, shuffled=False, drawn=None):
    return render_template(
        "nights/new.html",
        club=club,
        role=role,
        form=form,
        general=general or [],
        shuffled=shuffled,
        drawn=drawn,
        season=night_service.season_for(club, form.played_on.data) if form.played_on.data else None,
        rule=night_service.late_rule(club).value,
    ), status


@bp.route("/clubs/<id:club_id>/nights/new", methods=["GET", "POST"])
@limits.new_games
def new(club_id: int) -> ResponseReturnValue:
    """Start a club night: who is here, how many tables, who sits where (or shuffle)."""
    back = url_for("nights.new", club_id=club_id)
    club, role = club_for(club_id, "scorer", next_url=back)
    rows = guest_rows_from(request.form.get("guest_rows"))
    if request.form.get("add_guest"):
        rows = min(rows + 1, MAX_GUEST_ROWS)
    form = night_form_class(roster_service.active_roster(club), rows)()
    form.guest_rows.data = str(rows)
    if not form.is_submitted() or form.add_guest.data:
        return _render_new(club, role, form)
    if not form.validate():
        expired = "csrf_token" in form.errors
        general = [_("The form expired: please press the button again.")] if expired else []
        return _render_new(club, role, form, general, 400)
    assert form.played_on.data is not None  # a DateField that validated holds a date
    try:
        if form.shuffle.data or form.draw_again.data:
            shown = seed_from(form.seed.data)
            # The draw number shown repeats its draw; "Draw again" asks for another one.
            seed = None if form.draw_again.data else shown
            seed = seed or table_draw.new_seed(random.Random(), avoid=shown)
            drawn, seats = table_draw.draw_for_night(
                club,
                form.played_on.data,
                form.seats(),
                form.tables.data,
                form.draw_method.data,
                seed,
            )
            form.place(seats)
            form.seed.data = str(seed)
            return _render_new(club, role, form, shuffled=True, drawn=drawn)
        night = night_service.start_night(
            club,
            played_on=form.played_on.data,
            name=form.name.data or "",
            tables=form.tables.data,
            seats=form.seats(),
            device=current_device(),
        )
    except NightError as error:
        return _render_new(club, role, form, _put_problems(form, error.problems), 422)
    flash(_("The night has started. Each table scores its own game."), "success")
    return redirect(url_for("nights.detail", club_id=club.id, night_id=night.id))


# The night's page ------------------------------------------------------------------------------


def _night_page(
    club_id: int, night_id: int, template: str, *, chances: bool = False
) -> ResponseReturnValue:
    club, role = club_for(club_id)
    night = _night_or_404(club, night_id)
    version = night_service.night_version(night)
    rule = night_service.late_rule(club).value
    # Everything the page shows besides its tables' games: the club's name and late-arrival
    # rule, the night's name, date and season, the visitor's role (scorers get more links).
    shown: dict[str, Any] = {
        "club": club.name,
        "rule": rule,
        "night": (night.name, night.played_on, night.season_id),
        "role": role,
    }
    # The table chances follow the ratings of the games rated before the night's own (its cut):
    # a game of that day finished or corrected moves them, the night's own games never do.
    cut = rating_service.night_cut(night) if chances else None
    if cut is not None:
        shown["ratings"] = rating_service.ratings_mark(club, cut)
    page = not template.endswith("/_live.html")
    etag = page_etag(version, page=template, **shown) if page else etag_for(version, **shown)

    def render() -> str:
        view = night_service.night_view(night)
        # Each table's chances come from the ratings before the night's games: they do not
        # move as its tables play, so the polled live part leaves them out.
        odds = (
            rating_service.night_chances(club, cut, [t.game for t in view.tables])
            if cut is not None
            else {}
        )
        return render_template(
            template,
            club=club,
            role=role,
            night=night,
            view=view,
            version=version,
            rule=rule,
            chances=odds,
        )

    return conditional(etag, render, page=page)


@bp.get("/clubs/<id:club_id>/nights/<id:night_id>")
def detail(club_id: int, night_id: int) -> ResponseReturnValue:
    """Every table of the night on one page; it refreshes itself; the results at the end."""
    return _night_page(club_id, night_id, "nights/detail.html", chances=True)


@bp.get("/clubs/<id:club_id>/nights/<id:night_id>/live")
def live(club_id: int, night_id: int) -> ResponseReturnValue:
    """The live part of the night's page, polled with If-None-Match (304 when nothing moved)."""
    return _night_page(club_id, night_id, "nights/_live.html")


# Late arrivals ---------------------------------------------------------------------------------


@bp.route("/games/<id:game_id>/late", methods=["GET", "POST"])
@limits.round_writes
def join_late(game_id: int) -> ResponseReturnValue:
    """A late arrival joins a club game at its next round (the club's scorers only)."""
    game, _access = game_for_device(game_id, edit=True)
    if game.club_id is None:
        abort(404)  # the late-arrival rule is a club's
    club = club_service.get_club(game.club_id)
    if club is None:
        abort(404)
    snapshot = game_service.snapshot_of(game)
    state = snapshot.state
    refused = game_service.late_join_problem(snapshot)
    form = LateForm()
    form.set_candidates(night_service.late_candidates(club, game))
    general: list[str] = []
    status = 200
    if form.is_submitted() and refused is None:
        status = 400
        if form.validate():
            try:
                player = night_service.add_late_player(
                    club,
                    game,
                    roster_id=form.roster.data,
                    guest=form.guest.data,
                    device=current_device(),
                )
            except NightError as error:
                general, status = _put_problems(form, error.problems, {"name": "guest"}), 422
            except game_service.StaleGame:
                general = [_("The game changed on another phone just now: please try again.")]
                status = 409
            else:
                flash(
                    _(
                        "%(name)s joins at round %(n)s; the rounds they missed are scored by "
                        "the club's rule.",
                        name=player.name,
                        n=player.joined_round,
                    ),
                    "success",
                )
                return redirect(url_for("games.detail", game_id=game.id, _anchor="sheet"))
        elif "csrf_token" in form.errors:
            general = [_("The form expired: please press the button again.")]
    elif form.is_submitted():
        status = 409
    return render_template(
        "nights/late.html",
        game=game,
        club=club,
        state=state,
        form=form,
        refused=problem_text(refused) if refused is not None else None,
        general=general,
        rule=night_service.late_rule(club).value,
    ), status


@bp.route("/clubs/<id:club_id>/nights/<id:night_id>/delete", methods=["GET", "POST"])
def delete(club_id: int, night_id: int) -> ResponseReturnValue:
    """A second step that says how many games and rounds go with the night, then they go.
    A scorer may delete a night whose tables recorded no round; once rounds are recorded,
    only the owner may."""
    back = url_for("nights.delete", club_id=club_id, night_id=night_id)
    club, role = club_for(club_id, "scorer", next_url=back)
    night = _night_or_404(club, night_id)
    weight = removals.weight_of(night)
    if weight.rounds and role != "owner":
        abort(403)
    if request.method == "GET":
        return render_template(
            "nights/delete.html", club=club, role=role, night=night, weight=weight
        )
    from scorekeeper.nights import night_title  # defined after this module is imported

    title = night_title(night)
    removals.delete_night(club, night, signed_in_user(), title)
    flash(_("“%(night)s” deleted, with its games.", night=title), "success")
    return redirect(url_for("nights.index", club_id=club.id))
