"""Who may see or score a game: the devices that created or opened it, and token holders."""

from __future__ import annotations

from flask import abort

from scorekeeper.devices import current_device
from scorekeeper.models import Game
from scorekeeper.services import games as game_service


def game_for_device(game_id: int, *, edit: bool = False, full: bool = True) -> tuple[Game, str]:
    """The game and this device's access ('edit' or 'view'); 404 if unknown or not shared with
    this device, 403 if it may only look but asked to edit.

    `full=False` loads only the game's row (rounds load on first use): enough for a cached chart.
    """
    game = game_service.load_game(game_id) if full else game_service.game_row(game_id)
    if game is None:
        abort(404)
    access = game_service.device_access(current_device(), game)
    if access is None:
        abort(404)
    if edit and access != "edit":
        abort(403)
    return game, access


def game_for_share(view_token: str, *, full: bool = True) -> Game:
    """The game a read-only share link points to, or 404."""
    game = game_service.game_by_token(view_token, edit=False, full=full)
    if game is None:
        abort(404)
    return game
