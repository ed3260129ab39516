"""The club's roster: its players, added, renamed, archived and merged."""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from scorekeeper.access import club_for
from scorekeeper.clubs import bp
from scorekeeper.clubs.forms import MergeForm, RosterPlayerForm
from scorekeeper.clubs.views.common import flash_problems, put_problems
from scorekeeper.models import Club
from scorekeeper.services import clubs as club_service
from scorekeeper.services import roster as roster_service
from scorekeeper.services.clubs import ClubError


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
        general = put_problems(form, error.problems)
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
            general, status = put_problems(form, error.problems), 422
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
        flash_problems(error)
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
        general = put_problems(form, error.problems)
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
