"""The reader's language: which one a request is served in (cookie, account, club, phone), the
switcher's cookie, and translating what the rules core says (its messages are marked with N_).

Precedence, first found wins:
1. the language chosen with the switcher on this browser (the `lang` cookie);
2. the signed-in account's preference (the account page);
3. on a club's public and print pages, the club's default language (its settings), and on a
   chart, the language of the print page that shows it (`?lang=`);
4. the phone's `Accept-Language`;
5. English.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from flask import Flask, Response, current_app, g, has_request_context, request
from flask.globals import request_ctx
from flask_babel import force_locale, format_number, get_translations, gettext, refresh
from jinja2 import pass_eval_context
from jinja2.nodes import EvalContext
from markupsafe import Markup
from werkzeug.datastructures import LanguageAccept
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.config import SUPPORTED_LOCALES

# Where a request keeps the translations it looked up once (`request_translations`).
_TRANSLATIONS = "scorekeeper_translations"
# The switcher's cookie: the one language this browser asked for, kept a year.
LANGUAGE_COOKIE = "lang"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
# Each language named in itself, so a reader finds theirs whatever the page is in.
LANGUAGE_NAMES = {"en": "English", "fr": "Français", "es": "Español", "hi": "हिन्दी"}


# The languages a page may be served in: the shipped ones (a test may add a pseudo language it
# builds its own catalogue for, tests/test_pseudo_locale.py).
SERVED_LOCALES: tuple[str, ...] = tuple(SUPPORTED_LOCALES)


def locales() -> tuple[str, ...]:
    """The languages served."""
    return SERVED_LOCALES


def language_choices() -> list[tuple[str, str]]:
    """(code, name in itself) for every shipped language: the account and club settings."""
    return [(code, LANGUAGE_NAMES[code]) for code in SUPPORTED_LOCALES]


def select_locale() -> str | None:
    """The request's language (the precedence is in this module's docstring); outside a request
    (the flask commands), the shell's."""
    served = locales()
    if not has_request_context():
        return shell_locale(served, os.environ)
    for choice in (request.cookies.get(LANGUAGE_COOKIE), _account_locale(), g.get("club_locale")):
        if choice in served:
            return choice
    return phone_locale(served)


def phone_locale(served: tuple[str, ...], accept: LanguageAccept | None = None) -> str | None:
    """The served language the phone ranks highest: "hi-IN,en;q=0.5" is Hindi (Werkzeug's
    best_match would prefer the exact "en" over the regional "hi-IN"). `accept`: the
    request's Accept-Language unless given (polls.py reads it before Flask)."""
    for value, _quality in accept if accept is not None else request.accept_languages:
        code = value.replace("_", "-").split("-")[0].lower()
        if code in served:
            return code
    return None


def shell_locale(served: tuple[str, ...], environ: Mapping[str, str]) -> str | None:
    """The first served language the shell asks for: LANGUAGE ("fr:en"), LC_ALL, LC_MESSAGES
    or LANG ("hi_IN.UTF-8"); None (the default) for "C", "POSIX" or nothing served."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for wanted in environ.get(name, "").split(":"):
            code = wanted.split(".")[0].split("@")[0].split("_")[0].lower()
            if code in served:
                return code
        if environ.get(name):  # the first variable set decides, as gettext does
            return None
    return None


def _account_locale() -> str | None:
    from flask_login import current_user

    return getattr(current_user, "locale", None)


def prefer_locale(locale: str | None) -> None:
    """This page's own default language, below the reader's choice (cookie or account): a club's
    default on its public and print pages, or the `?lang=` a print page put on its chart's URL.
    Called by the view before it renders."""
    g.club_locale = locale
    refresh()  # Flask-Babel keeps the language it picked for the request: pick again
    # Flask types request_ctx as the RequestContext; it is a LocalProxy to it.
    vars(request_ctx._get_current_object()).pop(_TRANSLATIONS, None)  # type: ignore[attr-defined]


@contextmanager
def speaking(locale: str | None) -> Iterator[None]:
    """Words made inside are in `locale`, then the request's language again: a mail to an
    account is in the account's own language, whoever's browser asked for it. None, or a
    language this server does not serve: the request's language."""
    if not locale or locale not in locales():
        yield
        return
    ctx = request_ctx._get_current_object() if has_request_context() else None  # type: ignore[attr-defined]
    kept = vars(ctx).pop(_TRANSLATIONS, None) if ctx is not None else None
    try:
        with force_locale(locale):
            yield
    finally:
        if ctx is not None:
            vars(ctx).pop(_TRANSLATIONS, None)
            if kept is not None:
                setattr(ctx, _TRANSLATIONS, kept)


def remember_language(response: BaseResponse, locale: str) -> BaseResponse:
    """Keep `locale` in this browser's switcher cookie (no database: works without an account)."""
    response.set_cookie(
        LANGUAGE_COOKIE,
        locale,
        max_age=LANGUAGE_COOKIE_AGE,
        httponly=True,
        samesite="Lax",
        secure=bool(current_app.config.get("SECURE_COOKIES")),
    )
    return response


def vary_on_language(response: Response) -> Response:
    """Every answer depends on the language: caches must not give one reader's to another."""
    if "Vary" not in response.headers:  # the usual case, without parsing a header set
        response.headers["Vary"] = "Accept-Language, Cookie"
        return response
    response.vary.add("Accept-Language")
    response.vary.add("Cookie")
    return response


if TYPE_CHECKING:
    from babel.support import Translations


@runtime_checkable
class Worded(Protocol):
    """Words the app does not translate where they are made: a gettext template (marked with
    N_) and its values. The core's Problem, and the importer's ImportProblem and Phrase."""

    @property
    def template(self) -> str: ...

    @property
    def params(self) -> Mapping[str, object]: ...


def problem_text(problem: Worded) -> str:
    """A core problem (or an import's refusal) in the reader's language, with numbers grouped
    for that language; words among its values are translated too, several joined by `; `."""
    params = {key: _value(value) for key, value in problem.params.items()}
    return gettext(problem.template, **params)


def _value(value: object) -> object:
    """One value of a problem as the reader sees it: words translated, numbers grouped."""
    if isinstance(value, str | int):  # most are (and the protocol's check is slower)
        return _number(value)
    if isinstance(value, Worded):
        return problem_text(value)
    if isinstance(value, tuple):
        return "; ".join(str(_value(item)) for item in value)
    return _number(value)


def _number(value: object) -> object:
    """Group a whole number's digits for the reader's language (absurd ones are left alone)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**15:
        return format_number(value)
    return value


def init_app(app: Flask) -> None:
    """Templates translate once per request; every answer varies with the language."""
    install_template_gettext(app)
    app.after_request(vary_on_language)


def request_translations() -> Translations:
    """This request's translations, looked up once per request (Flask-Babel looks them up
    again for every string: locale, domain, cache key; a game page has dozens)."""
    if not has_request_context():
        return get_translations()
    ctx = request_ctx._get_current_object()  # type: ignore[attr-defined]
    found = getattr(ctx, _TRANSLATIONS, None)
    if found is None:
        found = get_translations()
        setattr(ctx, _TRANSLATIONS, found)
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
    # jinja2.ext.i18n adds this method at run time (Environment.extend): its types cannot say so.
    app.jinja_env.install_gettext_callables(gettext, ngettext, newstyle=True)  # type: ignore[attr-defined]
    app.jinja_env.globals.update(
        _=gettext, gettext=gettext, ngettext=ngettext, pgettext=pgettext, npgettext=npgettext
    )
