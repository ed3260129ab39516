"""A game's history in words: each `Change` (a history line) as the reader's language says it.

The history keeps what happened in plain, untranslated values ("out (6-4)", "15 +10",
"joined late (average)"); they are put into words here, when a page shows them."""

from __future__ import annotations

from flask_babel import gettext

from scorekeeper.i18n import quick_gettext as _


def change_text(change) -> str:
    """One line of a game's history, in words."""
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
    if value == "out" or value.startswith("out "):
        return gettext("went out") + value[3:]
    if value.endswith(" (away)"):
        return gettext("%(score)s (away: left the game)", score=value[: -len(" (away)")])
    return value
