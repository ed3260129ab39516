"""Setting up a game: four names and Start is enough."""

from __future__ import annotations

from flask import flash, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from scorekeeper import core
from scorekeeper.forms import SetupForm
from scorekeeper.games import bp
from scorekeeper.i18n import problem_text
from scorekeeper.services import games as game_service
from scorekeeper.services.games import snapshot_of
from scorekeeper.web import limits
from scorekeeper.web.devices import current_device


@bp.route("/games/new", methods=["GET", "POST"])
@limits.new_games
def new() -> ResponseReturnValue:
    """Set up a game: four names and Start is enough."""
    form = SetupForm()
    if form.add_player.data and len(form.players) < (form.players.max_entries or 0):
        form.players.append_entry()
        return _render_setup(form)
    if not form.validate_on_submit():
        expired = "csrf_token" in form.errors
        general = [_("The form expired: please press Start again.")] if expired else []
        return _render_setup(form, general, 400 if form.is_submitted() else 200)
    if form.show_typed_number_errors():
        return _render_setup(form, status=422)
    try:
        game = game_service.create_game(
            form.player_names(), form.rules(), form.teams(), device=current_device()
        )
    except core.RuleError as error:
        return _render_setup(form, form.show_problems(error.problems), 422)
    # The draw game has hands, not rounds: its page says "Hand 1".
    draw = game.game_type == "draw"
    flash(_("Game on! Hand 1 is ready.") if draw else _("Game on! Round 1 is ready."), "success")
    if warning := core.set_warning(snapshot_of(game).setup):  # a set too small for the table
        flash(problem_text(warning), "warning")
    return redirect(url_for("games.detail", game_id=game.id))


def _render_setup(
    form: SetupForm, general: list[str] | None = None, status: int = 200
) -> ResponseReturnValue:
    return (
        render_template(
            "games/new.html",
            form=form,
            general=general or [],
            recommend_table=[list(row) for row in core.setup.RECOMMENDED],
        ),
        status,
    )
