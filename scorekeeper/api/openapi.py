"""The OpenAPI 3.1 description of the API, written by hand next to the routes it describes."""

from __future__ import annotations

from typing import Any


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str, **extra: Any) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": schema}},
        **extra,
    }


def _nullable(kind: str) -> dict[str, Any]:
    return {"type": [kind, "null"]}


NAME = {"type": "string", "description": "A player's name, as given when the game was created."}
ETAG = {
    "ETag": {
        "description": 'The game\'s version, like "g12v3": send it in If-Match or If-None-Match.',
        "schema": {"type": "string"},
    }
}
LOCATION = {
    "Location": {"description": "The URL of what was created.", "schema": {"type": "string"}}
}

SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object",
        "description": "A request that could not be served, with a message for people.",
        "required": ["error"],
        "properties": {"error": {"type": "string"}},
    },
    "Problem": {
        "type": "object",
        "required": ["player", "field", "message"],
        "properties": {
            "player": {**_nullable("string"), "description": "Whose hand it is about, if any."},
            "field": {
                **_nullable("string"),
                "description": "What part of the request is wrong: players, players-0, set, "
                "teams, pips, tiles, out, blocked, penalty...",
            },
            "message": {"type": "string"},
        },
    },
    "Errors": {
        "type": "object",
        "description": "Nothing was saved: every field that breaks a rule or has the wrong type.",
        "required": ["errors"],
        "properties": {"errors": {"type": "array", "items": _ref("Problem")}},
    },
    "Warnings": {
        "type": "object",
        "description": "Nothing was saved: the values look wrong. Send the round again with "
        '"confirm": true to save it anyway.',
        "required": ["warnings"],
        "properties": {"warnings": {"type": "array", "items": _ref("Problem")}},
    },
    "Stale": {
        "type": "object",
        "description": "Someone saved first: nothing was saved; the game as it is now.",
        "required": ["error", "game"],
        "properties": {"error": {"type": "string"}, "game": _ref("Game")},
    },
    "HouseRules": {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "open_train_points": {
                "type": "integer",
                "default": 0,
                "description": "Points added to a player whose train is open (0: off).",
            },
            "strategic_error": {"type": "boolean", "default": False},
            "adjustments": {"type": "boolean", "default": False},
        },
    },
    "NewGame": {
        "type": "object",
        "additionalProperties": False,
        "required": ["players"],
        "properties": {
            "players": {
                "type": "array",
                "items": {"type": "string"},
                "description": "In seating order.",
            },
            "game_type": {"enum": ["mexican_train", "draw"], "default": "mexican_train"},
            "set": {"type": "integer", "enum": [6, 9, 12, 15, 18], "default": 12},
            "blank_scoring": {
                "enum": ["face", "blank_25", "double_blank_25", "double_blank_50"],
                "default": "face",
            },
            "start_double": {
                **_nullable("integer"),
                "description": "Default: the set's top double.",
            },
            "rounds": {**_nullable("integer"), "description": "Default: down (or up) to 0-0."},
            "order": {"enum": ["descending", "ascending"], "default": "descending"},
            "hand_size": {**_nullable("integer"), "description": "Default: by number of players."},
            "teams": {
                "type": "array",
                "items": {
                    "type": "array",
                    "items": {"type": "string"},
                    "minItems": 2,
                    "maxItems": 2,
                },
                "description": "Partnerships (4, 6 or 8 players): pairs of names.",
            },
            "target": {"type": "integer", "enum": [50, 100], "default": 100},
            "house_rules": _ref("HouseRules"),
            "club_id": {
                **_nullable("integer"),
                "description": "Create the game in this club (personal token of a scorer or "
                "owner of the club). Players are then guests, given by name.",
            },
        },
    },
    "CreatedGame": {
        "type": "object",
        "required": ["id", "edit_token", "view_token", "engines", "edit_url", "view_url"],
        "properties": {
            "id": {"type": "integer"},
            "edit_token": {
                **_nullable("string"),
                "description": "Bearer token to record scores (null for a club game).",
            },
            "view_token": {
                **_nullable("string"),
                "description": "Bearer token to read the game (null for a club game).",
            },
            "engines": {"type": "array", "items": {"type": "integer"}},
            "edit_url": {
                **_nullable("string"),
                "description": "Browser link that grants edit rights (null for a club game).",
            },
            "view_url": {
                **_nullable("string"),
                "description": "Read-only browser link to share (null for a club game).",
            },
            "club_id": {
                "type": "integer",
                "description": "Club games only: the club; its members open the game with "
                "their personal tokens.",
            },
        },
    },
    "PenaltyEntry": {
        "type": "object",
        "additionalProperties": False,
        "required": ["player", "kind"],
        "properties": {
            "player": NAME,
            "kind": {"enum": ["open_train", "strategic_error", "adjustment"]},
            "points": {"type": "integer", "description": "Adjustments only: signed points."},
            "reason": {"type": "string", "description": "Required for adjustments."},
        },
    },
    "RoundEntry": {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "number": {
                **_nullable("integer"),
                "description": "The round you mean. POST: if another client recorded it first, "
                "409. PUT: must match the URL.",
            },
            "out": {**_nullable("string"), "description": "Who went out (null: nobody)."},
            "blocked": {"type": "boolean", "default": False},
            "scores": {
                "type": "object",
                "additionalProperties": {"type": ["integer", "null"]},
                "description": "Pips left in each hand; the player who went out may be left out.",
            },
            "hands": {
                "type": "object",
                "additionalProperties": {"type": "array", "items": {"type": "string"}},
                "description": 'Tiles left in each hand, like ["6-4", "3-2"]; wins over scores.',
            },
            "penalties": {"type": "array", "items": _ref("PenaltyEntry")},
            "confirm": {
                "type": "boolean",
                "default": False,
                "description": "Save even if the round has warnings.",
            },
        },
    },
    "Penalty": {
        "type": "object",
        "required": ["player", "kind", "points", "reason"],
        "properties": {
            "player": NAME,
            "kind": {"enum": ["open_train", "strategic_error", "adjustment"]},
            "points": {"type": "integer"},
            "reason": {"type": "string"},
        },
    },
    "Hand": {
        "type": "object",
        "required": ["player", "pips", "penalty", "score", "went_out", "tiles"],
        "properties": {
            "player": NAME,
            "pips": {"type": "integer"},
            "penalty": {"type": "integer"},
            "score": {"type": "integer", "description": "The round score, penalties included."},
            "went_out": {"type": "boolean"},
            "tiles": {"type": ["array", "null"], "items": {"type": "string"}},
        },
    },
    "Round": {
        "type": "object",
        "required": ["number", "engine", "out", "blocked", "hands", "penalties"],
        "properties": {
            "number": {"type": "integer"},
            "engine": {
                **_nullable("integer"),
                "description": "n for the double n-n; null: draw game.",
            },
            "out": _nullable("string"),
            "blocked": {"type": "boolean"},
            "hands": {"type": "array", "items": _ref("Hand")},
            "penalties": {"type": "array", "items": _ref("Penalty")},
        },
    },
    "RoundLine": {
        "type": "object",
        "required": ["number", "engine", "out", "blocked", "scores", "pips", "penalties"],
        "properties": {
            "number": {"type": "integer"},
            "engine": _nullable("integer"),
            "out": _nullable("string"),
            "blocked": {"type": "boolean"},
            "scores": {"type": "object", "additionalProperties": {"type": "integer"}},
            "pips": {"type": "object", "additionalProperties": {"type": "integer"}},
            "penalties": {"type": "array", "items": _ref("Penalty")},
        },
    },
    "Standing": {
        "type": "object",
        "required": ["place", "shared", "name", "total", "zero_rounds", "decided_by"],
        "properties": {
            "place": {"type": "integer"},
            "shared": {"type": "boolean"},
            "name": {"type": "string", "description": 'A player, or a team ("Ana & Cy").'},
            "total": {"type": "integer"},
            "zero_rounds": {"type": "integer"},
            "decided_by": {"enum": ["total", "zero_rounds", "lowest_nonzero", "shared"]},
        },
    },
    "Options": {
        "type": "object",
        "required": [
            "set",
            "blank_scoring",
            "start_double",
            "rounds",
            "order",
            "hand_size",
            "target",
            "house_rules",
        ],
        "properties": {
            "set": {"type": "integer"},
            "blank_scoring": {"type": "string"},
            "start_double": _nullable("integer"),
            "rounds": _nullable("integer"),
            "order": {"type": "string"},
            "hand_size": {"type": "integer"},
            "target": {"type": "integer"},
            "house_rules": _ref("HouseRules"),
        },
    },
    "Game": {
        "type": "object",
        "required": [
            "id",
            "game_type",
            "players",
            "teams",
            "options",
            "engines",
            "rounds",
            "standings",
            "player_standings",
            "finished",
            "next_round",
            "next_engine",
            "next_opener",
            "winner",
            "winners",
        ],
        "properties": {
            "id": {"type": "integer"},
            "game_type": {"enum": ["mexican_train", "draw"]},
            "players": {"type": "array", "items": {"type": "string"}},
            "teams": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
            "options": _ref("Options"),
            "engines": {"type": "array", "items": {"type": "integer"}},
            "rounds": {"type": "array", "items": _ref("RoundLine")},
            "standings": {
                "type": "array",
                "items": _ref("Standing"),
                "description": "Teams in a partnership game, else players. Lowest total first; "
                "highest first in the draw game.",
            },
            "player_standings": {"type": "array", "items": _ref("Standing")},
            "finished": {"type": "boolean"},
            "next_round": _nullable("integer"),
            "next_engine": _nullable("integer"),
            "next_opener": _nullable("string"),
            "winner": {
                **_nullable("string"),
                "description": "Once the game is over, if first place is not shared.",
            },
            "winners": {"type": "array", "items": {"type": "string"}},
        },
    },
}

GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "integer"}}
NUMBER = {"name": "number", "in": "path", "required": True, "schema": {"type": "integer"}}
IF_MATCH = {
    "name": "If-Match",
    "in": "header",
    "required": False,
    "description": "The ETag you read: if the game changed since, nothing is saved (412).",
    "schema": {"type": "string"},
}
IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": "Your own name for this write (8-64 letters, digits, - or _): sending it "
    "again with the same key saves nothing and answers as the first time.",
    "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{8,64}$"},
}
IF_NONE_MATCH = {
    "name": "If-None-Match",
    "in": "header",
    "required": False,
    "description": "The ETag you have: 304 if the game has not changed.",
    "schema": {"type": "string"},
}

BAD_BODY = _json(_ref("Error"), "The body is not a JSON object.")
UNAUTHORIZED = _json(
    _ref("Error"),
    "No Authorization: Bearer header, a malformed one, or a personal token that is unknown or "
    "revoked.",
)
FORBIDDEN = _json(
    _ref("Error"),
    "Quick game: the token is not one of this game's (writes need the edit one), or is a personal "
    "token. Club game: not a personal token, or the account's role does not allow it (reading "
    "needs a member, writing a scorer or owner).",
)
# Either token kind may be sent to a game's routes; which one opens the game depends on it.
GAME_SECURITY = [{"bearer": []}, {"personalToken": []}]
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
NOT_FOUND = _json(_ref("Error"), "No such game (or round).")
INVALID = _json(
    {"oneOf": [_ref("Errors"), _ref("Warnings")]},
    'Not saved: errors, or warnings to confirm with "confirm": true.',
)
STALE_409 = _json(
    {"oneOf": [_ref("Stale"), _ref("Error")]},
    "The game changed meanwhile (no If-Match sent), is over, or the round is not the last.",
)
STALE_412 = _json(_ref("Stale"), "If-Match does not match the game's ETag: nothing was saved.")


