"""What the rules core reports when an entry breaks a rule: problems and RuleError."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

Severity = Literal["error", "warning"]


def N_(message: str) -> str:
    """Mark a message for translation without translating it (the web layer translates)."""
    return message


def _display(value: object) -> object:
    """Group thousands in whole numbers so 1212 reads as 1,212."""
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return value


@dataclass(frozen=True)
class Problem:
    """One broken rule: a translatable template, its values, and whom or what it is about.

    `template` uses %-style named placeholders (gettext style); `player` names the hand
    the problem is about (None for the round as a whole); `field` says which part of the
    entry is wrong ("pips", "tiles", "out", "blocked", "penalty", "players", ...).
    """

    code: str
    template: str
    params: Mapping[str, object] = field(default_factory=dict)
    player: str | None = None
    field: str | None = None
    severity: Severity = "error"

    @property
    def message(self) -> str:
        """The message in English, numbers grouped by thousands."""
        return self.template % {key: _display(value) for key, value in self.params.items()}

    def __str__(self) -> str:
        return self.message


class RuleError(ValueError):
    """Raised when something asked of the core breaks the rules; carries every problem."""

    def __init__(self, problems: Problem | list[Problem]):
        self.problems: list[Problem] = (
            [problems] if isinstance(problems, Problem) else list(problems)
        )
        super().__init__("; ".join(p.message for p in self.problems))
