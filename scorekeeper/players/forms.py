"""Player page forms: choosing the opponent for a head-to-head (a GET form, no JS needed)."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import SelectField, SubmitField


class OpponentForm(FlaskForm):
    """Pick another roster entry to compare with. It only reads (GET): no CSRF token."""

    class Meta:
        csrf = False

    opponent = SelectField(_l("Compare with"), coerce=int, validate_choice=True)
    submit = SubmitField(_l("Show head-to-head"))

    def set_choices(self, entries) -> None:
        """The roster entries to offer (RosterPlayer rows), in the order given."""
        self.opponent.choices = [(entry.id, entry.display_name) for entry in entries]
