"""Undo, end and reopen: a second step before anything is taken back or ended."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from scorekeeper import core
from scorekeeper.access import game_for_device
from scorekeeper.games import bp
from scorekeeper.games.views.common import RECORD_ANCHOR
from scorekeeper.services import games as game_service
from scorekeeper.services.games import snapshot_of
from scorekeeper.web import limits
from scorekeeper.web.devices import current_device


def _confirmed() -> bool:
    """The scorer pressed the confirmation page's button (a first POST only asks)."""
    return request.form.get("confirm") == "yes"


@bp.post("/games/<id:game_id>/undo")
@limits.round_writes
def undo(game_id: int) -> ResponseReturnValue:
    """Take back the last round (it stays in the history), once the scorer confirms."""
    game, _access = game_for_device(game_id, edit=True)
    number = core.parse_points(request.form.get("number"))
    if not _confirmed():
        snapshot = snapshot_of(game)
        if snapshot.results and number in (None, snapshot.numbers[-1]):
            return render_template(
                "games/confirm.html",
                game=game,
                kind="undo",
                number=snapshot.numbers[-1],
                result=snapshot.results[-1],
                finished=snapshot.state.finished,
            )
    try:
        undone = game_service.undo_last_round(game, device=current_device(), number=number)
    except LookupError:
        flash(_("There is no round to undo."), "error")
    except game_service.StaleGame:
        flash(_("The last round changed on another phone: nothing was undone."), "error")
    else:
        flash(_("Round %(number)s undone.", number=undone), "success")
        return redirect(url_for("games.detail", game_id=game_id, _anchor=RECORD_ANCHOR))
    return redirect(url_for("games.detail", game_id=game_id))


@bp.post("/games/<id:game_id>/end")
def end(game_id: int) -> ResponseReturnValue:
    """End the game now, as the table agreed, once the scorer confirms: the standings become
    final (a game ended by mistake can be reopened)."""
    game, _access = game_for_device(game_id, edit=True)
    snapshot = snapshot_of(game)
    if snapshot.state.finished:
        return redirect(url_for("games.detail", game_id=game_id, _anchor="standings"))
    if not _confirmed():
        return render_template(
            "games/confirm.html", game=game, kind="end", state=snapshot.state, finished=False
        )
    try:
        game_service.end_game(game, device=current_device())
    except game_service.StaleGame:
        flash(_("The game changed on another phone: it was not ended. Check it first."), "error")
        return redirect(url_for("games.detail", game_id=game_id))
    flash(_("The game is over. Here are the final standings."), "success")
    return redirect(url_for("games.detail", game_id=game_id, _anchor="standings"))


@bp.post("/games/<id:game_id>/reopen")
def reopen(game_id: int) -> ResponseReturnValue:
    """Play on after the game was ended by mistake (the history keeps both steps)."""
    game, _access = game_for_device(game_id, edit=True)
    try:
        game_service.reopen_game(game, device=current_device())
    except game_service.GameOver:
        flash(_("Every round is played: undo the last round to play it again."), "error")
    except game_service.StaleGame:
        flash(_("The game changed on another phone: it was not reopened."), "error")
    else:
        flash(_("The game is open again."), "success")
        return redirect(url_for("games.detail", game_id=game_id, _anchor=RECORD_ANCHOR))
    return redirect(url_for("games.detail", game_id=game_id))
