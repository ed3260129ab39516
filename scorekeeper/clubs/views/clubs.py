"""Club pages: my clubs, a club's page and settings, members and invites, the roster, club games,
the public page (moving a quick game into a club: views/moving.py).

Views are thin: check who asks (access), read the form, call one service, flash, redirect.
"""

from __future__ import annotations

from flask import abort, flash, make_response, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_wtf import FlaskForm

from scorekeeper import core
from scorekeeper.access import club_for, signed_in_user
from scorekeeper.clubs import bp
from scorekeeper.clubs.forms import (
    ClubForm,
    ClubSetupForm,
    InviteForm,
    MergeForm,
    RoleForm,
    RosterPlayerForm,
    SettingsForm,
    TransferForm,
)
from scorekeeper.i18n import prefer_locale, problem_text
from scorekeeper.models import Club, utcnow
from scorekeeper.services import club_games as club_game_service
from scorekeeper.services import clubs as club_service
from scorekeeper.services import export_csv, export_json
from scorekeeper.services import roster as roster_service
from scorekeeper.services.clubs import ClubError
from scorekeeper.web import limits
from scorekeeper.web.devices import current_device

# Where the core's problem fields show on the settings form ("set" is the domino set).
SETTINGS_FIELDS = {"set": "set_size"}


def _put_problems(form: FlaskForm, problems, aliases=None) -> list[str]:
    """Show each problem next to its field; return those that belong to no field."""
    general: list[str] = []
    for problem in problems:
        name = (aliases or {}).get(problem.field, problem.field)
        if name and name in form:
            form[name].errors = [*form[name].errors, problem_text(problem)]
        else:
            general.append(problem_text(problem))
    return general


def _flash_problems(error: ClubError) -> None:
    for problem in error.problems:
        flash(problem_text(problem), "error")


def _choice_refused() -> None:
    """A button form that did not validate (a tampered choice): say so, in one message."""
    flash(_("That did not work: please check your choice and try again."), "error")


# My clubs --------------------------------------------------------------------------------------


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
            general, status = _put_problems(form, error.problems), 422
        else:
            flash(_("%(name)s is ready. Invite your players next.", name=club.name), "success")
            return redirect(url_for("clubs.detail", club_id=club.id))
    return render_template("clubs/new.html", form=form, general=general), status


# A club's page and settings --------------------------------------------------------------------


@bp.get("/clubs/<id:club_id>")
def detail(club_id: int) -> ResponseReturnValue:
    """The club's page (members only): its games, newest first, the roster and the members."""
    club, role = club_for(club_id)
    return render_template(
        "clubs/detail.html",
        club=club,
        role=role,
        games=club_game_service.games_of_club(club),
        roster=roster_service.active_roster(club),
        members=club_service.members_of(club),
    )


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
                )
            except ClubError as error:
                general = _put_problems(form, error.problems, SETTINGS_FIELDS)
            else:
                flash(_("Settings saved."), "success")
                return redirect(url_for("clubs.detail", club_id=club.id))
    return render_template(
        "clubs/settings.html", club=club, role=role, form=form, general=general
    ), status


# Members ---------------------------------------------------------------------------------------


def _render_members(club: Club, role: str, transfer: TransferForm | None = None, status=200):
    members = club_service.members_of(club)
    transfer = transfer or TransferForm(formdata=None)
    _offer_members(transfer, club, members)
    return render_template(
        "clubs/members.html",
        club=club,
        role=role,
        members=members,
        role_form=RoleForm(formdata=None),
        transfer=transfer,
    ), status


def _offer_members(form: TransferForm, club: Club, members=None) -> None:
    members = members if members is not None else club_service.members_of(club)
    form.user_id.choices = [(m.user_id, m.user.name) for m in members if m.role != "owner"]


@bp.get("/clubs/<id:club_id>/members")
def members(club_id: int) -> ResponseReturnValue:
    """The owner's page for members: roles, removal, transfer of ownership."""
    club, role = club_for(club_id, "owner")
    return _render_members(club, role)


def _member_or_404(club: Club, user_id: int):
    found = club_service.membership(club, user_id)
    if found is None:
        abort(404)
    return found


@bp.post("/clubs/<id:club_id>/members/<id:user_id>/role")
def change_role(club_id: int, user_id: int) -> ResponseReturnValue:
    """Make a member a viewer or a scorer."""
    back = url_for("clubs.members", club_id=club_id)
    club, _role = club_for(club_id, "owner", next_url=back)
    member = _member_or_404(club, user_id)
    form = RoleForm()
    if not form.validate():
        _choice_refused()
        return redirect(back)
    try:
        club_service.change_role(club, user_id, form.role.data)
    except ClubError as error:
        _flash_problems(error)
    else:
        flash(
            _("%(name)s is now a %(role)s.", name=member.user.name, role=_role_name(member.role)),
            "success",
        )
    return redirect(back)


