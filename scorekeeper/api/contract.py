"""The API's contract, kept in code: each route declares its body model and its answers next to
its view (`operation`), `read` validates a request with that model, and `document` writes the
OpenAPI 3.1 description from the same declarations and models. Nothing is written twice.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NoReturn, TypeVar

from flask import Flask, request
from flask_babel import gettext as _
from pydantic import BaseModel, ValidationError
from pydantic.json_schema import models_json_schema

from scorekeeper import core
from scorekeeper.api import schemas
from scorekeeper.i18n import problem_text
from scorekeeper.web.etags import ETAG_HEADER, IF_MATCH_HEADER, IF_NONE_MATCH_HEADER

M = TypeVar("M", bound=BaseModel)
V = TypeVar("V", bound=Callable[..., Any])
REF = "#/components/schemas/{model}"
API_PREFIX = "/api/v1"
# The route's own label in the document: a JSON pointer into the answer or the request.
Link = Mapping[str, Any]


# --- problems as the API reports them --------------------------------------------------------


def field_error(
    field: str | None, message: str, player: str | None = None, code: str = "request.invalid"
) -> schemas.Problem:
    """One entry of an `errors` (or `warnings`) list."""
    return schemas.Problem(player=player, field=field, message=message, code=code)


def problem_error(problem: core.Problem) -> schemas.Problem:
    """A problem the core found, in the client's language, with the core's stable code."""
    return field_error(problem.field, problem_text(problem), problem.player, problem.code)


class BadBody(Exception):
    """The body is not a JSON object of storable text: answered with 400 and this message."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


class Invalid(Exception):
    """The body is an object but does not fit its model: answered with 422 and `errors`."""

    def __init__(self, errors: list[schemas.Problem]):
        self.errors = errors
        super().__init__("; ".join(error.message for error in errors))


# --- reading a request -------------------------------------------------------------------------


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


def read(model: type[M]) -> M:
    """The request body validated by its model: BadBody (400) or Invalid (422) if it is not."""
    data = json_body()
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise Invalid([_shape_error(detail, data) for detail in error.errors()]) from None


# Where a shape error is reported: the fields the core uses for the same part of a request.
_BY_PLAYER = {"scores": "pips", "hands": "tiles"}
_LEAF_FIELDS = {"house_rules"}


def _where(loc: tuple[Any, ...], data: Mapping[str, Any], unknown: bool) -> tuple[str, str | None]:
    """The `field` and `player` of a shape error at `loc` (pydantic's path into the body)."""
    top = str(loc[0])
    if len(loc) == 1:
        return top, None
    if top in _BY_PLAYER:
        return _BY_PLAYER[top], str(loc[1])
    if unknown:
        return f"{top}.{loc[-1]}", None
    if top == "penalties":
        item = data.get("penalties", [None])[loc[1]] if isinstance(loc[1], int) else None
        player = item.get("player") if isinstance(item, dict) else None
        return "penalty", player if isinstance(player, str) else None
    if top in _LEAF_FIELDS:
        return str(loc[1]), None
    return top, None


def _label(loc: tuple[Any, ...]) -> str:
    """A readable path to the wrong value, like players[1] or scores.Ben (kept short)."""
    text = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in loc)
    text = text.lstrip(".").replace(".[key]", "")
    return text if len(text) <= 60 else text[:59] + "…"


def _shape_error(detail: Mapping[str, Any], data: Mapping[str, Any]) -> schemas.Problem:
    """One pydantic error as an `errors` entry: a translated message and a stable code."""
    kind = detail["type"]
    loc = tuple(detail["loc"])
    unknown = kind == "extra_forbidden"
    where, player = _where(loc, data, unknown)
    name = _label(loc)
    ctx = detail.get("ctx", {})
    code, message = _shape_message(kind, name, ctx)
    return field_error(where, message, player, code)