def _round_write(summary: str, status: str, created: bool) -> dict[str, Any]:
    headers = {**ETAG, **(LOCATION if created else {})}
    return {
        "summary": summary,
        "security": GAME_SECURITY,
        "parameters": [IF_MATCH, IDEMPOTENCY_KEY] if created else [IF_MATCH],
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": _ref("RoundEntry")}},
        },
        "responses": {
            status: _json(_ref("Round"), "Saved: the round, hand by hand.", headers=headers),
            "400": BAD_BODY,
            "401": UNAUTHORIZED,
            "403": FORBIDDEN,
            "404": NOT_FOUND,
            "409": STALE_409,
            "412": STALE_412,
            "422": INVALID,
        },
    }


def document() -> dict[str, Any]:
    """The OpenAPI document served at /api/v1/openapi.json."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Scorekeeper API",
            "version": "1",
            "description": "Score Mexican Train and draw dominoes games. Creating a quick game "
            "needs no token; its answer holds an edit token (record scores) and a view token "
            "(read). Club games are opened with members' personal API tokens instead.",
        },
        "servers": [{"url": "/api/v1"}],
        "components": {
            "schemas": SCHEMAS,
            "securitySchemes": SECURITY_SCHEMES,
        },
        "paths": {
            "/openapi.json": {
                "get": {
                    "summary": "This document",
                    "responses": {"200": _json({"type": "object"}, "The OpenAPI document.")},
                }
            },
            "/games": {
                "post": {
                    "summary": "Create a game",
                    # No token for a quick game; a personal token for a club game (club_id).
                    "security": [{}, {"personalToken": []}],
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": _ref("NewGame")}},
                    },
                    "responses": {
                        "201": _json(
                            _ref("CreatedGame"),
                            "Created: keep the edit token to record scores.",
                            headers={**ETAG, **LOCATION},
                        ),
                        "400": BAD_BODY,
                        "401": _json(
                            _ref("Error"),
                            "club_id sent without a personal token, or with an unknown or "
                            "revoked one.",
                        ),
                        "403": _json(
                            _ref("Error"), "The account is not a scorer or owner of that club."
                        ),
                        "422": _json(_ref("Errors"), "The players or options break a rule."),
                    },
                }
            },
            "/games/{game_id}": {
                "get": {
                    "summary": "Read a game: rounds, standings, what comes next",
                    "security": GAME_SECURITY,
                    "parameters": [GAME_ID, IF_NONE_MATCH],
                    "responses": {
                        "200": _json(_ref("Game"), "The game.", headers=ETAG),
                        "304": {"description": "Not changed since the ETag sent.", "headers": ETAG},
                        "401": UNAUTHORIZED,
                        "403": FORBIDDEN,
                        "404": NOT_FOUND,
                    },
                }
            },
            "/games/{game_id}/rounds": {
                "parameters": [GAME_ID],
                "post": _round_write("Record the next round", "201", created=True),
            },
            "/games/{game_id}/rounds/{number}": {
                "parameters": [GAME_ID, NUMBER],
                "get": {
                    "summary": "Read one round, hand by hand",
                    "security": GAME_SECURITY,
                    "responses": {
                        "200": _json(_ref("Round"), "The round.", headers=ETAG),
                        "401": UNAUTHORIZED,
                        "403": FORBIDDEN,
                        "404": NOT_FOUND,
                    },
                },
                "put": _round_write("Correct a recorded round", "200", created=False),
                "delete": {
                    "summary": "Delete the last round",
                    "security": GAME_SECURITY,
                    "parameters": [IF_MATCH],
                    "responses": {
                        "200": _json(_ref("Game"), "Deleted: the game as it is now.", headers=ETAG),
                        "401": UNAUTHORIZED,
                        "403": FORBIDDEN,
                        "404": NOT_FOUND,
                        "409": STALE_409,
                        "412": STALE_412,
                    },
                },
            },
        },
    }
