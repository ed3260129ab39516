"""Translating what the rules core says: its messages are marked with N_ and rendered here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Flask, has_request_context
from flask.globals import request_ctx
from flask_babel import format_number, get_translations, gettext
from jinja2 import pass_eval_context
from jinja2.nodes import EvalContext
from markupsafe import Markup

from scorekeeper.core import Problem

if TYPE_CHECKING:
    from babel.support import Translations


def problem_text(problem: Problem) -> str:
    """A core problem in the reader's language, with numbers grouped for that language."""
    params = {key: _number(value) for key, value in problem.params.items()}
    return gettext(problem.template, **params)


def _number(value: object) -> object:
    """Group a whole number's digits for the reader's language (absurd ones are left alone)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**15:
        return format_number(value)
    return value


def request_translations() -> Translations:
    """This request's translations, looked up once per request (Flask-Babel looks them up
    again for every string: locale, domain, cache key; a game page has dozens)."""
    if not has_request_context():
        return get_translations()
    ctx = request_ctx._get_current_object()
    found = getattr(ctx, "scorekeeper_translations", None)
    if found is None:
        found = ctx.scorekeeper_translations = get_translations()
    return found


def quick_gettext(string: str, **variables: object) -> str:
    """Flask-Babel's `gettext` (same catalogue, same result) through `request_translations`,
    for strings a page translates many times (a game's history lines)."""
    text = request_translations().ugettext(string)
    return text % variables if variables else text


def install_template_gettext(app: Flask) -> None:
    """Templates translate through the request's translations, looked up once per request
    (`request_translations`). Same catalogue, same results: only the lookup is kept. The
    callables are
    Jinja's "newstyle" ones (the string is always %-formatted, its values escaped), written
    flat: Jinja's own wrap each call in two more context calls (`_` -> `gettext` -> the
    function), which cost a game page with a round sheet about a third of a millisecond."""

    translations = request_translations

    def formatted(eval_ctx: EvalContext, text: str, variables: dict) -> str:
        return (Markup(text) if eval_ctx.autoescape else text) % variables

    @pass_eval_context
    def gettext(eval_ctx: EvalContext, string: str, /, **variables: object) -> str:
        return formatted(eval_ctx, translations().ugettext(string), variables)

    @pass_eval_context
    def ngettext(
        eval_ctx: EvalContext, singular: str, plural: str, num: int, /, **variables: object
    ) -> str:
        variables.setdefault("num", num)
        return formatted(eval_ctx, translations().ungettext(singular, plural, num), variables)

    @pass_eval_context
    def pgettext(eval_ctx: EvalContext, context: str, string: str, /, **variables: object) -> str:
        variables.setdefault("context", context)
        return formatted(eval_ctx, translations().upgettext(context, string), variables)

    @pass_eval_context
    def npgettext(
        eval_ctx: EvalContext,
        context: str,
        singular: str,
        plural: str,
        num: int,
        /,
        **variables: object,
    ) -> str:
        variables.setdefault("context", context)
        variables.setdefault("num", num)
        text = translations().unpgettext(context, singular, plural, num)
        return formatted(eval_ctx, text, variables)

    # Registers the extension's newstyle mode (how {% trans %} compiles), then the flat callables.
    app.jinja_env.install_gettext_callables(gettext, ngettext, newstyle=True)
    app.jinja_env.globals.update(
        _=gettext, gettext=gettext, ngettext=ngettext, pgettext=pgettext, npgettext=npgettext
    )
