"""Who may see or change a club: members by role; everyone else is told nothing.

A signed-out visitor is sent to sign in (and back); a non-member gets 404, so a club's existence
does not leak; a member whose role is too low gets 403.
"""

from __future__ import annotations

from flask import abort, flash, redirect, request
from flask_babel import gettext as _
from flask_login import current_user, login_url

from scorekeeper.extensions import login_manager
from scorekeeper.models import Club
from scorekeeper.services import clubs as club_service


def sign_in_first(next_url: str | None = None) -> None:
    """Stop here and send a signed-out visitor to sign in, then back to `next_url` (for a POST,
    the page the form was on: the form's own URL only answers POST)."""
    if not login_manager.login_view:
        abort(401)
    # The same words as Flask-Login's own redirect (the game pages use that one).
    flash(str(login_manager.login_message or _("Please sign in first.")), "info")
    target = next_url or request.full_path.rstrip("?")
    abort(redirect(login_url(login_manager.login_view, next_url=target)))


def signed_in_user(next_url: str | None = None):
    """The signed-in user, or a redirect to sign in."""
    if not current_user.is_authenticated:
        sign_in_first(next_url)
    return current_user._get_current_object()


def club_for(
    club_id: int, needed: str = "viewer", *, next_url: str | None = None
) -> tuple[Club, str]:
    """The club and the visitor's role in it, if that role is at least `needed`."""
    user = signed_in_user(next_url)
    club = club_service.get_club(club_id)
    role = club_service.role_in(user, club_id) if club is not None else None
    if club is None or role is None:
        abort(404)
    if not club_service.at_least(role, needed):
        abort(403)
    return club, role
