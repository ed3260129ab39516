"""Game night forms: the setup screen and the round sheet (built per game: one row per player).

Forms only read what was typed; every rule check comes from `scorekeeper.core`.
"""

from __future__ import annotations

from collections.abc import Sequence

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    FieldList,
    HiddenField,
    RadioField,
    SelectChoice,
    SelectField,
    SelectMultipleField,
    StringField,
    SubmitField,
)
from wtforms.validators import Length, Optional
from wtforms.widgets import CheckboxInput, ListWidget

from scorekeeper import core
from scorekeeper.i18n import problem_text

MIN_ROWS = 4
# The core's name for a setup option -> the setup form's field for it.
SETUP_FIELDS = {
    "set": "set_size",
    "start_double": "start_double",
    "rounds": "rounds",
    "hand_size": "hand_size",
    "target": "target",
    "teams": "partners",
    "open_train_points": "open_train_points",
}
BLOCKED = "blocked"


def _choices(pairs: Sequence[tuple[str, object]]) -> list[SelectChoice]:
    """WTForms 3.3 options from (value, label) pairs."""
    return [SelectChoice(value, label) for value, label in pairs]


def _optional_int(value: object) -> int | None:
    """'' or junk -> None (the core reports what is missing or wrong), '12' -> 12."""
    return core.parse_points(value) if value not in (None, "") else None


