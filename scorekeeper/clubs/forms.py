"""Club forms: the club, its settings, members' roles, invites, the roster, club game setup.

Forms only read what was typed; what a club allows is checked by services.clubs and the core.
"""

from __future__ import annotations

from typing import cast

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import (
    BooleanField,
    DateField,
    HiddenField,
    SelectField,
    StringField,
    SubmitField,
)
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # new in WTForms 3.3, not in types-WTForms 3.2
from wtforms.validators import Length, Optional, ValidationError

from scorekeeper import core
from scorekeeper.forms import (
    HouseRuleFields,
    SetupForm,
    house_rule_data,
    language_field,
    optional_id,
)
from scorekeeper.services import games as game_service
from scorekeeper.services.clubs import DEFAULT_INVITE_DAYS, INVITE_DAYS, default_rules

ROLE_LABELS = {
    "viewer": _l("Viewer (sees the club's games)"),
    "scorer": _l("Scorer (also records rounds and sets up games)"),
}


def _role_choices() -> list[SelectChoice]:
    return [SelectChoice(role, label) for role, label in ROLE_LABELS.items()]


class ClubForm(FlaskForm):
    """Start a club."""

    name = StringField(_l("Club name"), validators=[Length(max=200)])
    submit = SubmitField(_l("Create the club"))


class ImportForm(FlaskForm):
    """Create a club from an export file (the JSON of a club's Export)."""

    file = FileField(
        _l("Export file (.json)"),
        validators=[FileRequired(_l("Choose the export file (.json) to upload."))],
    )
    submit = SubmitField(_l("Create the club from this file"))


class SettingsForm(HouseRuleFields):
    """The owner's settings: name, default rules (the setup screen's own fields), public page."""

    name = StringField(_l("Club name"), validators=[Length(max=200)])
    # The same fields as the game setup screen, so the choices and labels stay one list (the
    # house rules' come with HouseRuleFields). Read on a class they are UnboundFields; cast,
    # each is the field it is bound as (WTForms' types).
    set_size = cast(SelectField, SetupForm.set_size)
    blank_scoring = cast(SelectField, SetupForm.blank_scoring)
    rounds = cast(StringField, SetupForm.rounds)
    order = cast(SelectField, SetupForm.order)
    public = BooleanField(_l("Turn on the public page"))
    table_links = BooleanField(_l("Table links: players send their own hands"))
    locale = language_field(
        _l("Language of the public and print pages"), _l("As each phone is set")
    )
    submit = SubmitField(_l("Save settings"))

    def rules(self) -> core.GameRules:
        """The default rules chosen, as the core's GameRules."""
        return core.GameRules(
            set_size=int(self.set_size.data or 12),
            blank_scoring=core.BlankScoring(self.blank_scoring.data or "face"),
            rounds=core.parse_points(self.rounds.data) if self.rounds.data else None,
            order=core.Order(self.order.data or "descending"),
            house_rules=self.house_rules(),
        )

    def typed_number_errors(self) -> dict[str, str]:
        """Rounds typed as something that is not a whole number (the core never sees it)."""
        if (self.rounds.data or "").strip() and core.parse_points(self.rounds.data) is None:
            return {"rounds": str(_l("Enter a whole number, or leave it empty."))}
        return {}

    @classmethod
    def for_club(cls, club) -> SettingsForm:
        """The form, prefilled with the club's settings (what was posted wins)."""
        return cls(
            data={
                "name": club.name,
                "set_size": str(club.set_size),
                "blank_scoring": club.blank_scoring,
                "rounds": "" if club.rounds is None else str(club.rounds),
                "order": club.order,
                **house_rule_data(default_rules(club).house_rules),
                "public": club.public,
                "table_links": club.table_links,
                "locale": club.locale or "",
            }
        )


class RoleForm(FlaskForm):
    """The owner gives a member another role."""

    role = SelectField(_l("Role"), choices=_role_choices())
    submit = SubmitField(_l("Change role"))


