"""Club pages: my clubs, a new club, a club's page and settings, the public page, the club's
data to take away. Members: members.py; invites: invites.py; the roster: roster.py; club games:
games.py; moving a quick game into a club: moving.py.

Views are thin: check who asks (access), read the form, call one service, flash, redirect.
"""

from __future__ import annotations

from flask import abort, flash, make_response, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from scorekeeper.access import club_for, signed_in_user
from scorekeeper.clubs import bp
from scorekeeper.clubs.forms import ClubForm, SettingsForm
from scorekeeper.clubs.views.common import put_problems
from scorekeeper.i18n import prefer_locale
from scorekeeper.models import utcnow
from scorekeeper.services import club_games as club_game_service
from scorekeeper.services import clubs as club_service
from scorekeeper.services import export_csv, export_json
from scorekeeper.services import roster as roster_service
from scorekeeper.services.clubs import ClubError


@bp.get("/clubs")
def index() -> ResponseReturnValue:
    """The clubs I belong to, with my role in each."""
    user = signed_in_user()
    return render_template("clubs/index.html", clubs=club_service.clubs_of(user))


@bp.route("/clubs/new", methods=["GET", "POST"])
def new() -> ResponseReturnValue:
    """Start a club: its creator is the owner."""
    user = signed_in_user(url_for("clubs.new"))
    form = ClubForm()
    general: list[str] = []
    status = 400 if form.is_submitted() else 200
    if form.validate_on_submit():
        try:
            club = club_service.create_club(user, form.name.data or "")
        except ClubError as error:
            general, status = put_problems(form, error.problems), 422
        else:
            flash(_("%(name)s is ready. Invite your players next.", name=club.name), "success")
            return redirect(url_for("clubs.detail", club_id=club.id))
    return render_template("clubs/new.html", form=form, general=general), status


@bp.get("/clubs/<id:club_id>")
def detail(club_id: int) -> ResponseReturnValue:
    """The club's page (members only): its games, newest first, the roster and the members."""
    club, role = club_for(club_id)
    return render_template(
        "clubs/detail.html",
        club=club,
        role=role,
        games=club_game_service.games_of_club(club),
        linkable=len(club_game_service.guest_links(club)),
        roster=roster_service.active_roster(club),
        members=club_service.members_of(club),
    )


# Where the core's problem fields show on the settings form ("set" is the domino set).
SETTINGS_FIELDS = {"set": "set_size"}


@bp.route("/clubs/<id:club_id>/settings", methods=["GET", "POST"])
def settings(club_id: int) -> ResponseReturnValue:
    """The owner's settings: name, default rules, public page."""
    club, role = club_for(club_id, "owner", next_url=url_for("clubs.settings", club_id=club_id))
    form = SettingsForm.for_club(club)
    general: list[str] = []
    status = 400 if form.is_submitted() else 200
    if form.validate_on_submit():
        typed = form.typed_number_errors()
        for name, message in typed.items():
            form[name].errors = [message]
        status = 422
        if not typed:
            try:
                club_service.update_club(
                    club,
                    name=form.name.data or "",
                    rules=form.rules(),
                    public=form.public.data,
                    locale=form.locale.data,
                    table_links=form.table_links.data,
                )
            except ClubError as error:
                general = put_problems(form, error.problems, SETTINGS_FIELDS)
            else:
                flash(_("Settings saved."), "success")
                return redirect(url_for("clubs.detail", club_id=club.id))
    return render_template(
        "clubs/settings.html", club=club, role=role, form=form, general=general
    ), status


@bp.get("/c/<token>")
def public(token: str) -> ResponseReturnValue:
    """The club's public read-only page, when the owner turned it on: its games, each one's sheet
    through the game's share link."""
    club = club_service.public_club(token)
    if club is None:
        abort(404)
    prefer_locale(club.locale)
    return render_template(
        "clubs/public.html", club=club, games=club_game_service.games_of_club(club)
    )


@bp.get("/clubs/<id:club_id>/export.<any(json, csv):kind>")
def export(club_id: int, kind: str) -> ResponseReturnValue:
    """Download everything the club holds: JSON (lossless, for import) or CSV (one row per
    player per round, for spreadsheets). Owners only: the file opens the club's links."""
    club, _role = club_for(club_id, "owner")
    if kind == "json":
        body = export_json.dumps(export_json.export_club_json(club.id))
        mimetype = "application/json"
    else:
        body = export_csv.export_club_csv(club.id)
        mimetype = "text/csv"
    response = make_response(body)
    response.mimetype = mimetype
    stamp = utcnow().strftime("%Y-%m-%d")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="club-{club.id}-{stamp}.{kind}"'
    )
    response.headers["Cache-Control"] = "no-store"
    return response