class SetupForm(FlaskForm):
    """Set up a game: players in seating order and the table's rules."""

    players = FieldList(
        StringField(_l("Player"), validators=[Optional(), Length(max=200)]),
        min_entries=MIN_ROWS,
        max_entries=max(core.PLAYER_LIMITS.values(), key=lambda r: r[1])[1],
    )
    game_type = RadioField(
        _l("Game"),
        choices=_choices(
            [
                (core.GameType.MEXICAN_TRAIN.value, _l("Mexican Train")),
                (core.GameType.DRAW.value, _l("Draw dominoes (double-6, first to the target)")),
            ]
        ),
        default=core.GameType.MEXICAN_TRAIN.value,
    )
    set_size = SelectField(
        _l("Domino set"),
        choices=_choices([(str(n), _l("Double-%(n)s", n=n)) for n in core.SUPPORTED_SETS]),
        default="12",
    )
    hand_size = StringField(_l("Tiles dealt to each player"), validators=[Length(max=10)])
    start_double = StringField(_l("Starting double"), validators=[Length(max=10)])
    rounds = StringField(_l("Rounds"), validators=[Length(max=10)])
    order = SelectField(
        _l("Engine order"),
        choices=_choices(
            [
                (core.Order.DESCENDING.value, _l("Count down (12-12 first)")),
                (core.Order.ASCENDING.value, _l("Count up (0-0 first)")),
            ]
        ),
        default=core.Order.DESCENDING.value,
    )
    blank_scoring = SelectField(
        _l("Blanks count"),
        choices=_choices(
            [
                (core.BlankScoring.FACE.value, _l("0 (face value)")),
                (core.BlankScoring.BLANK_25.value, _l("25 each half, double-blank 50")),
                (core.BlankScoring.DOUBLE_BLANK_25.value, _l("Only the double-blank: 25")),
                (core.BlankScoring.DOUBLE_BLANK_50.value, _l("Only the double-blank: 50")),
            ]
        ),
        default=core.BlankScoring.FACE.value,
    )
    partners = BooleanField(_l("Play in partnerships (partners sit opposite each other)"))
    open_train_points = SelectField(
        _l("Open-train penalty"),
        choices=_choices(
            [("0", _l("Off"))]
            + [(str(n), _l("%(n)s points", n=n)) for n in core.COMMON_OPEN_TRAIN_POINTS]
        ),
        default="0",
    )
    strategic_error = BooleanField(_l("Strategic-error penalty (adds the round's highest hand)"))
    adjustments = BooleanField(_l("Allow manual adjustments with a reason"))
    target = SelectField(
        _l("Draw game: play to"),
        choices=_choices([(str(n), _l("%(n)s points", n=n)) for n in core.DRAW_TARGETS]),
        default="100",
    )
    add_player = SubmitField(_l("Add a player"))
    submit = SubmitField(_l("Start the game"))

    def player_names(self) -> list[str]:
        """The names typed, in seating order, empty rows left out."""
        return [core.clean_name(entry.data) for entry in self.players if (entry.data or "").strip()]

    def rules(self) -> core.GameRules:
        """The options chosen, as the core's GameRules (None where left to the default)."""
        return core.GameRules(
            game_type=core.GameType(self.game_type.data or core.GameType.MEXICAN_TRAIN.value),
            set_size=int(self.set_size.data or 12),
            blank_scoring=core.BlankScoring(self.blank_scoring.data or "face"),
            start_double=_optional_int(self.start_double.data),
            rounds=_optional_int(self.rounds.data),
            order=core.Order(self.order.data or "descending"),
            hand_size=_optional_int(self.hand_size.data),
            target=int(self.target.data or 100),
            house_rules=core.HouseRules(
                open_train_points=int(self.open_train_points.data or 0),
                strategic_error=bool(self.strategic_error.data),
                adjustments=bool(self.adjustments.data),
            ),
        )

    def teams(self) -> list[list[str]]:
        """Partners sit opposite: seat i plays with seat i + n/2."""
        names = self.player_names()
        if not self.partners.data or len(names) % 2:
            return [] if not self.partners.data else [[name] for name in names]
        half = len(names) // 2
        return [[names[i], names[i + half]] for i in range(half)]

    def typed_number_errors(self) -> dict[str, str]:
        """Fields holding something that is not a whole number (the core never sees them)."""
        bad: dict[str, str] = {}
        for field in (self.hand_size, self.start_double, self.rounds):
            if (field.data or "").strip() and core.parse_points(field.data) is None:
                bad[field.name] = str(_l("Enter a whole number, or leave it empty."))
        return bad

    def show_typed_number_errors(self) -> bool:
        """Put the not-a-number errors next to their fields; True if there were any."""
        bad = self.typed_number_errors()
        for name, message in bad.items():
            self[name].errors = [message]
        return bool(bad)

    def show_problems(self, problems: Sequence[core.Problem]) -> list[str]:
        """Put each setup problem the core found next to its field; return the others."""
        general: list[str] = []
        for problem in problems:
            field = self._field_for(problem.field)
            if field is None:
                general.append(problem_text(problem))
            else:
                field.errors = [*field.errors, problem_text(problem)]
        return general

    def _field_for(self, name: str | None):
        if name is None:
            return None
        if name.startswith("players-"):
            # The core numbers the names it was given; empty rows were left out before it saw them.
            rows = [entry for entry in self.players if (entry.data or "").strip()]
            index = int(name.split("-", 1)[1])
            return rows[index] if index < len(rows) else None
        field = SETUP_FIELDS.get(name)
        return self[field] if field else None


class MultiCheckboxField(SelectMultipleField):
    """Tiles as checkboxes: works without JavaScript, the script adds live values."""

    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()

    def pre_validate(self, form: object) -> None:
        """Tiles outside the choices are reported by the core, in words a player understands."""


def round_form_class(
    players: Sequence[str],
    tile_choices: Sequence[str],
    *,
    open_train: bool,
    strategic: bool,
    adjustments: bool,
) -> type[FlaskForm]:
    """A form class for one game's round sheet: one row of fields per player (by seat)."""

    class RoundForm(FlaskForm):
        number = HiddenField()
        round_version = HiddenField()
        # One tap: the player who went out, or "blocked" when nobody could.
        out = RadioField(
            _l("Who went out?"),
            choices=_choices(
                [(str(i), name) for i, name in enumerate(players)]
                + [(BLOCKED, _l("Blocked: nobody went out"))]
            ),
            validate_choice=False,
        )
        confirm = BooleanField(_l("I checked: save it anyway"))
        submit = SubmitField(_l("Save round"))

    for seat, name in enumerate(players):
        setattr(RoundForm, f"pips_{seat}", StringField(name, validators=[Length(max=20)]))
        setattr(
            RoundForm,
            f"mode_{seat}",
            RadioField(
                _l("Enter as"),
                choices=_choices([("pips", _l("Number")), ("tiles", _l("Tiles"))]),
                default="pips",
                validate_choice=False,
            ),
        )
        setattr(
            RoundForm,
            f"tiles_{seat}",
            MultiCheckboxField(
                _l("Tiles in %(name)s's hand", name=name),
                choices=_choices([(t, t) for t in tile_choices]),
            ),
        )
        if open_train:
            setattr(RoundForm, f"open_train_{seat}", BooleanField(_l("Train still open")))
        if strategic:
            setattr(RoundForm, f"strategic_{seat}", BooleanField(_l("Strategic error")))
        if adjustments:
            setattr(
                RoundForm,
                f"adjust_{seat}",
                StringField(_l("Adjustment (+/-)"), validators=[Length(max=20)]),
            )
            setattr(
                RoundForm, f"reason_{seat}", StringField(_l("Reason"), validators=[Length(max=200)])
            )
    return RoundForm


