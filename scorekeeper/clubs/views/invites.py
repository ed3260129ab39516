"""Invite links: made and revoked by the owner, opened and accepted by the person invited."""

from __future__ import annotations

from flask import abort, flash, make_response, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from scorekeeper.access import club_for, signed_in_user
from scorekeeper.clubs import bp
from scorekeeper.clubs.forms import InviteForm
from scorekeeper.clubs.views.common import flash_problems, role_name
from scorekeeper.models import Club
from scorekeeper.services import clubs as club_service
from scorekeeper.services.clubs import ClubError


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
            role=role_name(invite.role),
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
        flash_problems(error)
        return redirect(url_for("clubs.invite", token=token))
    names = {"club": club.name, "role": role_name(member.role)}
    if outcome == "joined":
        message = _("Welcome to %(club)s! You joined as %(role)s.", **names)
    elif outcome == "promoted":
        message = _("You are now a %(role)s of %(club)s.", **names)
    else:
        message = _("You are already a member of %(club)s, as %(role)s.", **names)
    flash(message, "success")
    return redirect(url_for("clubs.detail", club_id=club.id))
