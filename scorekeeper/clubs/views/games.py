"""A new club game, set up with the club's rules and roster."""

from __future__ import annotations

from flask import flash, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from scorekeeper import core
from scorekeeper.access import club_for
from scorekeeper.clubs import bp
from scorekeeper.clubs.forms import ClubSetupForm
from scorekeeper.services import club_games as club_game_service
from scorekeeper.services import clubs as club_service
from scorekeeper.services import roster as roster_service
from scorekeeper.web import limits
from scorekeeper.web.devices import current_device


def _render_setup(club, role, form, general=None, status=200) -> ResponseReturnValue:
    return render_template(
        "clubs/new_game.html",
        club=club,
        role=role,
        form=form,
        general=general or [],
        roster=roster_service.active_roster(club),
        recommend_table=[list(row) for row in core.setup.RECOMMENDED],
    ), status


@bp.route("/clubs/<id:club_id>/games/new", methods=["GET", "POST"])
@limits.new_games
def new_game(club_id: int) -> ResponseReturnValue:
    """Set up a club game: the club's rules prefilled, roster players offered, guests welcome."""
    back = url_for("clubs.new_game", club_id=club_id)
    club, role = club_for(club_id, "scorer", next_url=back)
    form = ClubSetupForm.for_club(club_service.default_rules(club))
    if form.add_player.data and len(form.players) < (form.players.max_entries or 0):
        form.players.append_entry()
        return _render_setup(club, role, form)
    if not form.validate_on_submit():
        expired = "csrf_token" in form.errors
        general = [_("The form expired: please press Start again.")] if expired else []
        return _render_setup(club, role, form, general, 400 if form.is_submitted() else 200)
    if form.show_typed_number_errors():
        return _render_setup(club, role, form, status=422)
    try:
        game = club_game_service.create_club_game(
            club,
            form.player_names(),
            form.rules(),
            form.teams(),
            device=current_device(),
            played_on=form.played_on.data,
        )
    except core.RuleError as error:
        return _render_setup(club, role, form, form.show_problems(error.problems), 422)
    # The draw game has hands, not rounds: its page says "Hand 1".
    draw = game.game_type == "draw"
    flash(_("Game on! Hand 1 is ready.") if draw else _("Game on! Round 1 is ready."), "success")
    return redirect(url_for("games.detail", game_id=game.id))