def entry_from_form(form: FlaskForm, players: Sequence[str]) -> core.RoundEntry:
    """What the round sheet says, as a core RoundEntry (raw values: the core checks them)."""
    hands: dict[str, core.HandEntry] = {}
    penalties: list[core.PenaltyEntry] = []
    for seat, name in enumerate(players):
        if form[f"mode_{seat}"].data == "tiles":
            hands[name] = core.HandEntry(tiles=list(form[f"tiles_{seat}"].data or []))
        else:
            hands[name] = core.HandEntry(pips=form[f"pips_{seat}"].data)
        if f"open_train_{seat}" in form and form[f"open_train_{seat}"].data:
            penalties.append(core.PenaltyEntry(name, core.PenaltyKind.OPEN_TRAIN.value))
        if f"strategic_{seat}" in form and form[f"strategic_{seat}"].data:
            penalties.append(core.PenaltyEntry(name, core.PenaltyKind.STRATEGIC_ERROR.value))
        if f"adjust_{seat}" in form and (form[f"adjust_{seat}"].data or "").strip():
            penalties.append(
                core.PenaltyEntry(
                    name,
                    core.PenaltyKind.ADJUSTMENT.value,
                    form[f"adjust_{seat}"].data,
                    form[f"reason_{seat}"].data or "",
                )
            )
    out_raw = form.out.data or ""
    blocked = out_raw == BLOCKED
    out = players[int(out_raw)] if out_raw.isdecimal() and int(out_raw) < len(players) else None
    if out_raw and not blocked and out is None:
        out = out_raw[:40]  # not a seat: the core says it is not a player of this game
    return core.RoundEntry(hands, out, blocked, penalties)


def fill_form(form: FlaskForm, entry: core.RoundEntry, players: Sequence[str]) -> None:
    """Prefill the round sheet from a stored round (to edit it)."""
    for seat, name in enumerate(players):
        hand = entry.hands.get(name)
        if hand is None:
            continue
        if hand.tiles is not None:
            form[f"mode_{seat}"].data = "tiles"
            form[f"tiles_{seat}"].data = list(hand.tiles)
            form[f"pips_{seat}"].data = ""
        else:
            form[f"mode_{seat}"].data = "pips"
            form[f"pips_{seat}"].data = "" if entry.out == name else str(hand.pips)
    for penalty in entry.penalties:
        seat = players.index(penalty.player)
        if penalty.kind == core.PenaltyKind.OPEN_TRAIN.value and f"open_train_{seat}" in form:
            form[f"open_train_{seat}"].data = True
        elif penalty.kind == core.PenaltyKind.STRATEGIC_ERROR.value and f"strategic_{seat}" in form:
            form[f"strategic_{seat}"].data = True
        elif penalty.kind == core.PenaltyKind.ADJUSTMENT.value and f"adjust_{seat}" in form:
            form[f"adjust_{seat}"].data = str(penalty.points)
            form[f"reason_{seat}"].data = penalty.reason
    out = entry.out if isinstance(entry.out, str) else None
    seat = str(players.index(out)) if out in players else ""
    form.out.data = BLOCKED if entry.blocked else seat
