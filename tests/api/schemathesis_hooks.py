"""Schemathesis hooks of our own, loaded by tests/api/test_api_schemathesis.py.

- A check: a request that fits the document may still break a rule of the game (a name that is
  not one of this game's players, a start double above the set): the API answers 422 with the
  rule's code, and that is a right answer. What it must never do is refuse such a request for
  its *shape* (codes `request.*`): that would mean the document allows what the server refuses.
- A map: positive cases (ones that fit the document) are addressed to the game under test
  (SCOREKEEPER_SCHEMATHESIS_GAME: its id and players, as JSON). The document cannot say which
  games exist or who plays them (any id and any name fit it), so a generated request meets a
  game that does not exist (404), and a generated round names strangers, which the rules refuse
  (422): PUT and DELETE would then almost never meet a round. So a positive case's game_id
  becomes the game's, and each name in a round becomes one of its players, and a player the
  round leaves out is given 0 pips. In the fuzzing and stateful phases an If-Match that is not
  one of this game's ETags (a random string: it can only ever get 412) is left out, as a client
  sends the ETag it read or none; the ETags the stateful phase carries along the document's
  links stay, and the examples and coverage phases keep every generated If-Match (lists, *,
  odd text). Everything still fits the document; pips, tiles, penalties, flags and numbers stay
  as generated, so the rules still refuse many. Negative cases are left alone. A player
  leaving or coming back (POST .../leave, .../back) is sent to a second game of the same
  players, with its own token (the environment's "seats"): a leaver at the main table would
  change what its rounds need, and so how many of them are saved, corrected and deleted.
"""

from __future__ import annotations

import json
import os
import re
import zlib
from typing import Any

import schemathesis

ROUND_WRITES = {"POST /games/{game_id}/rounds", "PUT /games/{game_id}/rounds/{number}"}
SEAT_CHANGES = {"POST /games/{game_id}/leave", "POST /games/{game_id}/back"}


@schemathesis.check
def valid_data_is_refused_only_by_the_rules(ctx, response, case) -> bool | None:
    """A schema-valid request answered 422 carries only rule codes, never a shape code."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code != 422:
        return None
    body = response.json()
    problems = body.get("errors", []) + body.get("warnings", [])
    shape = sorted({p["code"] for p in problems if p["code"].startswith("request.")})
    if shape:
        raise AssertionError(f"A request that fits the document was refused for its shape: {shape}")
    return None


def _game() -> dict[str, Any] | None:
    raw = os.environ.get("SCOREKEEPER_SCHEMATHESIS_GAME")
    return json.loads(raw) if raw else None


def _player(name: Any, players: list[str]) -> Any:
    """The same generated name always becomes the same player (a stable hash, not Python's)."""
    if not isinstance(name, str):
        return name
    return players[zlib.crc32(name.encode("utf-8", "surrogatepass")) % len(players)]


def addressed(body: dict[str, Any], players: list[str]) -> dict[str, Any]:
    """A round body whose names are all this game's players, each of them in it."""
    body = dict(body)
    if isinstance(body.get("out"), str):
        body["out"] = _player(body["out"], players)
    for key in ("scores", "hands"):
        if isinstance(body.get(key), dict):
            body[key] = {_player(name, players): value for name, value in body[key].items()}
    scores = body.setdefault("scores", {})
    if isinstance(scores, dict):
        given = set(scores) | set(body.get("hands") or {}) | {body.get("out")}
        scores.update({name: 0 for name in players if name not in given})
    if isinstance(body.get("penalties"), list):
        body["penalties"] = [
            {**item, "player": _player(item.get("player"), players)}
            if isinstance(item, dict)
            else item
            for item in body["penalties"]
        ]
    return body


@schemathesis.hook
def map_case(context, case):
    """Positive cases meet the game under test (see the module's docstring)."""
    game = _game()
    meta = case.meta
    if game is None or meta is None or not meta.generation.mode.is_positive:
        return case
    label = f"{case.operation.method.upper()} {case.operation.path}"
    seats = game.get("seats") if label in SEAT_CHANGES else None
    if seats:
        game = {**game, "id": seats["id"], "key": seats["key"]}
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {seats['token']}"}
    if "game_id" in (case.path_parameters or {}):
        case.path_parameters = {**case.path_parameters, "game_id": game["id"]}
    if meta.phase.name in {"fuzzing", "stateful"} and case.headers:
        # This game's own ETags only: the document's pattern also lets a generated If-Match
        # name this game's id with another game's key (it can only ever get 412).
        ours = re.compile(rf'(W/)?"g{game["id"]}v[0-9]+-{game["key"]}"')
        value = case.headers.get("If-Match")
        if value is not None and not ours.fullmatch(str(value)):
            case.headers = {k: v for k, v in case.headers.items() if k != "If-Match"}
    if label in ROUND_WRITES and isinstance(case.body, dict):
        case.body = addressed(case.body, game["players"])
    return case