@bp.post("/clubs/<id:club_id>/members/<id:user_id>/remove")
def remove_member(club_id: int, user_id: int) -> ResponseReturnValue:
    """Take a member out of the club (their games and roster entry stay)."""
    back = url_for("clubs.members", club_id=club_id)
    club, _role = club_for(club_id, "owner", next_url=back)
    _member_or_404(club, user_id)
    try:
        user = club_service.remove_member(club, user_id)
    except ClubError as error:
        _flash_problems(error)
    else:
        flash(_("%(name)s is no longer a member.", name=user.name), "success")
    return redirect(back)


@bp.post("/clubs/<id:club_id>/transfer")
def transfer(club_id: int) -> ResponseReturnValue:
    """Hand the club to another member; the old owner becomes a scorer."""
    back = url_for("clubs.members", club_id=club_id)
    club, role = club_for(club_id, "owner", next_url=back)
    form = TransferForm()
    _offer_members(form, club)
    if not form.validate():
        return _render_members(club, role, form, 400)
    try:
        new_owner = club_service.transfer_ownership(club, signed_in_user(), form.user_id.data)
    except ClubError as error:
        _flash_problems(error)
        return redirect(back)
    flash(
        _("%(name)s is now the owner; you are a scorer.", name=new_owner.name),
        "success",
    )
    return redirect(url_for("clubs.detail", club_id=club.id))


@bp.post("/clubs/<id:club_id>/leave")
def leave(club_id: int) -> ResponseReturnValue:
    """Leave the club (the owner transfers ownership first)."""
    back = url_for("clubs.detail", club_id=club_id)
    club, _role = club_for(club_id, next_url=back)
    try:
        club_service.leave_club(club, signed_in_user())
    except ClubError as error:
        _flash_problems(error)
        return redirect(back)
    flash(_("You left %(name)s.", name=club.name), "success")
    return redirect(url_for("clubs.index"))


def _role_name(role: str) -> str:
    return {"owner": _("owner"), "scorer": _("scorer"), "viewer": _("viewer")}[role]


# Invites ---------------------------------------------------------------------------------------


def _render_invites(club: Club, role: str, form: InviteForm | None = None, status: int = 200):
    return render_template(
        "clubs/invites.html",
        club=club,
        role=role,
        form=form or InviteForm(formdata=None),
        invites=club_service.open_invites(club),
    ), status


@bp.get("/clubs/<id:club_id>/invites")
def invites(club_id: int) -> ResponseReturnValue:
    """The owner's invite links: make one, see those that still work, revoke."""
    club, role = club_for(club_id, "owner")
    return _render_invites(club, role)


@bp.post("/clubs/<id:club_id>/invites")
def create_invite(club_id: int) -> ResponseReturnValue:
    """Make an invite link with a role and an expiry."""
    back = url_for("clubs.invites", club_id=club_id)
    club, role = club_for(club_id, "owner", next_url=back)
    form = InviteForm()
    if not form.validate():
        return _render_invites(club, role, form, 400)
    invite = club_service.create_invite(club, signed_in_user(), form.role.data, form.days.data)
    flash(
        _(
            "Invite link made: send it to whoever should join as %(role)s.",
            role=_role_name(invite.role),
        ),
        "success",
    )
    return redirect(url_for("clubs.invites", club_id=club.id, _anchor=f"invite-{invite.id}"))


@bp.post("/clubs/<id:club_id>/invites/<id:invite_id>/revoke")
def revoke_invite(club_id: int, invite_id: int) -> ResponseReturnValue:
    """The invite link stops working now."""
    back = url_for("clubs.invites", club_id=club_id)
    club, _role = club_for(club_id, "owner", next_url=back)
    invite = club_service.club_invite(club, invite_id)
    if invite is None:
        abort(404)
    club_service.revoke_invite(invite)
    flash(_("The invite link no longer works."), "success")
    return redirect(back)


def _open_invite(token: str):
    """The invite and its club, or the page saying why the link does not work (404 or 410)."""
    invite = club_service.invite_by_token(token)
    if invite is None:
        abort(make_response(render_template("clubs/invite_gone.html", reason="unknown"), 404))
    status = club_service.invite_status(invite)
    if status != "open":
        abort(make_response(render_template("clubs/invite_gone.html", reason=status), 410))
    return invite, club_service.get_club(invite.club_id)


