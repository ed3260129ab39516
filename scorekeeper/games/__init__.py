"""Game night: set up a game, record rounds, share it, chart it, print it."""

from flask import Blueprint

bp: Blueprint = Blueprint("games", __name__)  # typed: views/charts.py imports it back

from scorekeeper.games import views  # noqa: E402, F401  (routes register on bp)
from scorekeeper.games.domino import pip_positions  # noqa: E402
from scorekeeper.games.history import change_text  # noqa: E402

# Where the `domino` macro (templates/games/_macros.html) puts each half's pips.
bp.add_app_template_global(pip_positions)
# One line of a game's history in words (templates/games/_history.html).
bp.add_app_template_global(change_text)


@bp.app_template_global()
def game_title(game) -> str:
    """'Mexican Train · double-12' or 'Draw dominoes · to 100 points'."""
    from scorekeeper.i18n import quick_gettext as _

    if game.game_type == "draw":
        return _("Draw dominoes · to %(target)s points", target=game.target)
    return _("Mexican Train · double-%(set)s", set=game.set_size)


@bp.app_template_global()
def device_label(device):
    """A short label for the device a change came from."""
    from scorekeeper.web.devices import device_label as label

    return label(device)


@bp.app_template_global()
def format_datetime(value, style: str = "short") -> str:
    """A date and time in the reader's language and time zone (Flask-Babel)."""
    from flask_babel import format_datetime as babel_format

    return babel_format(value, style)
