"""Translating what the rules core says: its messages are marked with N_ and rendered here."""

from __future__ import annotations

from flask_babel import format_number, gettext

from scorekeeper.core import Problem


def problem_text(problem: Problem) -> str:
    """A core problem in the reader's language, with numbers grouped for that language."""
    params = {
        key: format_number(value)
        if isinstance(value, int) and not isinstance(value, bool)
        else value
        for key, value in problem.params.items()
    }
    return gettext(problem.template, **params)