def _shape_message(kind: str, name: str, ctx: Mapping[str, Any]) -> tuple[str, str]:
    if kind == "missing":
        return "request.missing", _("%(field)s is required.", field=name)
    if kind == "extra_forbidden":
        return "request.unknown_field", _("%(name)s is not a field of this request.", name=name)
    if kind in {"int_type", "int_parsing", "int_from_float"}:
        return "request.type", _("%(field)s must be a whole number.", field=name)
    if kind == "bool_type":
        return "request.type", _("%(field)s must be true or false.", field=name)
    if kind == "string_type":
        return "request.type", _("%(field)s must be a string.", field=name)
    if kind in {"dict_type", "model_type", "model_attributes_type"}:
        return "request.type", _("%(field)s must be an object.", field=name)
    if kind == "list_type":
        return "request.type", _("%(field)s must be a list.", field=name)
    if kind in {"literal_error", "enum"}:
        choices = str(ctx.get("expected", "")).replace("'", "")
        return "request.choice", _(
            "%(field)s must be one of: %(choices)s.", field=name, choices=choices
        )
    if kind in {"greater_than_equal", "greater_than"}:
        limit = ctx.get("ge", ctx.get("gt"))
        message = _("%(field)s must be at least %(limit)s.", field=name, limit=limit)
        return "request.too_small", message
    if kind in {"less_than_equal", "less_than"}:
        limit = ctx.get("le", ctx.get("lt"))
        message = _("%(field)s must be at most %(limit)s.", field=name, limit=limit)
        return "request.too_large", message
    if kind == "string_too_short":
        return "request.too_short", _("%(field)s must not be empty.", field=name)
    if kind == "string_too_long":
        return "request.too_long", _(
            "%(field)s can be at most %(limit)s characters.", field=name, limit=ctx["max_length"]
        )
    if kind == "too_short":
        return "request.too_short", _(
            "%(field)s needs at least %(limit)s items.", field=name, limit=ctx["min_length"]
        )
    if kind == "too_long":
        return "request.too_long", _(
            "%(field)s can have at most %(limit)s items.", field=name, limit=ctx["max_length"]
        )
    if kind.startswith("date_"):
        return "request.date", _("Enter a date like 2025-09-30.")
    if kind == "string_pattern_mismatch":
        return "request.pattern", _("%(field)s must not be only spaces.", field=name)
    return "request.invalid", _("%(field)s is not valid.", field=name)


# --- declaring a route's contract --------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """One status a route can answer: why, the body's models (any one of them), its headers."""

    description: str
    models: tuple[type[BaseModel], ...] = ()
    headers: tuple[str, ...] = ()
    links: Mapping[str, Link] = field(default_factory=dict)


@dataclass(frozen=True)
class Operation:
    """A route's contract: what it is for, who may call it, what it reads and can answer."""

    summary: str
    answers: Mapping[int, Answer]
    body: type[BaseModel] | None = None
    security: tuple[Mapping[str, list[str]], ...] = ()
    parameters: tuple[str, ...] = ()  # request headers: If-Match, If-None-Match
    database: bool = True  # it reads the database, so a busy one answers 503 (errors/handlers)
    media: str = "application/json"  # the body's type (a photo: multipart/form-data)


def operation(
    summary: str,
    answers: Mapping[int, Answer],
    *,
    body: type[BaseModel] | None = None,
    security: tuple[Mapping[str, list[str]], ...] = (),
    parameters: tuple[str, ...] = (),
    database: bool = True,
    media: str = "application/json",
) -> Callable[[V], V]:
    """Attach a route's contract to its view (read by `document`). What the app answers around
    the view is added there, not declared here: 429 if the view is rate limited (limits.py marks
    it), 503 unless `database=False` (the app-wide busy-database handler)."""

    def attach(view: V) -> V:
        view.contract = Operation(summary, answers, body, security, parameters, database, media)  # type: ignore[attr-defined]
        return view

    return attach


# --- the document ---------------------------------------------------------------------------

