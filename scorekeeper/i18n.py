"""Translating what the rules core says: its messages are marked with N_ and rendered here."""

from __future__ import annotations

from flask_babel import format_number, gettext

from scorekeeper.core import Problem


def problem_text(problem: Problem) -> str:
    """A core problem in the reader's language, with numbers grouped for that language."""
    params = {key: _number(value) for key, value in problem.params.items()}
    return gettext(problem.template, **params)


def _number(value: object) -> object:
    """Group a whole number's digits for the reader's language (absurd ones are left alone)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**15:
        return format_number(value)
    return value
