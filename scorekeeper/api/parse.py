"""Reading API request bodies: JSON into the core's GameRules and RoundEntry, or field errors.

Only the shape of the JSON is checked here (an object, a list of names, a whole number...);
whether the values break a rule of the game is the core's to say.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NoReturn, TypeVar

from flask import request
from flask_babel import gettext as _

from scorekeeper import core
from scorekeeper.i18n import problem_text

# Numbers are stored in 32-bit integer columns (PostgreSQL INTEGER): refuse anything larger.
MAX_INT = 2**31 - 1
E = TypeVar("E", bound=StrEnum)

GAME_FIELDS = (
    "players",
    "game_type",
    "set",
    "blank_scoring",
    "start_double",
    "rounds",
    "order",
    "hand_size",
    "teams",
    "target",
    "house_rules",
    "club_id",
)
HOUSE_RULE_FIELDS = ("open_train_points", "strategic_error", "adjustments")
ROUND_FIELDS = ("number", "out", "blocked", "scores", "hands", "penalties", "confirm")
PENALTY_FIELDS = ("player", "kind", "points", "reason")


def field_error(field: str | None, message: str, player: str | None = None) -> dict[str, Any]:
    """One entry of an `errors` (or `warnings`) list."""
    return {"player": player, "field": field, "message": message}


def problem_error(problem: core.Problem) -> dict[str, Any]:
    """A problem the core found, as an `errors` or `warnings` entry (in the client's language)."""
    return field_error(problem.field, problem_text(problem), problem.player)


class BadBody(Exception):
    """The body is not a JSON object of storable text: answered with 400 and this message."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


class Invalid(Exception):
    """The body is an object but some fields have the wrong shape: answered with 422."""

    def __init__(self, errors: list[dict[str, Any]]):
        self.errors = errors
        super().__init__("; ".join(str(error["message"]) for error in errors))


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")


def _storable(text: str) -> bool:
    """False for text no database column takes: lone surrogates ("\\ud800") or NUL."""
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _all_text_storable(data: object) -> bool:
    stack = [data]  # a loop, not recursion: the JSON may be nested as deep as json allows
    while stack:
        node = stack.pop()
        if isinstance(node, str) and not _storable(node):
            return False
        if isinstance(node, dict):
            stack.extend(node.keys())
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return True


def json_body() -> dict[str, Any]:
    """The request body as a JSON object, whatever the Content-Type; BadBody if it is not one."""
    raw = request.get_data(cache=True)
    try:
        data = json.loads(raw, parse_constant=_no_constant)
    except (ValueError, RecursionError):  # bad JSON, bad UTF-8, too deep, too many digits
        raise BadBody(_("The request body must be a JSON object.")) from None
    if not isinstance(data, dict):
        raise BadBody(_("The request body must be a JSON object."))
    if not _all_text_storable(data):
        raise BadBody(_("Text in the request must be Unicode without NUL characters."))
    return data


class _Reader:
    """Reads typed fields out of one JSON object, collecting every shape error."""

    def __init__(self, data: Mapping[str, Any], allowed: tuple[str, ...], prefix: str = ""):
        self.data = data
        self.errors: list[dict[str, Any]] = []
        for key in data:
            if key not in allowed:
                self.error(
                    prefix + key,
                    _("%(name)s is not a field of this request.", name=(prefix + key)[:40]),
                )

    def error(self, field: str, message: str, player: str | None = None) -> None:
        self.errors.append(field_error(field, message, player))

    def integer(self, key: str, default: int | None, field: str | None = None) -> int | None:
        value = self.data.get(key)
        field = field or key
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            self.error(field, _("%(field)s must be a whole number.", field=field))
            return default
        if abs(value) > MAX_INT:
            self.error(field, _("%(field)s is too large a number.", field=field))
            return default
        return value

    def boolean(self, key: str, default: bool, field: str | None = None) -> bool:
        value = self.data.get(key)
        field = field or key
        if value is None:
            return default
        if not isinstance(value, bool):
            self.error(field, _("%(field)s must be true or false.", field=field))
            return default
        return value

    def text(self, key: str, field: str | None = None) -> str | None:
        value = self.data.get(key)
        if value is not None and not isinstance(value, str):
            self.error(field or key, _("%(field)s must be a string.", field=field or key))
            return None
        return value

    def choice(self, key: str, kind: type[E], default: E) -> E:
        value = self.data.get(key)
        if value is None:
            return default
        choices = [member.value for member in kind]
        if not isinstance(value, str) or value not in choices:
            self.error(
                key,
                _("%(field)s must be one of: %(choices)s.", field=key, choices=", ".join(choices)),
            )
            return default
        return kind(value)

    def mapping(self, key: str) -> Mapping[str, Any]:
        value = self.data.get(key)
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.error(key, _("%(field)s must be an object.", field=key))
            return {}
        return value

    def array(self, key: str) -> list[Any]:
        value = self.data.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            self.error(key, _("%(field)s must be a list.", field=key))
            return []
        return value

    def done(self) -> None:
        if self.errors:
            raise Invalid(self.errors)


@dataclass(frozen=True)
class GameRequest:
    """What POST /games asked for, ready for services.games.create_game."""

    players: list[str]
    rules: core.GameRules
    teams: list[list[str]]
    # The club the game belongs to (a personal token of its scorer or owner is needed).
    club_id: int | None = None


def game_request(data: Mapping[str, Any]) -> GameRequest:
    """Read a new game's players, options and teams; Invalid if a field has the wrong shape."""
    reader = _Reader(data, GAME_FIELDS)
    players: list[str] = []
    if "players" not in data or data["players"] is None:
        reader.error("players", _("players is required: a list of names, in seating order."))
    elif not isinstance(data["players"], list) or not all(
        isinstance(name, str) for name in data["players"]
    ):
        reader.error("players", _("players must be a list of names."))
    else:
        players = data["players"]
    teams: list[list[str]] = []
    for team in reader.array("teams"):
        if not isinstance(team, list) or not all(isinstance(name, str) for name in team):
            reader.error("teams", _("teams must be a list of pairs of names."))
            break
        teams.append(team)
    house = reader.mapping("house_rules")
    house_reader = _Reader(house, HOUSE_RULE_FIELDS, prefix="house_rules.")
    house_rules = core.HouseRules(
        open_train_points=house_reader.integer("open_train_points", 0) or 0,
        strategic_error=house_reader.boolean("strategic_error", False),
        adjustments=house_reader.boolean("adjustments", False),
    )
    defaults = core.GameRules()
    rules = core.GameRules(
        game_type=reader.choice("game_type", core.GameType, defaults.game_type),
        set_size=reader.integer("set", defaults.set_size) or 0,
        blank_scoring=reader.choice("blank_scoring", core.BlankScoring, defaults.blank_scoring),
        start_double=reader.integer("start_double", None),
        rounds=reader.integer("rounds", None),
        order=reader.choice("order", core.Order, defaults.order),
        hand_size=reader.integer("hand_size", None),
        target=reader.integer("target", defaults.target) or 0,
        house_rules=house_rules,
    )
    club_id = reader.integer("club_id", None)
    reader.errors += house_reader.errors
    reader.done()
    return GameRequest(players, rules, teams, club_id)


@dataclass(frozen=True)
class RoundRequest:
    """What POST or PUT .../rounds asked for, ready for record_round or edit_round."""

    entry: core.RoundEntry
    confirm: bool
    number: int | None


def round_request(data: Mapping[str, Any]) -> RoundRequest:
    """Read a round's result; Invalid if a field has the wrong shape (the rules are the core's)."""
    reader = _Reader(data, ROUND_FIELDS)
    number = reader.integer("number", None)
    out = reader.text("out")
    blocked = reader.boolean("blocked", False)
    confirm = reader.boolean("confirm", False)
    scores = reader.mapping("scores")
    hands = reader.mapping("hands")
    entries: dict[str, core.HandEntry] = {
        name: core.HandEntry(pips=raw) for name, raw in scores.items()
    }
    for name, tiles in hands.items():
        if not isinstance(tiles, list):
            reader.error(
                "tiles",
                _('%(player)s: list the tiles, like ["6-4", "3-2"].', player=name[:40]),
                name,
            )
            continue
        entries[name] = core.HandEntry(tiles=tiles)
    penalties: list[core.PenaltyEntry] = []
    for item in reader.array("penalties"):
        if not isinstance(item, dict):
            reader.error("penalty", _("Each penalty must be an object with player and kind."))
            continue
        penalty = _Reader(item, PENALTY_FIELDS, prefix="penalties.")
        player = penalty.text("player", "penalty")
        kind = penalty.text("kind", "penalty")
        reason = penalty.text("reason", "penalty")
        if player is None or kind is None:
            penalty.error("penalty", _("Each penalty needs a player and a kind."))
        reader.errors += penalty.errors
        if not penalty.errors:
            penalties.append(
                core.PenaltyEntry(str(player), str(kind), item.get("points"), reason or "")
            )
    reader.done()
    return RoundRequest(core.RoundEntry(entries, out, blocked, tuple(penalties)), confirm, number)
