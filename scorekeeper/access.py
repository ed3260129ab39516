"""Who may see or change what: clubs by role, games by club role or device (pages and API alike).

A club belongs to its members: a signed-out visitor is sent to sign in (and back); a non-member
gets 404, so a club's existence does not leak; a member whose role is too low gets 403.

A quick game belongs to the devices that created it or opened its edit link (scorers) or share
link (viewers). A club game belongs to the club: its scorers and owners score it, its viewers
watch it, nobody else sees it (unless the owner made the club's page public: then read-only).
The API answers in JSON with its own words, but asks `club_game_access` the same question.
"""

from __future__ import annotations

import hmac
from typing import Any

from flask import abort, flash, redirect, request
from flask_babel import gettext as _
from flask_login import current_user, login_url

from scorekeeper.extensions import db, login_manager
from scorekeeper.models import Club, Game
from scorekeeper.services import clubs as club_service
from scorekeeper.services import games as game_service
from scorekeeper.services.games import GameRef
from scorekeeper.web.devices import current_device

# The rule --------------------------------------------------------------------------------------


def club_game_access(role: str | None) -> str | None:
    """What a club role allows with the club's games: 'edit' (a scorer or the owner scores
    them), 'view' (a viewer watches them) or None (not a member)."""
    if role is None:
        return None
    return "edit" if club_service.at_least(role, "scorer") else "view"


def may_score(role: str | None) -> bool:
    """True if this club role may score, set up or move the club's games."""
    return club_game_access(role) == "edit"


# Signed-in members -----------------------------------------------------------------------------


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


# Games -----------------------------------------------------------------------------------------


def access_to(game: Game | GameRef) -> str | None:
    """'edit', 'view' or None: what this visitor may do with the game."""
    if game.club_id is not None:
        return club_game_access(club_service.role_in(current_user, game.club_id))
    return game_service.device_access(current_device(), game)


def game_for_device(game_id: int, *, edit: bool = False) -> tuple[Game, str]:
    """The game and this visitor's access ('edit' or 'view'); 404 if unknown or not theirs
    (a signed-out visitor is sent to sign in for a club game), 403 if they may only look but
    asked to edit.

    Only the game's row is read: its snapshot has the rounds.
    """
    game, access = game_service.game_for_device(game_id, current_device())
    if game is None:
        abort(404)
    return game, _checked(game, access, edit=edit)


def game_page_for_device(game_id: int) -> tuple[Any, str]:
    """As game_for_device to look at, with the game's columns as a plain row (the game page's
    GET: a read needs no object)."""
    game, access = game_service.game_columns_for_device(game_id, current_device())
    if game is None:
        abort(404)
    return game, _checked(game, access, edit=False)


def image_source_for_device(game_id: int) -> GameRef:
    """The game whose chart or QR code this visitor asks for, as game_for_device would allow
    it (to look at), read without loading the game: a cached image needs no more."""
    return game_ref_for_device(game_id)[0]


def game_ref_for_device(game_id: int) -> tuple[GameRef, str]:
    """The game's id, version and owner, and this visitor's access, as game_for_device gives
    them, in one light query: enough for an ETag (a poll of an unchanged game)."""
    ref, access = game_service.game_ref(device=current_device(), game_id=game_id)
    checked = _checked(ref, access, edit=False)
    assert ref is not None
    return ref, checked


def _checked(game: Game | GameRef | None, device_access: str | None, *, edit: bool) -> str:
    """This visitor's access to the game (the club's roles for a club game, else the device's
    right), or abort: 404, sign in (a club game, signed out) or 403 (asked to edit)."""
    if game is None:
        abort(404)
    access = access_to(game) if game.club_id is not None else device_access
    if access is None:
        if game.club_id is not None and not current_user.is_authenticated:
            abort(login_manager.unauthorized())
        abort(404)
    if edit and access != "edit":
        abort(403)
    return access


def game_for_share(view_token: str) -> Game:
    """The game a read-only share link points to, or 404 (a private club's games have none)."""
    game = game_service.game_by_token(view_token, edit=False)
    return _shared(game)


def image_source_for_share(view_token: str) -> GameRef:
    """The game of a share link, as game_for_share, read without loading the game."""
    ref, _no_device = game_service.game_ref(view_token=view_token)
    return _shared(ref)


def _shared(game):
    if game is None:
        abort(404)
    if game.club_id is not None:
        club = db.session.get(Club, game.club_id)
        if club is None or not club.public:
            abort(404)
    return game


# Table links (issue 33) ------------------------------------------------------------------------


def table_links_on(game: Any) -> bool:
    """True if the game has a table link: every quick game, and a club's games unless the club
    turned table links off in its settings."""
    if game.club_id is None:
        return True
    club = db.session.get(Club, game.club_id)
    return club is not None and club.table_links


def table_token_of(game: Any) -> str | None:
    """The game's table token, if its table link is on (shown to its scorers only)."""
    return game.table_token if game.table_token and table_links_on(game) else None


def table_token_opens(game: Any, token: str) -> bool:
    """True if `token` is the game's table token and its table link is on (compared in
    constant time). A table token sends hands and reads photos: nothing else."""
    known = game.table_token
    return (
        bool(known)
        and hmac.compare_digest(token.encode(), known.encode())
        and (table_links_on(game))
    )


def shared_publicly(game: Any) -> bool:
    """True if the game's share link opens (a quick game, or a public club's game)."""
    if game.club_id is None:
        return True
    club = db.session.get(Club, game.club_id)
    return club is not None and club.public


def game_for_table(token: str) -> Game:
    """The game a table link points to, or 404 (unknown, or the club turned table links off)."""
    game = game_service.game_by_table_token(token)
    if game is None or not table_links_on(game):
        abort(404)
    return game
