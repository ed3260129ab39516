"""A club's members: their roles, removing one, handing the club over, leaving it."""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from scorekeeper.access import club_for, signed_in_user
from scorekeeper.clubs import bp
from scorekeeper.clubs.forms import RoleForm, TransferForm
from scorekeeper.clubs.views.common import choice_refused, flash_problems, role_name
from scorekeeper.models import Club
from scorekeeper.services import clubs as club_service
from scorekeeper.services.clubs import ClubError


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
        choice_refused()
        return redirect(back)
    try:
        club_service.change_role(club, user_id, form.role.data)
    except ClubError as error:
        flash_problems(error)
    else:
        flash(
            _("%(name)s is now a %(role)s.", name=member.user.name, role=role_name(member.role)),
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
        flash_problems(error)
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
        flash_problems(error)
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
        flash_problems(error)
        return redirect(back)
    flash(_("You left %(name)s.", name=club.name), "success")
    return redirect(url_for("clubs.index"))
