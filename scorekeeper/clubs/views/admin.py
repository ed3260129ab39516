"""A club's history (who deleted what) and deleting the whole club, with its export offered on
the same page first.

Views are thin: check who asks (access), read the form, call one service, flash, redirect.
"""

from __future__ import annotations

from flask import flash, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from scorekeeper.access import club_for, signed_in_user
from scorekeeper.clubs import bp
from scorekeeper.clubs.forms import DeleteClubForm
from scorekeeper.i18n import problem_text
from scorekeeper.services import removals
from scorekeeper.services.clubs import ClubError


@bp.get("/clubs/<id:club_id>/history")
def history(club_id: int) -> ResponseReturnValue:
    """What was deleted in the club, by whom and when, newest first."""
    club, role = club_for(club_id)
    events = removals.history_of(club)
    return render_template("clubs/history.html", club=club, role=role, events=events)


@bp.route("/clubs/<id:club_id>/delete", methods=["GET", "POST"])
def delete(club_id: int) -> ResponseReturnValue:
    """The owner deletes the club: the page offers its export, then asks for its name."""
    back = url_for("clubs.delete", club_id=club_id)
    club, role = club_for(club_id, "owner", next_url=back)
    form = DeleteClubForm()
    if not form.validate_on_submit():
        status = 422 if form.is_submitted() else 200
        return render_template("clubs/delete.html", club=club, role=role, form=form), status
    try:
        name = removals.delete_club(club, signed_in_user(), form.name.data or "")
    except ClubError as error:
        form.name.errors = [problem_text(problem) for problem in error.problems]
        return render_template("clubs/delete.html", club=club, role=role, form=form), 422
    flash(_("The club “%(name)s” and all its records are deleted.", name=name), "success")
    return redirect(url_for("clubs.index"))
