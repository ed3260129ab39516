"""App-wide error handlers: an HTML page for people, JSON for /api/ and JSON-only clients."""

from flask import Blueprint, jsonify, make_response, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from scorekeeper import limits
from scorekeeper.extensions import db

bp = Blueprint("errors", __name__)

HANDLED_CODES = (400, 403, 404, 405, 413, 422, 429, 500, 503)


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
    if code >= 500:
        # A failed flush or commit leaves the session unusable for the error page itself.
        db.session.rollback()
    message = error_message(code)
    wait = limits.retry_after(error)
    if wait is not None:
        error.retry_after = wait  # type: ignore[attr-defined]  (sent as Retry-After below)
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
        response = make_response(jsonify(error=message), code)
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