HEADERS: dict[str, dict[str, Any]] = {
    ETAG_HEADER: {
        "description": 'The game\'s version, like "g12v3-3b8e41c07d2a" (W/"g12v3-3b8e41c07d2a" '
        "when the answer is compressed: the same version in another encoding): send it in "
        "If-Match or If-None-Match, either form.",
        "required": True,
        "schema": {"type": "string", "pattern": '^(W/)?"g[0-9]+v[0-9]+-[0-9a-f]{12}"$'},
    },
    "Location": {
        "description": "The URL of what was created.",
        "required": True,
        "schema": {"type": "string", "format": "uri"},
    },
    "Retry-After": {
        "description": "Seconds to wait before trying again.",
        "required": True,
        "schema": {"type": "string", "pattern": "^[0-9]+$"},
    },
    "WWW-Authenticate": {
        "description": 'The bearer challenge (error="invalid_token" for an unknown or revoked '
        "personal token).",
        "required": True,
        "schema": {"type": "string"},
    },
}
PARAMETERS: dict[str, dict[str, Any]] = {
    IF_MATCH_HEADER: {
        "name": IF_MATCH_HEADER,
        "in": "header",
        "required": False,
        "description": "The ETag you read (or several, comma-separated, or *): if the game "
        "changed since, nothing is saved and the answer is 412.",
        "schema": {"type": "string"},
        "example": '"g1v1-3b8e41c07d2a"',
    },
    "Idempotency-Key": {
        "name": "Idempotency-Key",
        "in": "header",
        "required": False,
        "description": "Your own name for this write (8-64 letters, digits, - or _): sending it "
        "again with the same key and body saves nothing and answers as the first time; the same "
        "key with another body is refused (422).",
        "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{8,64}$"},
        "example": "phone-3f9c2a71",
    },
    IF_NONE_MATCH_HEADER: {
        "name": IF_NONE_MATCH_HEADER,
        "in": "header",
        "required": False,
        "description": "The ETag you have: 304 if the answer has not changed since.",
        "schema": {"type": "string"},
        "example": '"g1v1-3b8e41c07d2a"',
    },
}
SECURITY_SCHEMES = {
    "bearer": {
        "type": "http",
        "scheme": "bearer",
        "description": "A quick game's token from POST /games: the edit token reads and records "
        "scores, the view token reads. It never opens a club game.",
    },
    "personalToken": {
        "type": "http",
        "scheme": "bearer",
        "bearerFormat": "sk_ followed by 43 URL-safe characters",
        "description": "A personal API token, made on the account page (/account) and revocable "
        "there. It opens the games of the account's clubs: a viewer reads, a scorer or owner also "
        "records scores and creates club games. It never opens a quick game.",
    },
}
DESCRIPTION = (
    "Score Mexican Train and draw dominoes games. Creating a quick game needs no token; its "
    "answer holds an edit token (record scores) and a view token (read). Club games are opened "
    "with members' personal API tokens instead.\n\n"
    'Request bodies are JSON objects with exact types (12, not "12"; true, not 1). A field '
    "this document does not list is refused with 422 (code request.unknown_field), so a typo "
    "is never silently ignored. A body that is not a JSON object, or holds text no database "
    "stores (NUL, lone surrogates), is refused with 400. What a round or a setup means (names "
    "of this game's players, pips a hand can hold, a start double within the set...) is decided "
    "by the rules: those refusals are 422 with the rule's stable code."
)


def _one_of(models: tuple[type[BaseModel], ...]) -> dict[str, Any]:
    refs = [{"$ref": REF.format(model=model.__name__)} for model in models]
    return refs[0] if len(refs) == 1 else {"oneOf": refs}


def _answer(answer: Answer) -> dict[str, Any]:
    out: dict[str, Any] = {"description": answer.description}
    if answer.models:
        out["content"] = {"application/json": {"schema": _one_of(answer.models)}}
    if answer.headers:
        out["headers"] = {name: HEADERS[name] for name in answer.headers}
    if answer.links:
        out["links"] = dict(answer.links)
    return out


