"""Translating what the rules core says: its messages are marked with N_ and rendered here."""

from __future__ import annotations

from flask import Flask, has_request_context
from flask.globals import request_ctx
from flask_babel import format_number, get_translations, gettext

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


def install_template_gettext(app: Flask) -> None:
    """Templates translate through the request's translations, looked up once per request.

    Flask-Babel looks them up again for every string (locale, domain, cache key); a game page
    has dozens. Same catalogue, same results: only the lookup is kept."""

    def translations():
        if not has_request_context():
            return get_translations()
        ctx = request_ctx._get_current_object()
        found = getattr(ctx, "scorekeeper_translations", None)
        if found is None:
            found = ctx.scorekeeper_translations = get_translations()
        return found

    app.jinja_env.install_gettext_callables(
        gettext=lambda s: translations().ugettext(s),
        ngettext=lambda s, p, n: translations().ungettext(s, p, n),
        newstyle=True,
        pgettext=lambda c, s: translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: translations().unpgettext(c, s, p, n),
    )
