"""Season forms: a season's name, dates, default rules and standings method; moving a game.

Forms only read what was typed; what a season allows is checked by services.seasons and the core.
"""

from __future__ import annotations

from datetime import date

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import DateField, RadioField, SelectField, StringField, SubmitField
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # new in WTForms 3.3, not in types-WTForms 3.2
from wtforms.validators import Length

from scorekeeper import core
from scorekeeper.forms import SetupForm, optional_id
from scorekeeper.services.seasons import SeasonInput

METHOD_LABELS = {
    core.SeasonMethod.PLACEMENT_POINTS.value: _l(
        "Placement points (points for each place in each game)"
    ),
    core.SeasonMethod.GAMES_WON.value: _l("Games won (ties: lower average score per round)"),
    core.SeasonMethod.AVERAGE.value: _l("Average score per round (lowest first)"),
}


class DayField(DateField):
    """A day typed as YYYY-MM-DD (the phone's date picker sends that); our own message if not."""

    def process_formdata(self, valuelist: list[str]) -> None:
        if not valuelist or not (valuelist[0] or "").strip():
            self.data = None
            return
        try:
            self.data = date.fromisoformat(valuelist[0].strip()[:10])
        except ValueError:
            self.data = None
            raise ValueError(_l("Enter a date like 2025-09-30.")) from None


def _with_club_default(field, label) -> list[SelectChoice]:
    """The setup screen's choices with a first one: the club's default (stored as None)."""
    return [SelectChoice("", label)] + [
        SelectChoice(choice.value, choice.label) for choice in field.kwargs["choices"]
    ]


class SeasonForm(FlaskForm):
    """Create or edit a season."""

    name = StringField(_l("Season name"), validators=[Length(max=200)])
    starts_on = DayField(_l("First day"))
    ends_on = DayField(_l("Last day"))
    method = RadioField(
        _l("How the standings are computed"),
        choices=[SelectChoice(value, label) for value, label in METHOD_LABELS.items()],
        default=core.SeasonMethod.PLACEMENT_POINTS.value,
    )
    min_games = StringField(_l("Games needed to be ranked (average method)"), default="3")
    points_table = StringField(_l("Placement table"), validators=[Length(max=200)])
    set_size = SelectField(
        _l("Domino set"), choices=_with_club_default(SetupForm.set_size, _l("The club's default"))
    )
    blank_scoring = SelectField(
        _l("Blanks count"),
        choices=_with_club_default(SetupForm.blank_scoring, _l("The club's default")),
    )
    rounds = StringField(_l("Rounds"), validators=[Length(max=10)])
    submit = SubmitField(_l("Save the season"))

    def typed_number_errors(self) -> dict[str, str]:
        """Numbers typed as something that is not a whole number (the service never sees them)."""
        errors = {}
        if (self.rounds.data or "").strip() and core.parse_points(self.rounds.data) is None:
            errors["rounds"] = str(_l("Enter a whole number, or leave it empty."))
        if core.parse_points(self.min_games.data) is None:
            errors["min_games"] = str(_l("Enter a whole number of games, like 3."))
        return errors

    def season_input(self) -> SeasonInput:
        """What was typed, for services.seasons (which checks it)."""
        rounds = (self.rounds.data or "").strip()
        return SeasonInput(
            name=self.name.data or "",
            starts_on=self.starts_on.data,
            ends_on=self.ends_on.data,
            method=self.method.data or "",
            min_games=core.parse_points(self.min_games.data),
            points_table=self.points_table.data or "",
            set_size=int(self.set_size.data) if self.set_size.data else None,
            blank_scoring=self.blank_scoring.data or None,
            rounds=core.parse_points(rounds) if rounds else None,
        )

    @classmethod
    def for_season(cls, season) -> SeasonForm:
        """The form, prefilled with the season (what was posted wins)."""
        return cls(
            data={
                "name": season.name,
                "starts_on": season.starts_on,
                "ends_on": season.ends_on,
                "method": season.method,
                "min_games": str(season.min_games),
                "points_table": season.points_table,
                "set_size": "" if season.set_size is None else str(season.set_size),
                "blank_scoring": season.blank_scoring or "",
                "rounds": "" if season.rounds is None else str(season.rounds),
            }
        )


class MoveGameForm(FlaskForm):
    """Move one of the season's games to another of the club's seasons."""

    season_id = SelectField(_l("Move to"), coerce=optional_id, choices=[])
    submit = SubmitField(_l("Move the game"))

    def set_seasons(self, seasons, current) -> None:
        """Offer the club's other seasons."""
        self.season_id.choices = [
            SelectChoice(season.id, season.name) for season in seasons if season.id != current.id
        ]
