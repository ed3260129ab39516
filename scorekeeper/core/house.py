"""House rules: each one declared once, as a field of HouseRules with its words and bounds.

Every other layer reads HOUSE_RULES: the tables' columns, the setup and club forms' fields, the
API's schema and answers, the export and import schemas, the column mapping. A new house rule is
one field here (plus the rule itself where the core applies it, and one migration).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from .problems import N_, Problem

COMMON_OPEN_TRAIN_POINTS = (5, 10, 25)
_META = "house_rule"


@dataclass(frozen=True)
class Words:
    """What a house rule's declaration says besides its name, type and default.

    `label`: the setup form's label (N_, translated by the web layer); `description`: the
    API's words for it (English); for a number: `low`..`high` its bounds, `offered` the values
    the setup form offers besides 0 (off), `out_of_bounds` the problem when outside them."""

    label: str
    description: str
    low: int = 0
    high: int = 0
    offered: tuple[int, ...] = ()
    out_of_bounds: str = ""


def _switch(label: str, description: str) -> bool:
    """A house rule that is on or off (off by default)."""
    meta = {_META: Words(label, description)}
    return field(default=False, metadata=meta)


def _points(
    label: str, description: str, *, high: int, offered: tuple[int, ...], out_of_bounds: str
) -> int:
    """A house rule that is a number of points, 0 (off) by default, 0 to `high`."""
    meta = {_META: Words(label, description, 0, high, offered, out_of_bounds)}
    return field(default=0, metadata=meta)


@dataclass(frozen=True)
class HouseRules:
    """Optional penalties, each off by default; open_train_points 0 means no open-train penalty.

    Each field is a house rule's one declaration: its name (the column, form field, API and
    export key), its type and default, and its Words."""

    open_train_points: int = _points(
        N_("Open-train penalty"),
        "Points added to a player whose train is open (0: off).",
        high=1000,
        offered=COMMON_OPEN_TRAIN_POINTS,
        out_of_bounds=N_("The open-train penalty must be 0 (off) to 1,000 points."),
    )
    strategic_error: bool = _switch(
        N_("Strategic-error penalty (adds the round's highest hand)"),
        "A penalty for a strategic error.",
    )
    adjustments: bool = _switch(
        N_("Allow manual adjustments with a reason"), "Signed score adjustments, with a reason."
    )


@dataclass(frozen=True)
class HouseRule:
    """One house rule as the other layers read it: HouseRules' field and its Words."""

    name: str
    kind: type[int] | type[bool]
    default: int | bool
    words: Words

    @property
    def is_switch(self) -> bool:
        """On or off (a checkbox, a JSON boolean); else a number of points."""
        return self.kind is bool

    def problem(self, value: int | bool) -> Problem | None:
        """What is wrong with this value for the rule, or None."""
        if self.is_switch or self.words.low <= value <= self.words.high:
            return None
        return Problem(self.name, self.words.out_of_bounds, field=self.name)


def _declared() -> tuple[HouseRule, ...]:
    rules = []
    for declared in fields(HouseRules):
        default = declared.default
        assert isinstance(default, int), declared.name  # bool is an int too
        rules.append(HouseRule(declared.name, type(default), default, declared.metadata[_META]))
    return tuple(rules)


HOUSE_RULES: tuple[HouseRule, ...] = _declared()


def house_rule_values(house: HouseRules) -> dict[str, int | bool]:
    """Each house rule's value by name (the columns, the API's and the export's keys)."""
    return {rule.name: getattr(house, rule.name) for rule in HOUSE_RULES}


def house_rules_from(values: Mapping[str, Any]) -> HouseRules:
    """HouseRules from values by name (a row, a body); a rule left out keeps its default."""
    chosen: dict[str, Any] = {
        rule.name: values[rule.name] for rule in HOUSE_RULES if rule.name in values
    }
    return HouseRules(**chosen)


def house_problems(house: HouseRules) -> list[Problem]:
    """Every house rule whose value is out of its bounds."""
    found = (rule.problem(getattr(house, rule.name)) for rule in HOUSE_RULES)
    return [problem for problem in found if problem is not None]
