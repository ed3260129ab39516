"""Forms shared by several blueprints: a game's setup (quick, club and season games alike), the
choice of a language (an account's, a club's), and moving a quick game into a club (shown on the
game's page, sent to the clubs blueprint).

Forms only read what was typed; every rule check comes from `scorekeeper.core`.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence

from flask import has_request_context, request
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    Field,
    FieldList,
    RadioField,
    SelectField,
    StringField,
    SubmitField,
)
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # new in WTForms 3.3, not in types-WTForms 3.2
from wtforms.validators import Length, Optional

from scorekeeper import core
from scorekeeper.config import SUPPORTED_LOCALES
from scorekeeper.i18n import LANGUAGE_NAMES, problem_text

MIN_ROWS = 4
# A client-made key for one write (the round form's hidden field, the API's Idempotency-Key).
_WRITE_KEY = re.compile(r"[A-Za-z0-9_-]{8,64}")
# The core's name for a setup option -> the setup form's field for it.
SETUP_FIELDS = {
    "set": "set_size",
    "start_double": "start_double",
    "rounds": "rounds",
    "hand_size": "hand_size",
    "target": "target",
    "teams": "partners",
} | {rule.name: rule.name for rule in core.HOUSE_RULES}


def select_choices(pairs: Sequence[tuple[str, object]]) -> list[SelectChoice]:
    """WTForms 3.3 options from (value, label) pairs."""
    return [SelectChoice(value, label) for value, label in pairs]


def language_field(label: str, unset: str) -> SelectField:
    """A language select: `unset` ("as the phone is set") or a shipped language, each named in
    itself (and marked with its language, for screen readers)."""
    choices = [SelectChoice("", unset)] + [
        SelectChoice(code, LANGUAGE_NAMES[code], render_kw={"lang": code})
        for code in SUPPORTED_LOCALES
    ]
    return SelectField(label, choices=choices, default="")


def optional_id(value: object) -> int | None:
    """A select's id: '' -> None, '12' -> 12 (anything else: None, and the choices check
    reports it)."""
    text = str(value or "")
    return int(text) if text.isdecimal() and len(text) < 10 else None


def _optional_int(value: object) -> int | None:
    """'' or junk -> None (the core reports what is missing or wrong), '12' -> 12."""
    return core.parse_points(value) if value not in (None, "") else None


def _house_rule_field(rule: core.HouseRule) -> Field:
    """A house rule's field, labelled as the core declares it: a checkbox for a rule that is
    on or off, else a choice of 0 (off) or the points the core offers."""
    label = _l(rule.words.label)  # noqa: INT001 (the core's N_ marks it for the catalogues)
    if rule.is_switch:
        return BooleanField(label)
    offered = [(str(n), _l("%(n)s points", n=n)) for n in rule.words.offered]
    return SelectField(
        label,
        choices=select_choices([("0", _l("Off"))] + offered),
        default=str(rule.default),
    )


class HouseRuleFields(FlaskForm):
    """A field for each house rule the core declares (core.HOUSE_RULES), named as the rule:
    the game setup's and the club's default rules."""

    def house_rule_fields(self) -> list[Field]:
        """The house rules' fields, in the core's order (the templates show them so)."""
        return [self[rule.name] for rule in core.HOUSE_RULES]

    def house_rules(self) -> core.HouseRules:
        """The house rules chosen, as the core's HouseRules."""
        return core.house_rules_from(
            {
                rule.name: bool(data)
                if rule.is_switch
                else (_optional_int(data) if data else rule.default)
                for rule in core.HOUSE_RULES
                for data in [self[rule.name].data]
            }
        )


def house_rule_data(house: core.HouseRules) -> dict[str, object]:
    """The house rules' fields' data for these rules (to prefill a form)."""
    return {
        name: value if isinstance(value, bool) else str(value)
        for name, value in core.house_rule_values(house).items()
    }


for _rule in core.HOUSE_RULES:
    setattr(HouseRuleFields, _rule.name, _house_rule_field(_rule))


class SetupForm(HouseRuleFields):
    """Set up a game: players in seating order and the table's rules."""

    players = FieldList(
        StringField(_l("Player"), validators=[Optional(), Length(max=200)]),
        min_entries=MIN_ROWS,
        max_entries=max(core.PLAYER_LIMITS.values(), key=lambda r: r[1])[1],
    )
    game_type = RadioField(
        _l("Game"),
        choices=select_choices(
            [
                (core.GameType.MEXICAN_TRAIN.value, _l("Mexican Train")),
                (core.GameType.DRAW.value, _l("Draw dominoes (double-6, first to the target)")),
            ]
        ),
        default=core.GameType.MEXICAN_TRAIN.value,
    )
    set_size = SelectField(
        _l("Domino set"),
        choices=select_choices([(str(n), _l("Double-%(n)s", n=n)) for n in core.SUPPORTED_SETS]),
        default="12",
    )
    hand_size = StringField(_l("Tiles dealt to each player"), validators=[Length(max=10)])
    start_double = StringField(_l("Starting double"), validators=[Length(max=10)])
    rounds = StringField(_l("Rounds"), validators=[Length(max=10)])
    order = SelectField(
        _l("Engine order"),
        choices=select_choices(
            [
                (core.Order.DESCENDING.value, _l("Count down (12-12 first)")),
                (core.Order.ASCENDING.value, _l("Count up (0-0 first)")),
            ]
        ),
        default=core.Order.DESCENDING.value,
    )
    blank_scoring = SelectField(
        _l("Blanks count"),
        choices=select_choices(
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
    target = SelectField(
        _l("Draw game: play to"),
        choices=select_choices([(str(n), _l("%(n)s points", n=n)) for n in core.DRAW_TARGETS]),
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
            house_rules=self.house_rules(),
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


# Where a request's environ lists the write keys its answer carries (answers.py reads it).
WRITE_KEYS = "scorekeeper.write_keys"


def new_write_key() -> str:
    """A fresh key for the next write a form will send (22 URL-safe characters); listed in
    the request's environ, where answers.py finds it to give each replay of a page its own."""
    key = secrets.token_urlsafe(16)
    if has_request_context():
        keys = request.environ.get(WRITE_KEYS)
        if keys is not None:
            keys.append(key)
    return key


def write_key(raw: object) -> str | None:
    """A client's key for a write, or None when it sent none or something else."""
    text = raw.strip() if isinstance(raw, str) else ""
    return text if _WRITE_KEY.fullmatch(text) else None


class MoveToClubForm(FlaskForm):
    """Move a quick game into one of the clubs where this person scores."""

    club_id = SelectField(
        _l("Move this game to a club"), coerce=optional_id, choices=[], validate_choice=False
    )
    submit = SubmitField(_l("Move to this club"))