def _path(rule_text: str, converters: Mapping[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    """A Flask rule as an OpenAPI path and its path parameters (bounds from the converters)."""
    params = []
    for name, converter in converters.items():
        low = getattr(converter, "min", None)
        high = getattr(converter, "max", None)
        schema: dict[str, Any] = {"type": "integer", "minimum": 0 if low is None else low}
        if high is not None:
            schema["maximum"] = high
        params.append(
            {"name": name, "in": "path", "required": True, "schema": schema, "example": 1}
        )
    path = re.sub(r"<(?:[^<>]*:)?(\w+)>", r"{\1}", rule_text).removeprefix(API_PREFIX)
    return path, params


def answers_of(op: Operation, view: Any) -> dict[int, Answer]:
    """Every status a route can answer, in order: its own, 429 when a rate limit counts it
    (limits.py marks the view), and 503 when it reads the database (the busy handler)."""
    answers = dict(op.answers)
    if getattr(view, "rate_limit", None):
        answers.setdefault(429, LIMITED)
    if op.database:
        answers.setdefault(503, BUSY)
    return dict(sorted(answers.items()))


def _operation(
    op: Operation, operation_id: str, path_params: list[dict[str, Any]], view: Any
) -> dict[str, Any]:
    out: dict[str, Any] = {"summary": op.summary, "operationId": operation_id}
    if op.security:
        out["security"] = [dict(item) for item in op.security]
    params = path_params + [PARAMETERS[name] for name in op.parameters]
    if params:
        out["parameters"] = params
    if op.body is not None:
        examples: Any = op.body.model_config.get("json_schema_extra", {})
        media: dict[str, Any] = {"schema": {"$ref": REF.format(model=op.body.__name__)}}
        if isinstance(examples, dict) and examples.get("examples"):
            media["examples"] = {
                f"example{index + 1}": {"value": value}
                for index, value in enumerate(examples["examples"])
            }
        out["requestBody"] = {"required": True, "content": {op.media: media}}
    answers = answers_of(op, view)
    out["responses"] = {str(status): _answer(answer) for status, answer in answers.items()}
    return out


def operations(app: Flask, blueprint: str) -> list[tuple[str, str, Operation, Any, Any]]:
    """Every (path rule, method, contract, rule, view) of a blueprint's routes, in the app's
    order."""
    found = []
    for rule in app.url_map.iter_rules():
        if not rule.endpoint.startswith(blueprint + "."):
            continue
        view = app.view_functions[rule.endpoint]
        op = getattr(view, "contract", None)
        assert op is not None, f"{rule.endpoint} declares no contract"
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            found.append((rule.rule, method.lower(), op, rule, view))
    return found


def _nullable(node: Any) -> Any:
    """`anyOf: [{type: integer, minimum: 1}, {type: null}]` (pydantic's Optional) written as
    `type: [integer, null], minimum: 1`: the same schema, the form OpenAPI 3.1 tools read best
    (Schemathesis took the anyOf form's boundary values for valid ones)."""
    if isinstance(node, list):
        return [_nullable(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _nullable(value) for key, value in node.items()}
    options = node.get("anyOf")
    if isinstance(options, list) and len(options) == 2 and {"type": "null"} in options:
        (other,) = [option for option in options if option != {"type": "null"}]
        if isinstance(other.get("type"), str):
            del node["anyOf"]
            node = {**other, **node, "type": [other["type"], "null"]}
    return node


def document(app: Flask, blueprint: str = "api") -> dict[str, Any]:
    """The OpenAPI 3.1 document of a blueprint's routes, written from their contracts."""
    paths: dict[str, dict[str, Any]] = {}
    models: dict[str, type[BaseModel]] = {}
    for rule_text, method, op, rule, view in operations(app, blueprint):
        path, params = _path(rule_text, rule._converters)
        operation_id = rule.endpoint.removeprefix(blueprint + ".").rstrip("_")
        paths.setdefault(path, {})[method] = _operation(op, operation_id, params, view)
        for model in ([op.body] if op.body else []) + [
            model for answer in answers_of(op, view).values() for model in answer.models
        ]:
            models[model.__name__] = model
    _, top = models_json_schema(
        [(model, "validation") for model in models.values()], ref_template=REF
    )
    return {
        "openapi": "3.1.0",
        "info": {"title": "Scorekeeper API", "version": "1", "description": DESCRIPTION},
        "servers": [{"url": API_PREFIX}],
        "components": {
            "schemas": _nullable(top.get("$defs", {})),
            "securitySchemes": SECURITY_SCHEMES,
        },
        "paths": paths,
    }


# --- answers several routes share ---------------------------------------------------------------

GAME_SECURITY: tuple[Mapping[str, list[str]], ...] = ({"bearer": []}, {"personalToken": []})
BAD_BODY = Answer(
    "The body is not a JSON object, or holds text no database stores (NUL, lone surrogates); "
    "or an Idempotency-Key that is not 8-64 letters, digits, - or _.",
    (schemas.Error,),
)
UNAUTHORIZED = Answer(
    "No Authorization: Bearer header, a malformed one, or a personal token that is unknown or "
    "revoked.",
    (schemas.Error,),
    ("WWW-Authenticate",),
)
FORBIDDEN = Answer(
    "Quick game: the token is not one of this game's (writes need the edit one), or is a personal "
    "token. Club game: not a personal token, or the account's role does not allow it (reading "
    "needs a member, writing a scorer or owner).",
    (schemas.Error,),
)
NOT_FOUND = Answer("No such game (or round).", (schemas.Error,))
TOO_LARGE = Answer("The body is larger than 2 MB.", (schemas.Error,))
INVALID_BODY = Answer(
    "Nothing was saved: a field has the wrong shape or is unknown (codes request.*), or the "
    "values break a rule of the game (the rule's code).",
    (schemas.Errors,),
)
INVALID_ROUND = Answer(
    'Nothing was saved: errors (shape or rules), or warnings to confirm with "confirm": true.',
    (schemas.Errors, schemas.Warnings),
)
NEW_ROUND_REFUSED = Answer(
    'Nothing was saved: errors (shape or rules), warnings to confirm with "confirm": true, or '
    "an Idempotency-Key already used for a round with another body (send it with a new key).",
    (schemas.Errors, schemas.Warnings, schemas.Error),
)
STALE = Answer(
    "If-Match does not match the game's ETag: nothing was saved; the game as it is now.",
    (schemas.Stale,),
    (ETAG_HEADER,),
)
# Added by `answers_of`, never declared by a route: where a rate limit counts the route...
LIMITED = Answer(
    "Too many writes from this address in a short time: nothing was saved.",
    (schemas.Error,),
    ("Retry-After",),
)
# ... and wherever the route reads the database (a lock or the connection pool stayed taken).
BUSY = Answer(
    "The database is busy (a lock or every connection stayed taken): nothing was read or "
    "saved; try again after Retry-After seconds.",
    (schemas.Error,),
    ("Retry-After",),
)
# Every route that reads a body: what the server itself may answer before the view.
WRITES: dict[int, Answer] = {413: TOO_LARGE}
