"""Game forms: the round sheet (built per game: one row per player); setup is scorekeeper.forms.

Forms only read what was typed; every rule check comes from `scorekeeper.core`.
"""

from __future__ import annotations

from collections.abc import Sequence

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    Field,
    HiddenField,
    StringField,
    SubmitField,
)
from wtforms.validators import Length

from scorekeeper import core

BLOCKED = "blocked"


class TilesField(Field):
    """A hand's tiles as ticked ("12-11", ...). The template draws the checkboxes from the tiles
    on offer (presenters.tile_values); the field holds no choices of its own (a list of ninety
    per hand, built for every page, cost more than the rest of the form): tiles that are not
    this round's are reported by the core, in words a player understands."""

    def process_formdata(self, valuelist: list[str]) -> None:
        """Every ticked value, as sent."""
        self.data = list(valuelist)


class Choice(Field):
    """One of a few values (who went out, a hand's pips or tiles), read as sent: the template
    writes the radio buttons, the core judges the value. A RadioField would build its list of
    choices for every hand on every page, and nothing reads it."""


class RoundForm(FlaskForm):
    """One game's round sheet: its fields (a row per seat, `round_fields`) are given when it is
    made. WTForms binds the fields a form class lists in `_unbound_fields` (computed from the
    declared ones): this form lists its own, in the order given, so that no class is made per
    page (a new class and its field list cost as much as binding the fields)."""

    # Each field is made outside a form, so it is an UnboundField (WTForms' types call it the
    # field it will be bound as).
    def __init__(self, fields: list[tuple[str, Field]], formdata: object | None = None) -> None:
        self._unbound_fields = fields
        super().__init__(formdata=formdata)


def round_fields(
    players: Sequence[str],
    *,
    open_train: bool,
    strategic: bool,
    adjustments: bool,
) -> list[tuple[str, Field]]:
    """The fields of one game's round sheet, in order: one row of fields per player (by seat)."""
    fields: list[tuple[str, Field]] = [
        # Hidden fields carry an empty label: WTForms would otherwise translate a label made
        # from the name, loading its own message catalogue from disk on every page.
        ("number", HiddenField("")),
        ("round_version", HiddenField("")),
        # The client's key for this write: sending the same round twice saves it once.
        ("idempotency_key", HiddenField("")),
        # One tap: the seat of the player who went out, or "blocked" when nobody could.
        ("out", Choice(_l("Who went out?"))),
        ("confirm", BooleanField(_l("I checked: save it anyway"))),
        ("submit", SubmitField(_l("Save round"))),
    ]
    for seat, name in enumerate(players):
        fields.append((f"pips_{seat}", StringField(name, validators=[Length(max=20)])))
        # "pips" or "tiles": how the hand is entered.
        fields.append((f"mode_{seat}", Choice(_l("Enter as"), default="pips")))
        fields.append((f"tiles_{seat}", TilesField(_l("Tiles in %(name)s's hand", name=name))))
        if open_train:
            fields.append((f"open_train_{seat}", BooleanField(_l("Train still open"))))
        if strategic:
            fields.append((f"strategic_{seat}", BooleanField(_l("Strategic error"))))
        if adjustments:
            adjust = StringField(_l("Adjustment (+/-)"), validators=[Length(max=20)])
            fields.append((f"adjust_{seat}", adjust))
            reason = StringField(_l("Reason"), validators=[Length(max=200)])
            fields.append((f"reason_{seat}", reason))
    return fields


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
    out_seat = str(players.index(out)) if out in players else ""
    form.out.data = BLOCKED if entry.blocked else out_seat


# Fields of the round sheet that are not what the scorer typed about the hands.
_NOT_TYPED = {"csrf_token", "submit", "number", "round_version", "confirm"}


def typed_fields(form: FlaskForm) -> list[tuple[str, str]]:
    """What was typed into a round sheet as (name, value) pairs, to carry in hidden inputs
    (the conflict page sends them again with the scorer's choice)."""
    pairs: list[tuple[str, str]] = []
    for field in form:
        if field.name in _NOT_TYPED:
            continue
        data = field.data
        if isinstance(data, list):
            pairs += [(field.name, str(value)) for value in data]
        elif isinstance(data, bool):
            if data:
                pairs.append((field.name, "y"))
        elif data not in (None, ""):
            pairs.append((field.name, str(data)))
    return pairs
