"""Clubs: members and roles, invite links, the roster, club games, the public page."""

from flask import Blueprint

bp = Blueprint("clubs", __name__)

from scorekeeper.clubs import admin, importing, moving, views  # noqa: E402, F401  (routes register on bp)


@bp.app_template_global()
def move_game_form(game):
    """The "Move to a club" form for a quick game, or None: only for a signed-in person who
    scores in at least one club (the game page shows it to this game's scorers only)."""
    from flask_login import current_user

    from scorekeeper.clubs.forms import MoveGameForm
    from scorekeeper.services.clubs import clubs_to_move_into

    if game.club_id is not None or not current_user.is_authenticated:
        return None
    clubs = clubs_to_move_into(current_user)
    if not clubs:
        return None
    form = MoveGameForm(formdata=None)
    form.club_id.choices = [(club.id, club.name) for club in clubs]
    return form
