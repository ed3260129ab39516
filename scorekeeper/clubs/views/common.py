"""What several of the clubs blueprint's modules share: problems shown next to their fields or
flashed, a refused choice, a role's name in words."""

from __future__ import annotations

from flask import flash
from flask_babel import gettext as _
from flask_wtf import FlaskForm

from scorekeeper.i18n import problem_text
from scorekeeper.services.clubs import ClubError


def put_problems(form: FlaskForm, problems, aliases=None) -> list[str]:
    """Show each problem next to its field; return those that belong to no field."""
    general: list[str] = []
    for problem in problems:
        name = (aliases or {}).get(problem.field, problem.field)
        if name and name in form:
            form[name].errors = [*form[name].errors, problem_text(problem)]
        else:
            general.append(problem_text(problem))
    return general


def flash_problems(error: ClubError) -> None:
    """Each of a refused change's problems as a message on the next page."""
    for problem in error.problems:
        flash(problem_text(problem), "error")


def choice_refused() -> None:
    """A button form that did not validate (a tampered choice): say so, in one message."""
    flash(_("That did not work: please check your choice and try again."), "error")


def role_name(role: str) -> str:
    """A club role in the reader's language."""
    return {"owner": _("owner"), "scorer": _("scorer"), "viewer": _("viewer")}[role]
