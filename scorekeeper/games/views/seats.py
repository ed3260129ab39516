"""A player who leaves the table, and comes back (RULES.md section 11): two POST buttons."""

from __future__ import annotations

from collections.abc import Callable

from flask import flash, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from scorekeeper import core
from scorekeeper.access import game_for_device
from scorekeeper.games import bp
from scorekeeper.i18n import problem_text
from scorekeeper.services import games as game_service
from scorekeeper.web.devices import current_device


@bp.post("/games/<id:game_id>/leave")
def leave(game_id: int) -> ResponseReturnValue:
    """A player leaves: from the next round their hand is not asked, each round they miss
    takes the round's highest score (Mexican Train) or nothing (draw game)."""
    return _seat_change(game_id, game_service.leave, left=True)


@bp.post("/games/<id:game_id>/back")
def come_back(game_id: int) -> ResponseReturnValue:
    """A player who left plays again from the next round."""
    return _seat_change(game_id, game_service.come_back, left=False)


def _seat_change(game_id: int, change: Callable[..., int], *, left: bool) -> ResponseReturnValue:
    game, _access = game_for_device(game_id, edit=True)
    name = (request.form.get("player") or "").strip()[:40]
    try:
        number = change(game, name, device=current_device())
    except core.RuleError as error:
        flash(" ".join(problem_text(problem) for problem in error.problems), "error")
    except (game_service.StaleGame, game_service.Busy):
        flash(_("The game changed on another phone meanwhile: nothing was changed."), "error")
    else:
        if left:
            flash(_("%(name)s left after round %(n)s.", name=name, n=number), "success")
        else:
            flash(_("%(name)s is back from round %(n)s.", name=name, n=number), "success")
    return redirect(url_for("games.detail", game_id=game_id, _anchor="record"))
