"""The club document's format: its version and JSON Schema, and the words for what is wrong.

check_document answers with the document (datetimes parsed) or an ImportProblem naming the
place in the file (`games[3].rounds[2].hands[1].pips`) and what is wrong there, in plain words.
What a schema cannot say (references, uniqueness) is import_refs.py's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from jsonschema import Draft202012Validator, FormatChecker, ValidationError, validators

from scorekeeper import core
from scorekeeper.config import SUPPORTED_LOCALES
from scorekeeper.core import N_
from scorekeeper.models import ROLES
from scorekeeper.services.accounts import EMAIL_MAX

FORMAT = "scorekeeper-club"
VERSION = 1
# Integer columns are 32-bit on PostgreSQL: a bigger number is junk, not data.
_INT_MIN, _INT_MAX = -(2**31), 2**31 - 1
# Text holds no NUL (PostgreSQL refuses it) and no lone UTF-16 surrogate (JSON's "\\ud800"
# escape without its pair): no database stores one, and it cannot be written as UTF-8.
_PLAIN = "^[^\\x00\\ud800-\\udfff]*$"
_SURROGATE = re.compile("[\\ud800-\\udfff]")


def _english(value: object) -> object:
    """A value as the English reason shows it: words (a phrase, a core problem) in English,
    several joined by semicolons, whole numbers grouped by thousands (1,212)."""
    if isinstance(value, Phrase | core.Problem):
        return value.message
    if isinstance(value, tuple):
        return "; ".join(str(_english(item)) for item in value)
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return value


@dataclass(frozen=True)
class Phrase:
    """Words inside a reason (a kind of value, which game and round): a translatable template
    (N_, %-style named placeholders) and its values, translated with the reason around it."""

    template: str
    params: Mapping[str, object] = field(default_factory=dict)

    @property
    def message(self) -> str:
        """The words in English."""
        return self.template % {key: _english(value) for key, value in self.params.items()}

    def __str__(self) -> str:
        return self.message


class ImportProblem(ValueError):
    """The document cannot be imported (bad shape, bad version, or clashes with this instance).

    Like the core's Problem, it carries a translatable `template` (N_, %-style named
    placeholders) and its `params` for the web page to translate; a value may be a Phrase, a
    core Problem or a tuple of them (translated too), or a place in the file (never
    translated). `str()` is the English reason (the `flask import-club` command prints it)."""

    def __init__(self, template: str, **params: object) -> None:
        self.template = template
        self.params: dict[str, object] = params
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """The reason in English, numbers grouped by thousands."""
        return Phrase(self.template, self.params).message

    def __str__(self) -> str:
        return self.message


def problem(path: str, template: str, **params: object) -> ImportProblem:
    """An ImportProblem about one place in the file ("" for the whole document)."""
    if not path:
        return ImportProblem(template, **params)
    return ImportProblem(N_("%(place)s: %(reason)s"), place=path, reason=Phrase(template, params))


# The schema --------------------------------------------------------------------------------


def _nullable(kind: str, optional: bool) -> str | list[str]:
    return [kind, "null"] if optional else kind


def _text(
    limit: int, *, optional: bool = False, choices: Iterable[str] = (), title: str = ""
) -> dict[str, Any]:
    schema: dict[str, Any] = {
        "type": _nullable("string", optional),
        "maxLength": limit,
        "pattern": _PLAIN,
    }
    if choices:
        schema["enum"] = [*choices, *([None] if optional else [])]
    if title:
        schema["title"] = title
    return schema


# Links stay unique, and an empty token would open nothing; a token is URL-safe base64, as the
# app makes them (22 characters), never anything a path could be made of.
_TOKEN = {
    **_text(64, title=N_("a token")),
    "minLength": 1,
    "allOf": [
        {
            "pattern": "^[A-Za-z0-9_-]{16,64}\\Z",
            "title": N_("a link token (16 to 64 letters, digits, - or _)"),
        }
    ],
}
# A name must say something: not empty, not only spaces.
_NAMED = {"allOf": [{"pattern": r"\S", "title": N_("a name (it cannot be empty)")}]}


def _email(*, optional: bool = False) -> dict[str, Any]:
    return {
        **_text(EMAIL_MAX, optional=optional),
        "allOf": [{"pattern": "@", "title": N_("an email address")}],
    }


def _number(*, optional: bool = False) -> dict[str, Any]:
    return {"type": _nullable("integer", optional), "minimum": _INT_MIN, "maximum": _INT_MAX}


_FLAG = {"type": "boolean"}


def _when(*, optional: bool = False) -> dict[str, Any]:
    return {"type": _nullable("string", optional), "format": "date-time"}


_DAY = {"type": "string", "format": "date"}


def _record(fields: Mapping[str, Any], *, optional: Iterable[str] = ()) -> dict[str, Any]:
    """An object with exactly these keys: an unknown key would be silently lost, so it is junk.
    Every key is required but the `optional` ones (added after a file's version first shipped)."""
    left_out = set(optional)
    return {
        "type": "object",
        "properties": dict(fields),
        "required": [name for name in fields if name not in left_out],
        "additionalProperties": False,
    }


def _list(item: Mapping[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": dict(item)}


def _values(kinds: Iterable[Any]) -> list[str]:
    return [kind.value for kind in kinds]


# The house rules version 1 shipped with: a later one may be missing from a file (its default).
_FIRST_HOUSE_RULES = ("open_train_points", "strategic_error", "adjustments")
_HOUSE_RULES = {rule.name: _FLAG if rule.is_switch else _number() for rule in core.HOUSE_RULES}
_LATER_HOUSE_RULES = [name for name in _HOUSE_RULES if name not in _FIRST_HOUSE_RULES]


_BLANKS = _values(core.BlankScoring)
_ORDERS = _values(core.Order)

SCHEMA: dict[str, Any] = _record(
    {
        "format": {"const": FORMAT},
        "version": {"const": VERSION},
        "club": _record(
            {
                "name": {**_text(80), **_NAMED},
                "created_at": _when(),
                "public": _FLAG,
                "public_token": _TOKEN,
                "locale": _text(8, optional=True, choices=SUPPORTED_LOCALES),
                "rules": _record(
                    {
                        "set_size": _number(),
                        "blank_scoring": _text(20, choices=_BLANKS),
                        "rounds": _number(optional=True),
                        "order": _text(12, choices=_ORDERS),
                        **_HOUSE_RULES,
                        "late_rule": _text(10, choices=_values(core.LateRule)),
                    },
                    optional=_LATER_HOUSE_RULES,
                ),
            }
        ),
        "users": _list(_record({"email": _email(), "name": _text(80)})),
        "members": _list(
            _record({"user": _email(), "role": _text(10, choices=ROLES), "joined_at": _when()})
        ),
        "invites": _list(
            _record(
                {
                    "token": _TOKEN,
                    "role": _text(10, choices=ROLES),
                    "created_by": _email(optional=True),
                    "created_at": _when(),
                    "expires_at": _when(),
                    "revoked_at": _when(optional=True),
                }
            )
        ),
        "roster": _list(
            _record(
                {
                    "ref": _number(),
                    "display_name": _text(40),
                    "user": _email(optional=True),
                    "archived": _FLAG,
                    "merged_into": _number(optional=True),
                    "created_at": _when(),
                }
            )
        ),
        "seasons": _list(
            _record(
                {
                    "ref": _number(),
                    "name": _text(80),
                    "starts_on": _DAY,
                    "ends_on": _DAY,
                    "method": _text(20, choices=_values(core.SeasonMethod)),
                    "min_games": _number(),
                    "points_table": _text(120),
                    "rules": _record(
                        {
                            "set_size": _number(optional=True),
                            "blank_scoring": _text(20, optional=True, choices=_BLANKS),
                            "rounds": _number(optional=True),
                        }
                    ),
                    "created_at": _when(),
                }
            )
        ),
        "club_nights": _list(
            _record(
                {
                    "ref": _number(),
                    "season": _number(optional=True),
                    "name": _text(80),
                    "played_on": _DAY,
                    "created_at": _when(),
                }
            )
        ),
        "games": _list(
            _record(
                {
                    "created_at": _when(),
                    "updated_at": _when(),
                    # Added after version 1 first shipped: optional (see importer._dates).
                    "played_on": _DAY,
                    "played_at": _when(optional=True),
                    "season_by_hand": _FLAG,
                    "rules": _record(
                        {
                            "game_type": _text(20, choices=_values(core.GameType)),
                            "set_size": _number(),
                            "blank_scoring": _text(20, choices=_BLANKS),
                            "start_double": _number(optional=True),
                            "rounds": _number(optional=True),
                            "order": _text(12, choices=_ORDERS),
                            "hand_size": _number(optional=True),
                            "target": _number(),
                            **_HOUSE_RULES,
                        },
                        optional=_LATER_HOUSE_RULES,
                    ),
                    "ended_early": _FLAG,
                    "finished_at": _when(optional=True),
                    "version": _number(),
                    "edit_token": _TOKEN,
                    "view_token": _TOKEN,
                    "created_by": _text(64, optional=True),
                    "season": _number(optional=True),
                    "club_night": _number(optional=True),
                    "table_number": _number(optional=True),
                    "players": _list(
                        _record(
                            {
                                "seat": _number(),
                                "name": _text(40),
                                "team": _number(optional=True),
                                "roster": _number(optional=True),
                                "joined_round": _number(),
                                "left_after": _number(optional=True),
                                "place": _number(optional=True),
                                "place_shared": _number(optional=True),
                                "total": _number(optional=True),
                                "rounds_played": _number(optional=True),
                                "zero_rounds": _number(optional=True),
                            }
                        )
                    ),
                    "rounds": _list(
                        _record(
                            {
                                "number": _number(),
                                "engine": _number(optional=True),
                                "out_seat": _number(optional=True),
                                "blocked": _FLAG,
                                "version": _number(),
                                "created_at": _when(),
                                "updated_at": _when(),
                                "hands": _list(
                                    _record(
                                        {
                                            "seat": _number(),
                                            "pips": _number(),
                                            "tiles": _text(10_000, optional=True),
                                            "penalty": _number(),
                                            "score": _number(),
                                            "went_out": _FLAG,
                                            "late": _FLAG,
                                            "away": _FLAG,
                                        }
                                    )
                                ),
                                "penalties": _list(
                                    _record(
                                        {
                                            "seat": _number(),
                                            "kind": _text(20, choices=_values(core.PenaltyKind)),
                                            "points": _number(),
                                            "reason": _text(200),
                                        }
                                    )
                                ),
                            }
                        )
                    ),
                    "history": _list(
                        _record(
                            {
                                "at": _when(),
                                "action": _text(20),
                                "round_number": _number(optional=True),
                                "player": _text(40, optional=True),
                                "old_value": _text(400, optional=True),
                                "new_value": _text(400, optional=True),
                                "device": _text(64, optional=True),
                            }
                        )
                    ),
                }
            )
        ),
    }
)
# A file exported before clubs had a default language has no `locale`.
_CLUB = SCHEMA["properties"]["club"]
_CLUB["required"] = [key for key in _CLUB["required"] if key != "locale"]
# A file exported before games carried the day they were played has none of these three.
GAME_DATE_FIELDS = ("played_on", "played_at", "season_by_hand")
_GAME = SCHEMA["properties"]["games"]["items"]
_GAME["required"] = [key for key in _GAME["required"] if key not in GAME_DATE_FIELDS]
# A file exported before players could leave a game: no left_after, no away hands.
_SEAT = _GAME["properties"]["players"]["items"]
_SEAT["required"] = [key for key in _SEAT["required"] if key != "left_after"]
_HAND = _GAME["properties"]["rounds"]["items"]["properties"]["hands"]["items"]
_HAND["required"] = [key for key in _HAND["required"] if key != "away"]


# The validator -----------------------------------------------------------------------------


def _utc(value: str) -> datetime:
    """An ISO 8601 date and time as a naive UTC datetime (as the database stores them)."""
    parsed = datetime.fromisoformat(value)
    if parsed.tzinfo is not None:
        parsed = parsed.astimezone(UTC).replace(tzinfo=None)
    return parsed


_FORMATS = FormatChecker(formats=())
_FORMATS.checks("date-time", raises=ValueError)(
    lambda value: not isinstance(value, str) or bool(_utc(value))
)
_FORMATS.checks("date", raises=ValueError)(
    lambda value: not isinstance(value, str) or bool(date.fromisoformat(value))
)
# bool is an int in Python, and JSON Schema counts 2.0 as an integer: neither is a number of pips.
_TYPES = Draft202012Validator.TYPE_CHECKER.redefine(
    "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool)
)
# types-jsonschema leaves extend() unannotated.
_Validator = validators.extend(Draft202012Validator, type_checker=_TYPES)  # type: ignore[no-untyped-call]
_VALIDATOR = _Validator(SCHEMA, format_checker=_FORMATS)

# What a value should be, in words (a schema's type, or its format); the format's own words
# when a value of the right type is not in it.
_FORMAT_WORDS = {"date-time": N_("an ISO 8601 date and time"), "date": N_("an ISO 8601 date")}
_FORMAT_NOT = {**_FORMAT_WORDS, "date": N_("an ISO 8601 date (YYYY-MM-DD)")}
_TYPE_WORDS = {
    "integer": N_("a whole number"),
    "string": N_("text"),
    "boolean": N_("true or false"),
    "object": N_("an object"),
    "array": N_("a list"),
}
# Which of several errors at once to report: a value of the wrong kind says most.
_RANK = {"type": 0, "required": 1, "additionalProperties": 2}


def shown(text: str) -> str:
    """Text from the file as a reason may quote it: a lone surrogate as its escape (\\ud800),
    since no page or terminal can write the character itself."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def where(path: Iterable[str | int]) -> str:
    """A place in the file as a person reads it: games[3].rounds[2].hands[1].pips."""
    text = ""
    for step in path:
        text += f"[{step}]" if isinstance(step, int) else f".{step}" if text else step
    return text


def _words(error: ValidationError) -> tuple[str, dict[str, object]]:
    """What is wrong, as a template and its values (jsonschema's own messages quote the schema
    and are English only)."""
    # Set on every error iter_errors yields (the stubs' Unset is for errors made by hand).
    schema: Any = error.schema
    value: Any = error.instance
    rule: Any = error.validator
    expected: Any = error.validator_value
    if rule == "type":
        kinds = expected if isinstance(expected, list) else [rule]
        kind = expected if isinstance(expected, str) else kinds[0]
        words = _FORMAT_WORDS.get(schema.get("format", ""), _TYPE_WORDS.get(kind, kind))
        if "null" in kinds:
            return N_("expected %(kind)s or null"), {"kind": Phrase(words)}
        return N_("expected %(kind)s"), {"kind": Phrase(words)}
    if rule == "required":
        missing = [key for key in expected if key not in value]
        return N_("missing %(fields)s"), {"fields": ", ".join(missing)}
    if rule == "additionalProperties":
        unknown = sorted(shown(str(key)) for key in value if key not in schema["properties"])
        return N_("unknown field %(fields)s"), {"fields": ", ".join(unknown)}
    if rule == "enum":
        allowed = ", ".join(str(choice) for choice in expected if choice is not None)
        return N_("%(value)s is not one of %(allowed)s"), {"value": repr(value), "allowed": allowed}
    if rule == "maxLength":
        return N_("longer than %(limit)s characters"), {"limit": expected}
    if rule == "minLength" and "title" in schema:
        return N_("%(what)s cannot be empty"), {"what": Phrase(schema["title"])}
    if rule == "pattern" and expected == _PLAIN:
        half = _SURROGATE.search(value)
        if half is None:
            return N_("holds a NUL character"), {}
        return N_("holds %(escape)s, half of a character (a lone surrogate): it is not text"), {
            "escape": shown(half.group())
        }
    if rule == "pattern" and "title" in schema:
        return N_("%(value)s is not %(what)s"), {
            "value": repr(value),
            "what": Phrase(schema["title"]),
        }
    if rule in ("minimum", "maximum"):
        return N_("%(value)s is out of range"), {"value": str(value)}
    if rule == "format":
        what = Phrase(_FORMAT_NOT[expected])
        return N_("%(value)s is not %(what)s"), {"value": repr(value), "what": what}
    # A check this file format does not use: say where, not jsonschema's English.
    return N_("%(value)s is not allowed here"), {"value": repr(value)}


def _parsed(schema: Mapping[str, Any], value: Any) -> Any:
    """The (valid) document with its dates and times as Python values, led by the schema
    (as deep as the schema, never deeper)."""
    if value is None:
        return None
    kind = schema.get("format")
    if kind == "date-time":
        return _utc(value)
    if kind == "date":
        return date.fromisoformat(value)
    if "properties" in schema:
        return {key: _parsed(schema["properties"][key], item) for key, item in value.items()}
    if "items" in schema:
        return [_parsed(schema["items"], item) for item in value]
    return value


def check_document(data: object) -> dict[str, Any]:
    """The document, its shape checked and datetimes parsed; ImportProblem says what is wrong."""
    if not isinstance(data, dict):
        raise ImportProblem(N_("Not a club export: expected a JSON object."))
    if data.get("format") != FORMAT:
        raise ImportProblem(
            N_("Not a club export: format should be %(format)s."), format=repr(FORMAT)
        )
    if data.get("version") != VERSION or isinstance(data.get("version"), bool):
        raise ImportProblem(
            N_(
                "Unsupported export version %(version)s: this instance reads version %(supported)s."
            ),
            version=repr(data.get("version")),
            supported=VERSION,
        )
    errors: Sequence[ValidationError] = list(_VALIDATOR.iter_errors(data))
    if errors:
        error = min(errors, key=lambda e: _RANK.get(str(e.validator), len(_RANK)))
        template, params = _words(error)
        raise problem(where(error.absolute_path), template, **params)
    document: dict[str, Any] = _parsed(SCHEMA, data)
    return document
