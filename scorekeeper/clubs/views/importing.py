"""Create a club from an export file uploaded on the web.

The file goes through the same checks as `flask import-club` (services.importer: size, depth,
schema, references, every round through the rules core); a refused file changes nothing and the
reason shows next to the file field. Unlike the CLI, an upload touches nobody else's account:
the uploader becomes the owner, and the people the file names are listed to be invited.

The upload may be larger than the app's MAX_CONTENT_LENGTH (up to the importer's
IMPORT_MAX_BYTES), so this view is exempt from the global CSRF check (which would read the body
under the smaller limit first) and checks the CSRF token itself once the limit is raised.
"""

from __future__ import annotations

from flask import current_app, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import format_number
from flask_babel import gettext as _
from werkzeug.exceptions import RequestEntityTooLarge

from scorekeeper.access import signed_in_user
from scorekeeper.clubs import bp
from scorekeeper.clubs.forms import ImportForm
from scorekeeper.extensions import csrf
from scorekeeper.i18n import problem_text
from scorekeeper.services import importer
from scorekeeper.web import limits

# Room for the multipart envelope and the CSRF field around a file of the largest size.
FORM_ROOM = 64 * 1024
# A file over the limit is read and dropped up to this many bytes, so the browser, still
# sending, gets the page that says why instead of a closed connection; past it, it is closed.
DRAIN_MAX = 64 * 1024 * 1024


def _upload_limit() -> int:
    return int(current_app.config.get("IMPORT_MAX_BYTES", importer.IMPORT_MAX_BYTES))


def _render(form: ImportForm, user, status: int = 200) -> ResponseReturnValue:
    confirmed = user.email_verified_at is not None
    return render_template("clubs/import.html", form=form, confirmed=confirmed), status


def _drain() -> None:
    """Read and drop the rest of a refused upload (up to DRAIN_MAX bytes): a server that
    answers while the client is still sending closes the connection on it, and the browser
    shows a network error instead of our reason."""
    stream = request.environ.get("wsgi.input")
    left = min(request.content_length or 0, DRAIN_MAX)
    while stream is not None and left > 0:
        chunk = stream.read(min(left, 1 << 16))
        if not chunk:
            break
        left -= len(chunk)


def _refused(message: str, status: int, user) -> ResponseReturnValue:
    """The page again with `message` next to the file field (there is nothing else to keep)."""
    form = ImportForm(formdata=None)
    form.file.errors = [message]
    return _render(form, user, status)


@bp.route("/clubs/import", methods=["GET", "POST"])
@limits.imports
@csrf.exempt
def import_club() -> ResponseReturnValue:
    """Upload a club's export file: a new club with me as its owner, or why the file is refused."""
    user = signed_in_user(url_for("clubs.import_club"))
    if request.method != "POST":
        return _render(ImportForm(formdata=None), user)
    request.max_content_length = _upload_limit() + FORM_ROOM
    try:
        if current_app.config["WTF_CSRF_ENABLED"]:
            csrf.protect()  # reads the body, now under the raised limit
        form = ImportForm()
        valid = form.validate()
    except RequestEntityTooLarge:
        _drain()
        message = _(
            "The file is larger than %(limit)s bytes: it is not a club export. Nothing was "
            "imported.",
            limit=format_number(_upload_limit()),
        )
        return _refused(message, 413, user)
    if user.email_verified_at is None:
        message = _(
            "Confirm your email address first: follow the link we mailed you (your account "
            "page sends it again), then upload the file again."
        )
        return _refused(message, 403, user)
    if not valid:
        return _render(form, user, 400)
    try:
        report = importer.import_club(importer.read_document(form.file.data.stream), owner=user)
    except importer.ImportProblem as problem:
        # The importer's reason, in the reader's language, names the place in the file
        # (e.g. games[2].rounds[0]), which stays as the file writes it.
        reason = problem_text(problem)
        return _refused(_("This file was refused: %(reason)s", reason=reason), 422, user)
    return render_template("clubs/imported.html", report=report, club=report.club)
