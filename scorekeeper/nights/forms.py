"""Club night forms: start a night (who is here, at which table), a late arrival, the late rule.

Forms only read what was typed; services.nights and the core decide what is allowed.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    DateField,
    HiddenField,
    SelectField,
    StringField,
    SubmitField,
)
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # new in WTForms 3.3, not in types-WTForms 3.2
from wtforms.validators import Length, Optional

from scorekeeper.models import RosterPlayer
from scorekeeper.services.nights import MAX_TABLES, Seat

GUEST_ROWS = 4
MAX_GUEST_ROWS = 24
DRAW_LABELS = {
    "balanced": _l("Balanced: tables as even in skill as possible"),
    "fresh": _l("Fresh pairs: fewest who sat together lately"),
    "random": _l("Random"),
    "top": _l("Top table: the strongest together"),
}
RULE_LABELS = {
    "highest": _l("The highest score of that round at the table"),
    "average": _l("The round's average score at the table (rounded half up)"),
    "zero": _l("Zero"),
}


def _optional_int(value: object) -> int | None:
    """'' or junk -> None (the service says what is missing), '3' -> 3."""
    text = str(value or "").strip()
    return int(text) if text.isdecimal() and len(text) < 10 else None


def _table_choices() -> list[SelectChoice]:
    return [SelectChoice("", "–")] + [
        SelectChoice(n, _l("Table %(n)s", n=n)) for n in range(1, MAX_TABLES + 1)
    ]


class NightForm(FlaskForm):
    """Start a club night. The per-player fields are added by `night_form_class`."""

    played_on = DateField(_l("Date"), default=date.today)
    name = StringField(_l("Name (optional)"), validators=[Optional(), Length(max=200)])
    tables = SelectField(
        _l("Tables"),
        coerce=_optional_int,
        choices=[SelectChoice(n, str(n)) for n in range(1, MAX_TABLES + 1)],
        default=2,
    )
    guest_rows = HiddenField(default=str(GUEST_ROWS))
    add_guest = SubmitField(_l("Add a guest row"))
    draw_method = SelectField(
        _l("How to draw the seats"),
        choices=[SelectChoice(key, label) for key, label in DRAW_LABELS.items()],
        default="balanced",
    )
    # The draw's seed: the same seed and players give the same tables ("Draw again": a new one).
    seed = StringField(_l("Draw number"), validators=[Optional(), Length(max=12)])
    shuffle = SubmitField(_l("Draw the tables"))
    draw_again = SubmitField(_l("Draw again"))
    submit = SubmitField(_l("Start the night"))

    roster: Sequence[RosterPlayer] = ()
    guest_count: int = GUEST_ROWS

    def seats(self) -> list[Seat]:
        """The players ticked and the guests typed, with the table chosen for each."""
        seats = [
            Seat(
                name=entry.display_name,
                roster_id=entry.id,
                table=self[f"table_{entry.id}"].data,
                key=f"table_{entry.id}",
            )
            for entry in self.roster
            if self[f"here_{entry.id}"].data
        ]
        for row in range(self.guest_count):
            name = (self[f"guest_{row}"].data or "").strip()
            if name:
                seats.append(
                    Seat(name=name, table=self[f"guest_table_{row}"].data, key=f"guest_{row}")
                )
        return seats

    def place(self, seats: Sequence[Seat]) -> None:
        """Show these tables in the selects (after a shuffle)."""
        for seat in seats:
            if seat.key and seat.key.startswith("guest_"):
                self[seat.key.replace("guest_", "guest_table_")].data = seat.table
            elif seat.key:
                self[seat.key].data = seat.table


def seed_from(raw: object) -> int | None:
    """The draw number typed or shown ('' or junk: None, a new one is drawn)."""
    value = _optional_int(raw)
    return value if value is not None and 1 <= value <= 999_999 else None


def guest_rows_from(raw: object) -> int:
    """How many guest rows the form shows (what was posted, within bounds)."""
    count = _optional_int(raw)
    return GUEST_ROWS if count is None else max(GUEST_ROWS, min(count, MAX_GUEST_ROWS))


def night_form_class(roster: Sequence[RosterPlayer], guest_rows: int) -> type[NightForm]:
    """The night form for this roster: a tick box and a table select per roster player, and
    `guest_rows` guest rows (a name and a table each)."""

    class Form(NightForm):
        pass

    Form.roster = tuple(roster)
    Form.guest_count = guest_rows
    for entry in roster:
        setattr(Form, f"here_{entry.id}", BooleanField(entry.display_name))
        setattr(
            Form,
            f"table_{entry.id}",
            SelectField(
                _l("Table for %(name)s", name=entry.display_name),
                coerce=_optional_int,
                choices=_table_choices(),
                validate_choice=False,
            ),
        )
    for row in range(guest_rows):
        setattr(
            Form,
            f"guest_{row}",
            StringField(_l("Guest %(n)s", n=row + 1), validators=[Optional(), Length(max=200)]),
        )
        setattr(
            Form,
            f"guest_table_{row}",
            SelectField(
                _l("Table for guest %(n)s", n=row + 1),
                coerce=_optional_int,
                choices=_table_choices(),
                validate_choice=False,
            ),
        )
    return Form


class LateForm(FlaskForm):
    """A late arrival: a roster player, or a guest's name."""

    roster = SelectField(_l("From the roster"), coerce=_optional_int, validate_choice=False)
    guest = StringField(_l("Or a guest's name"), validators=[Optional(), Length(max=200)])
    submit = SubmitField(_l("Add to the game"))

    def set_candidates(self, entries: Sequence[RosterPlayer]) -> None:
        """Offer the roster players not at this table yet."""
        self.roster.choices = [SelectChoice("", _l("Choose…"))] + [
            SelectChoice(entry.id, entry.display_name) for entry in entries
        ]


class LateRuleForm(FlaskForm):
    """The owner's choice: how a late arrival's missed rounds are scored."""

    rule = SelectField(
        _l("A late arrival scores, for each round they missed"),
        choices=[SelectChoice(rule, label) for rule, label in RULE_LABELS.items()],
    )
    submit = SubmitField(_l("Save the rule"))
