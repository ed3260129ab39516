"""Links for the table: the edit link a phone claims, and the read-only share page."""

from __future__ import annotations

from flask import Response, abort, flash, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from scorekeeper.access import game_for_share, image_source_for_share
from scorekeeper.games import bp
from scorekeeper.games.parts import share_html
from scorekeeper.models import Game, etag_of
from scorekeeper.services import games as game_service
from scorekeeper.services.games import snapshot_of
from scorekeeper.web.devices import current_device, known_device
from scorekeeper.web.etags import conditional, etag_for, page_etag


@bp.get("/e/<token>")
def claim(token: str) -> ResponseReturnValue:
    """An edit link: a page asking whether this phone should score the game (opening a link
    writes nothing, so a chat app's link preview cannot take edit rights); a phone that
    already scores it goes straight to the game."""
    game = _claimable(token)
    if game_service.device_access(known_device(), game) == "edit":
        return redirect(url_for("games.detail", game_id=game.id))
    return render_template("games/claim.html", game=game, players=snapshot_of(game).setup.players)


@bp.post("/e/<token>")
def claim_confirm(token: str) -> ResponseReturnValue:
    """The tap on the edit link's page: this phone may now score the game."""
    game = _claimable(token)
    game_service.remember(current_device(), game, can_edit=True)
    flash(_("You can now record rounds for this game on this phone."), "success")
    return redirect(url_for("games.detail", game_id=game.id))


def _claimable(token: str) -> Game:
    game = game_service.game_by_token(token, edit=True)
    if game is None or game.club_id is not None:  # club games are scored by the club's scorers
        abort(404)
    return game


def _share_page(token: str, template: str | None) -> Response:
    """The share page (`template`), or its live part alone (None): 304 while the game is
    unchanged (the phones watching poll it). Only reads: a phone keeps the game with a tap."""
    if template is None:
        # The live part, polled by every phone watching: its ETag comes from one light query,
        # and an unchanged game loads nothing else.
        ref = image_source_for_share(token)
        etag = etag_for(etag_of(ref.id, ref.version, ref.view_token), part="share-live")
        return conditional(etag, lambda: share_html(game_for_share(token), token, None, False))
    game = game_for_share(token)
    # Whether to offer "keep this game": only on the full page, for a quick game this phone
    # does not have yet (the ETag says which, so a tap's redirect shows the page without it).
    offer_keep = game.club_id is None and game_service.device_access(known_device(), game) is None
    etag = page_etag(game.etag, page=template, offer_keep=offer_keep)
    return conditional(etag, lambda: share_html(game, token, template, offer_keep), page=True)


@bp.get("/s/<token>")
def share(token: str) -> ResponseReturnValue:
    """The read-only page anyone at the table can open; it refreshes itself. A quick game
    offers a button to keep it on this phone's home list (to watch; edit rights are not given)."""
    return _share_page(token, "games/share.html")


@bp.post("/s/<token>/keep")
def keep(token: str) -> ResponseReturnValue:
    """The tap on "Keep this game on my phone": the game goes on this phone's home list."""
    game = game_for_share(token)
    if game.club_id is not None:  # a club's members find its games on the club's page
        abort(404)
    device = current_device()
    if game_service.device_access(device, game) is None:
        game_service.remember(device, game, can_edit=False)
    flash(_("This game is now on your phone's home page."), "success")
    return redirect(url_for("games.share", token=token))


@bp.get("/s/<token>/live")
def share_live(token: str) -> ResponseReturnValue:
    """The live part of the share page, polled with If-None-Match (304 when nothing changed)."""
    return _share_page(token, None)