class TransferForm(FlaskForm):
    """The owner hands the club to another member."""

    user_id = SelectField(_l("New owner"), coerce=optional_id, choices=[])
    submit = SubmitField(_l("Transfer ownership"))


class InviteForm(FlaskForm):
    """An invite link: the role it gives and how long it works."""

    role = SelectField(_l("Joins as"), choices=_role_choices(), default="viewer")
    days = SelectField(
        _l("Link works for"),
        coerce=optional_id,
        choices=[
            SelectChoice(days, _l("1 day") if days == 1 else _l("%(n)s days", n=days))
            for days in INVITE_DAYS
        ],
        default=DEFAULT_INVITE_DAYS,
    )
    submit = SubmitField(_l("Create the invite link"))


class RosterPlayerForm(FlaskForm):
    """A roster entry: display name and, optionally, a member's account."""

    display_name = StringField(_l("Name"), validators=[Length(max=200)])
    user_id = SelectField(_l("Member's account"), coerce=optional_id, choices=[])
    submit = SubmitField(_l("Save"))

    def set_members(self, members, linked=None) -> None:
        """Offer the club's members' accounts, 'none', and the account linked now (`linked`,
        a User: it stays on offer after its owner left the club)."""
        choices = [SelectChoice(m.user_id, m.user.name) for m in members]
        if linked is not None and all(m.user_id != linked.id for m in members):
            choices.append(SelectChoice(linked.id, linked.name))
        self.user_id.choices = [SelectChoice("", _l("Not linked"))] + choices


class MergeForm(FlaskForm):
    """Two roster entries that are the same person."""

    keep = SelectField(_l("Keep"), coerce=optional_id, choices=[])
    drop = SelectField(_l("Merge into it (then archived)"), coerce=optional_id, choices=[])
    submit = SubmitField(_l("Merge"))

    def set_roster(self, entries) -> None:
        """Offer every roster entry that was not merged already."""
        choices = [SelectChoice(e.id, e.display_name) for e in entries]
        self.keep.choices = [SelectChoice("", _l("Choose…"))] + choices
        self.drop.choices = [SelectChoice("", _l("Choose…"))] + list(choices)


class LinkGuestsForm(FlaskForm):
    """The owner's one click: the guest seats the preview showed, by id ("12,15")."""

    seats = HiddenField()
    submit = SubmitField(_l("Link these guests to the roster"))

    def seat_ids(self) -> set[int]:
        """The seat ids sent back (anything else in the field is ignored)."""
        text = self.seats.data or ""
        return {int(part) for part in text.split(",") if part.isascii() and part.isdigit()}


class ClubSetupForm(SetupForm):
    """The game setup screen inside a club: the club's default rules are prefilled; each name
    typed is a roster player when it matches one (the page offers them), else a guest.

    `played_on`: left empty for a game played now; a game entered after the fact is given the
    day it was played, which dates it in every list and season."""

    played_on = DateField(_l("Played on"), validators=[Optional()])

    def validate_played_on(self, field: DateField) -> None:
        if field.data is not None and game_service.in_the_future(field.data):
            raise ValidationError(_l("A game cannot be played in the future: check the date."))

    @classmethod
    def for_club(cls, rules: core.GameRules) -> ClubSetupForm:
        """The form, prefilled with the club's default rules (what was posted wins)."""
        return cls(
            data={
                "set_size": str(rules.set_size),
                "blank_scoring": core.BlankScoring(rules.blank_scoring).value,
                "rounds": "" if rules.rounds is None else str(rules.rounds),
                "order": core.Order(rules.order).value,
                **house_rule_data(rules.house_rules),
            }
        )


class DeleteClubForm(FlaskForm):
    """The second step of deleting a club: its name, typed again."""

    name = StringField(
        _l("The club's name"),
        validators=[Length(max=200, message=_l("That is not the club's name."))],
    )
    submit = SubmitField(_l("Delete the club and all its records"))
