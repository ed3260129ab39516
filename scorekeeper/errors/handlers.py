"""App-wide error handlers: an HTML page for people, JSON for /api/ and JSON-only clients."""

import sys

from flask import Blueprint, current_app, make_response, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import (
    HTTPException,
    InternalServerError,
    SecurityError,
    ServiceUnavailable,
)

from scorekeeper.extensions import db
from scorekeeper.services.games import Busy
from scorekeeper.web import limits
from scorekeeper.web.responses import json_error

bp = Blueprint("errors", __name__)

HANDLED_CODES = (400, 403, 404, 405, 413, 422, 429, 500, 503)
# Seconds a client is asked to wait before sending again when the database is busy.
RETRY_AFTER = 1
# PostgreSQL: deadlock_detected, serialization_failure, lock_not_available. The request gave way
# to another; sent again it will most likely go through.
BUSY_SQLSTATES = frozenset({"40P01", "40001", "55P03"})
# SQLite: the write lock stayed taken past the busy timeout.
BUSY_SQLITE_MESSAGES = ("database is locked", "database table is locked")


def error_message(code: int) -> str:
    """Return a translated, player-friendly sentence for an HTTP error code."""
    messages = {
        400: _("Something in that request didn't make sense. Please go back and try again."),
        403: _("You don't have permission to do that."),
        404: _("We couldn't find that page."),
        405: _("That page can't be used that way."),
        413: _("That upload is too large."),
        422: _("Some of what you entered couldn't be used. Please check it and try again."),
        429: _("Too many requests from your connection in a short time. Nothing was saved."),
        500: _("Something went wrong on our side. Your scores are safe; please try again."),
        503: _("The server is busy right now. Nothing was lost; please try again shortly."),
    }
    if code == 503 and request.method not in ("GET", "HEAD", "OPTIONS"):
        return _(
            "Too many scores are being saved right now, so this was not saved. "
            "Wait a moment and send it again."
        )
    return messages.get(code, _("Something went wrong."))


def wants_json() -> bool:
    """True for API paths and for clients that accept JSON but not HTML."""
    if request.path.startswith("/api/"):
        return True
    accept = request.accept_mimetypes
    return accept.accept_json and not accept.accept_html


def handle_http_error(error: HTTPException) -> ResponseReturnValue:
    """Render the error as JSON or as a page, keeping headers such as Allow."""
    code = error.code or 500
    if isinstance(error, SecurityError):
        # A Host the app does not serve (TRUSTED_HOSTS): no page of ours links anywhere from
        # there, so the answer is plain text built without a URL.
        message = _("This server does not answer for that address.")
        return make_response(message, 400, {"Content-Type": "text/plain; charset=utf-8"})
    if code >= 500:
        # A failed flush or commit leaves the session unusable for the error page itself.
        db.session.rollback()
    message = error_message(code)
    wait = limits.retry_after(error)
    if wait is not None:
        error.retry_after = wait  # type: ignore[attr-defined]  # get_headers() sends it below
        message = " ".join(
            (
                message,
                ngettext("Try again in %(num)d second.", "Try again in %(num)d seconds.", wait),
            )
        )
    if isinstance(error, CSRFError):
        message = _(
            "The form expired or came from another site, so nothing was saved. "
            "Go back, reload the page and send it again."
        )
    if wants_json():
        response = json_error(message, code)
    else:
        page = render_template(
            [f"errors/{code}.html", "errors/error.html"], code=code, message=message
        )
        response = make_response(page, code)
    for name, value in error.get_headers():
        if name.lower() != "content-type":
            response.headers[name] = value
    return response


for _code in HANDLED_CODES:
    bp.app_errorhandler(_code)(handle_http_error)


def busy_database(error: BaseException) -> bool:
    """True for a database error that only says "busy, try again": a lost deadlock or
    serialization check, a lock not granted in time, no free connection in the pool."""
    if isinstance(error, Busy | PoolTimeout):
        return True
    if not isinstance(error, DBAPIError):
        return False
    if getattr(error.orig, "sqlstate", None) in BUSY_SQLSTATES:
        return True
    return any(text in str(error.orig).lower() for text in BUSY_SQLITE_MESSAGES)


def handle_database_error(error: Exception) -> ResponseReturnValue:
    """503 with Retry-After when the database is only busy; any other database error is a 500
    (logged as Flask logs an unhandled one)."""
    if not busy_database(error):
        current_app.log_exception(sys.exc_info())
        return handle_http_error(InternalServerError(original_exception=error))
    current_app.logger.warning("database busy, answered 503: %s", error)
    busy = ServiceUnavailable(retry_after=RETRY_AFTER)
    return handle_http_error(busy)


for _error in (Busy, DBAPIError, PoolTimeout):
    bp.app_errorhandler(_error)(handle_database_error)
