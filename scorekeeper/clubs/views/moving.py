"""Moving a quick game into a club, from the game's page (by a scorer of both).

Views are thin: check who asks (access), read the form, call one service, flash, redirect.
"""

from __future__ import annotations

from flask import abort, flash, redirect, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from scorekeeper.access import club_for, signed_in_user
from scorekeeper.clubs import bp
from scorekeeper.forms import MoveToClubForm
from scorekeeper.services import club_games as club_game_service
from scorekeeper.services import clubs as club_service
from scorekeeper.services import games as game_service
from scorekeeper.web.devices import current_device


@bp.post("/games/<id:game_id>/move")
def move_game(game_id: int) -> ResponseReturnValue:
    """Move a quick game into a club: needs edit rights on this device and scorer in the club."""
    back = url_for("games.detail", game_id=game_id)
    user = signed_in_user(back)
    game = game_service.game_row(game_id)
    if game is None:
        abort(404)
    if game.club_id is not None:
        if club_service.role_in(user, game.club_id) is None:
            abort(404)
        flash(_("This game already belongs to a club."), "error")
        return redirect(back)
    access = game_service.device_access(current_device(), game)
    if access is None:
        abort(404)
    if access != "edit":
        abort(403)
    form = MoveToClubForm()
    if not form.validate() or form.club_id.data is None:
        flash(_("Choose the club to move the game to."), "error")
        return redirect(back)
    club, _role = club_for(form.club_id.data, "scorer", next_url=back)
    moved = club_game_service.move_game_to_club(game, club)
    flash(_("The game now belongs to %(club)s.", club=club.name), "success")
    if moved.added:
        flash(
            _(
                "Added to the roster: %(names)s (no roster player had these names).",
                names=", ".join(moved.added),
            ),
            "info",
        )
    return redirect(back)