@bp.get("/invite/<token>")
def invite(token: str) -> ResponseReturnValue:
    """An invite link: see the club and the role, then join with one button."""
    found, club = _open_invite(token)
    user = signed_in_user()
    return render_template(
        "clubs/invite.html", invite=found, club=club, role=club_service.role_in(user, club.id)
    )


@bp.post("/invite/<token>")
def accept_invite(token: str) -> ResponseReturnValue:
    """Join the club with the invite's role."""
    found, club = _open_invite(token)
    user = signed_in_user(url_for("clubs.invite", token=token))
    try:
        member, outcome = club_service.accept_invite(found, user)
    except ClubError as error:
        _flash_problems(error)
        return redirect(url_for("clubs.invite", token=token))
    names = {"club": club.name, "role": _role_name(member.role)}
    if outcome == "joined":
        message = _("Welcome to %(club)s! You joined as %(role)s.", **names)
    elif outcome == "promoted":
        message = _("You are now a %(role)s of %(club)s.", **names)
    else:
        message = _("You are already a member of %(club)s, as %(role)s.", **names)
    flash(message, "success")
    return redirect(url_for("clubs.detail", club_id=club.id))


# The public page -------------------------------------------------------------------------------


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


# Roster ----------------------------------------------------------------------------------------


def _render_roster(
    club: Club,
    role: str,
    *,
    add: RosterPlayerForm | None = None,
    merge: MergeForm | None = None,
    general: list[str] | None = None,
    status: int = 200,
) -> ResponseReturnValue:
    roster = roster_service.roster_of(club)
    members = club_service.members_of(club)
    add = add or RosterPlayerForm(formdata=None)
    add.set_members(members)
    merge = merge or MergeForm(formdata=None)
    merge.set_roster(roster)
    return render_template(
        "clubs/roster.html",
        club=club,
        role=role,
        roster=roster,
        played=roster_service.games_played(club),
        accounts={m.user_id: m.user.name for m in members},
        add=add,
        merge=merge,
        general=general or [],
    ), status


@bp.get("/clubs/<id:club_id>/roster")
def roster(club_id: int) -> ResponseReturnValue:
    """The club's players: every member sees them; scorers and the owner edit them."""
    club, role = club_for(club_id)
    return _render_roster(club, role)


@bp.post("/clubs/<id:club_id>/roster")
def add_player(club_id: int) -> ResponseReturnValue:
    """Put a player on the roster."""
    club, role = club_for(club_id, "scorer", next_url=url_for("clubs.roster", club_id=club_id))
    form = RosterPlayerForm()
    form.set_members(club_service.members_of(club))
    if not form.validate():
        return _render_roster(club, role, add=form, status=400)
    try:
        entry = roster_service.add_roster_player(
            club, form.display_name.data or "", form.user_id.data
        )
    except ClubError as error:
        general = _put_problems(form, error.problems)
        return _render_roster(club, role, add=form, general=general, status=422)
    flash(_("%(name)s is on the roster.", name=entry.display_name), "success")
    return redirect(url_for("clubs.roster", club_id=club.id))


def _entry_or_404(club: Club, entry_id: int):
    entry = roster_service.roster_entry(club, entry_id)
    if entry is None or entry.merged_into_id is not None:
        abort(404)
    return entry


@bp.route("/clubs/<id:club_id>/roster/<id:entry_id>", methods=["GET", "POST"])
def edit_player(club_id: int, entry_id: int) -> ResponseReturnValue:
    """Rename a roster player or link their account; their games follow the new name."""
    back = url_for("clubs.edit_player", club_id=club_id, entry_id=entry_id)
    club, role = club_for(club_id, "scorer", next_url=back)
    entry = _entry_or_404(club, entry_id)
    form = RosterPlayerForm(data={"display_name": entry.display_name, "user_id": entry.user_id})
    form.set_members(club_service.members_of(club), roster_service.linked_account(entry))
    general: list[str] = []
    status = 400 if form.is_submitted() else 200
    if form.validate_on_submit():
        old = entry.display_name
        try:
            roster_service.update_roster_player(
                entry, form.display_name.data or "", form.user_id.data
            )
        except ClubError as error:
            general, status = _put_problems(form, error.problems), 422
        else:
            if old != entry.display_name:
                flash(
                    _("%(old)s is now %(new)s, in every game.", old=old, new=entry.display_name),
                    "success",
                )
            else:
                flash(_("%(name)s saved.", name=entry.display_name), "success")
            return redirect(url_for("clubs.roster", club_id=club.id))
    return render_template(
        "clubs/roster_player.html", club=club, role=role, entry=entry, form=form, general=general
    ), status


