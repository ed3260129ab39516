"""Game night: set up a game, record rounds, share it, chart it, print it."""

from flask import Blueprint

bp: Blueprint = Blueprint("games", __name__)  # typed: views/charts.py imports it back

from scorekeeper.games import views  # noqa: E402, F401  (routes register on bp)
from scorekeeper.games.domino import pip_positions  # noqa: E402

# Where the `domino` macro (templates/games/_macros.html) puts each half's pips.
bp.add_app_template_global(pip_positions)


@bp.app_template_global()
def game_title(game) -> str:
    """'Mexican Train · double-12' or 'Draw dominoes · to 100 points'."""
    from scorekeeper.i18n import quick_gettext as _

    if game.game_type == "draw":
        return _("Draw dominoes · to %(target)s points", target=game.target)
    return _("Mexican Train · double-%(set)s", set=game.set_size)


@bp.app_template_global()
def change_text(change) -> str:
    """One line of a game's history, in words."""
    from scorekeeper.i18n import quick_gettext as _

    values = {
        "round": change.round_number,
        "player": change.player or "",
        "old": _hand_words(change.old_value or ""),
        "new": _hand_words(change.new_value or ""),
    }
    if change.action == "created":
        return _("Game created: %(new)s", **values)
    if change.action == "joined late":
        rules = {
            "highest": _("missed rounds scored at the round's highest score"),
            "average": _("missed rounds scored at the round's average"),
            "zero": _("missed rounds scored 0"),
        }
        rule = next((text for key, text in rules.items() if f"({key})" in values["new"]), "")
        return _("%(player)s joined late at round %(round)s: %(rule)s", rule=rule, **values)
    if change.action == "left":
        return _("%(player)s left the game after round %(round)s", **values)
    if change.action == "came back":
        return _("%(player)s came back at round %(round)s", **values)
    if change.action == "ended":
        return _("Game ended by the table")
    if change.action == "reopened":
        return _("Game reopened: play goes on")
    if change.action == "undone":
        return _("Round %(round)s undone: %(player)s had %(old)s", **values)
    if change.action == "edited":
        if change.player:
            return _("Round %(round)s, %(player)s: %(old)s → %(new)s", **values)
        return _("Round %(round)s: %(old)s → %(new)s", **values)
    if change.player:
        return _("Round %(round)s, %(player)s: %(new)s", **values)
    return _("Round %(round)s: %(new)s", **values)


def _hand_words(value: str) -> str:
    """A hand as the history keeps it ("out", "out (6-4)", "15 +10"), its word translated."""
    from flask_babel import gettext as _

    if value == "out" or value.startswith("out "):
        return _("went out") + value[3:]
    if value.endswith(" (away)"):
        return _("%(score)s (away: left the game)", score=value[: -len(" (away)")])
    return value


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
