"""The round form's longer answers, when a round was not saved and what was typed is kept."""

from __future__ import annotations

from flask_babel import gettext as _


def busy() -> str:
    """The message when the database stayed busy: nothing saved, what was typed kept."""
    return _(
        "Too many scores are being saved right now, so this round was not saved. "
        "What you typed is still below: wait a moment and save again."
    )


def key_reused(saved: int) -> str:
    """The form's key already sent round `saved`, with other scores (an old copy of the page,
    offline): this round is not a repeat of it."""
    return _(
        "This round was not saved: the page it was typed on had already sent round %(number)s, "
        "with other scores. What you typed is below: check it and save again.",
        number=saved,
    )