@bp.post("/clubs/<id:club_id>/roster/<id:entry_id>/archive")
def archive_player(club_id: int, entry_id: int) -> ResponseReturnValue:
    """The player left: keep their games, stop offering them for new ones."""
    back = url_for("clubs.roster", club_id=club_id)
    club, _role = club_for(club_id, "scorer", next_url=back)
    entry = _entry_or_404(club, entry_id)
    roster_service.archive_roster_player(entry)
    flash(_("%(name)s is archived: their games stay.", name=entry.display_name), "success")
    return redirect(back)


@bp.post("/clubs/<id:club_id>/roster/<id:entry_id>/unarchive")
def unarchive_player(club_id: int, entry_id: int) -> ResponseReturnValue:
    """The player is back."""
    back = url_for("clubs.roster", club_id=club_id)
    club, _role = club_for(club_id, "scorer", next_url=back)
    entry = _entry_or_404(club, entry_id)
    try:
        roster_service.unarchive_roster_player(entry)
    except ClubError as error:
        _flash_problems(error)
    else:
        flash(_("%(name)s is back on the roster.", name=entry.display_name), "success")
    return redirect(back)


@bp.post("/clubs/<id:club_id>/roster/merge")
def merge_players(club_id: int) -> ResponseReturnValue:
    """Two roster entries are the same person: one keeps every game, the other is archived."""
    club, role = club_for(club_id, "scorer", next_url=url_for("clubs.roster", club_id=club_id))
    form = MergeForm()
    form.set_roster(roster_service.roster_of(club))
    if not form.validate() or form.keep.data is None or form.drop.data is None:
        for field in (form.keep, form.drop):
            if field.data is None and not field.errors:
                field.errors = [_("Choose a player.")]
        return _render_roster(club, role, merge=form, status=400)
    keep = _entry_or_404(club, form.keep.data)
    drop = _entry_or_404(club, form.drop.data)
    try:
        moved = roster_service.merge_roster_players(keep, drop)
    except ClubError as error:
        general = _put_problems(form, error.problems)
        return _render_roster(club, role, merge=form, general=general, status=422)
    flash(
        _(
            "%(drop)s merged into %(keep)s (%(count)s seats moved).",
            drop=drop.display_name,
            keep=keep.display_name,
            count=moved,
        ),
        "success",
    )
    return redirect(url_for("clubs.roster", club_id=club.id))


# Club games ------------------------------------------------------------------------------------


def _render_setup(club, role, form, general=None, status=200) -> ResponseReturnValue:
    return render_template(
        "clubs/new_game.html",
        club=club,
        role=role,
        form=form,
        general=general or [],
        roster=roster_service.active_roster(club),
        recommend_table=[list(row) for row in core.setup.RECOMMENDED],
    ), status


@bp.route("/clubs/<id:club_id>/games/new", methods=["GET", "POST"])
@limits.new_games
def new_game(club_id: int) -> ResponseReturnValue:
    """Set up a club game: the club's rules prefilled, roster players offered, guests welcome."""
    back = url_for("clubs.new_game", club_id=club_id)
    club, role = club_for(club_id, "scorer", next_url=back)
    form = ClubSetupForm.for_club(club_service.default_rules(club))
    if form.add_player.data and len(form.players) < (form.players.max_entries or 0):
        form.players.append_entry()
        return _render_setup(club, role, form)
    if not form.validate_on_submit():
        expired = "csrf_token" in form.errors
        general = [_("The form expired: please press Start again.")] if expired else []
        return _render_setup(club, role, form, general, 400 if form.is_submitted() else 200)
    if form.show_typed_number_errors():
        return _render_setup(club, role, form, status=422)
    try:
        game = club_game_service.create_club_game(
            club,
            form.player_names(),
            form.rules(),
            form.teams(),
            device=current_device(),
            played_on=form.played_on.data,
        )
    except core.RuleError as error:
        return _render_setup(club, role, form, form.show_problems(error.problems), 422)
    # The draw game has hands, not rounds: its page says "Hand 1".
    draw = game.game_type == "draw"
    flash(_("Game on! Hand 1 is ready.") if draw else _("Game on! Round 1 is ready."), "success")
    return redirect(url_for("games.detail", game_id=game.id))


# Your data -------------------------------------------------------------------------------------


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
