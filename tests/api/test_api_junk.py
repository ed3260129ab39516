"""Junk in, 4xx out: generated JSON, raw bytes and odd headers never make an API route fail.

Every answer is JSON; an error (4xx) says why in `error`, `errors` or `warnings`. Input that
happens to be valid may be saved (2xx): that is fine too. What must never happen is a 500.
"""

from __future__ import annotations

import json
import string
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.api import schemas

GAME_FIELDS = tuple(schemas.NewGame.model_fields)
HOUSE_RULE_FIELDS = tuple(schemas.HouseRules.model_fields)
PENALTY_FIELDS = tuple(schemas.PenaltyEntry.model_fields)

API = "/api/v1"
NAMES = ["Ana", "Ben", "Cy"]

JUNK_SETTINGS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.text(st.characters(categories=["Cs", "Cc"]), max_size=3)  # lone surrogates, NUL
    | st.sampled_from(["6-4", "0-0", "12-12", "x", "", " 7 ", "-1", *NAMES])
)
anything = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=8) | st.sampled_from(NAMES), inner, max_size=4)
    ),
    max_leaves=12,
)
names = (
    st.sampled_from(NAMES)
    | st.text(max_size=8)
    | st.builds("{}{}".format, st.sampled_from(NAMES), st.sampled_from(["\x00", "\ud800"]))
)


def some_of(fields: tuple[str, ...] | list[str], value: Any) -> st.SearchStrategy:
    """Objects holding any of these fields, each with a value drawn from `value`."""
    return st.fixed_dictionaries({}, optional={field: value for field in fields})


game_bodies = (
    anything
    | some_of(
        GAME_FIELDS,
        anything | st.lists(names, max_size=6),
    )
    | st.builds(
        lambda body, house: {**body, "house_rules": house},
        some_of(GAME_FIELDS, anything),
        some_of(HOUSE_RULE_FIELDS, anything) | anything,
    )
)
# Bodies that are nearly right reach the core and the database, where junk is rarer.
tiles = st.builds("{}-{}".format, st.integers(0, 19), st.integers(0, 19)) | names
near_games = st.fixed_dictionaries(
    {"players": st.lists(names, min_size=2, max_size=6)},
    optional={
        "game_type": st.sampled_from(["mexican_train", "draw"]),
        "set": st.sampled_from([6, 9, 12, 15, 18]) | st.integers(-1, 20),
        "blank_scoring": st.sampled_from(["face", "blank_25", "double_blank_25"]),
        "start_double": st.none() | st.integers(-1, 20),
        "rounds": st.none() | st.integers(-1, 20),
        "order": st.sampled_from(["descending", "ascending"]),
        "hand_size": st.none() | st.integers(-1, 20),
        "teams": st.lists(st.lists(names, min_size=1, max_size=3), max_size=4),
        "target": st.sampled_from([50, 100]) | st.integers(),
        "house_rules": some_of(HOUSE_RULE_FIELDS, st.integers(-1, 30) | st.booleans()),
    },
)
near_rounds = st.fixed_dictionaries(
    {"out": st.none() | names, "scores": st.dictionaries(names, st.integers(-5, 400), max_size=3)},
    optional={
        "blocked": st.booleans(),
        "confirm": st.booleans(),
        "number": st.integers(0, 3),
        "hands": st.dictionaries(names, st.lists(tiles, max_size=6), max_size=3),
        "penalties": st.lists(
            st.fixed_dictionaries(
                {
                    "player": names,
                    "kind": st.sampled_from(["open_train", "strategic_error", "adjustment"]),
                },
                optional={"points": st.integers(-2000, 2000), "reason": st.text(max_size=8)},
            ),
            max_size=3,
        ),
    },
)
penalties = st.lists(
    some_of(PENALTY_FIELDS, anything)
    | st.builds(
        lambda player, kind, points: {"player": player, "kind": kind, "points": points},
        names,
        st.sampled_from(["open_train", "strategic_error", "adjustment"]) | anything,
        anything,
    )
    | anything,
    max_size=3,
)
round_bodies = anything | st.fixed_dictionaries(
    {},
    optional={
        "number": anything,
        "out": names | anything,
        "blocked": anything,
        "confirm": anything,
        "scores": st.dictionaries(names, anything, max_size=4) | anything,
        "hands": st.dictionaries(names, st.lists(anything, max_size=4) | anything, max_size=4)
        | anything,
        "penalties": penalties | anything,
    },
)
raw_bytes = st.binary(max_size=300)
header_text = st.text(alphabet=string.printable.strip("\r\n\x0b\x0c"), max_size=60)


def assert_answered(response) -> None:
    """A 2xx, 304 or 4xx status; a JSON body whose errors carry messages."""
    status = response.status_code
    assert status < 500, response.data[:500]
    if status == 304:
        return
    assert response.is_json, response.data[:200]
    body = response.get_json()
    if status >= 400:
        assert isinstance(body, dict)
        if "error" in body:
            messages = [body["error"]]
        else:
            messages = [p["message"] for p in body.get("errors", body.get("warnings", []))]
        assert messages
        assert all(isinstance(message, str) and message for message in messages)


@pytest.fixture
def game(client):
    """A game with every house rule and round 1 recorded, and its edit token's header."""
    rules = {"open_train_points": 10, "strategic_error": True, "adjustments": True}
    created = client.post(f"{API}/games", json={"players": NAMES, "house_rules": rules}).get_json()
    headers = {"Authorization": f"Bearer {created['edit_token']}"}
    response = client.post(
        f"{API}/games/{created['id']}/rounds",
        json={"out": "Ana", "scores": {"Ben": 5, "Cy": 6}},
        headers=headers,
    )
    assert response.status_code == 201
    return created["id"], headers


def send(client, method: str, url: str, body: Any, headers=None):
    data = body if isinstance(body, bytes) else json.dumps(body)
    return client.open(
        url, method=method, data=data, content_type="application/json", headers=headers or {}
    )


@JUNK_SETTINGS
@given(body=near_games | game_bodies | raw_bytes)
def test_create_game_junk(client, body):
    assert_answered(send(client, "POST", f"{API}/games", body))


@JUNK_SETTINGS
@given(body=near_rounds | round_bodies | raw_bytes)
def test_record_round_junk(client, game, body):
    game_id, headers = game
    assert_answered(send(client, "POST", f"{API}/games/{game_id}/rounds", body, headers))


@JUNK_SETTINGS
@given(body=near_rounds | round_bodies | raw_bytes)
def test_edit_round_junk(client, game, body):
    game_id, headers = game
    assert_answered(send(client, "PUT", f"{API}/games/{game_id}/rounds/1", body, headers))


@JUNK_SETTINGS
@given(body=anything | raw_bytes, number=st.integers(min_value=0, max_value=10**12))
def test_delete_round_junk(client, game, body, number):
    game_id, headers = game
    assert_answered(send(client, "DELETE", f"{API}/games/{game_id}/rounds/{number}", body, headers))


@JUNK_SETTINGS
@given(
    method=st.sampled_from(["GET", "POST", "PUT", "DELETE"]),
    path=st.sampled_from(["", "/rounds", "/rounds/1", "/rounds/0"]),
    authorization=header_text | st.builds("Bearer {}".format, header_text),
    if_match=st.none() | header_text,
    if_none_match=st.none() | header_text,
    body=round_bodies | raw_bytes,
)
def test_every_game_route_with_junk_headers(
    client, game, method, path, authorization, if_match, if_none_match, body
):
    game_id, _ = game
    headers = {"Authorization": authorization}
    if if_match is not None:
        headers["If-Match"] = if_match
    if if_none_match is not None:
        headers["If-None-Match"] = if_none_match
    response = send(client, method, f"{API}/games/{game_id}{path}", body, headers)
    assert_answered(response)
    if response.status_code in (200, 201, 304):
        assert "ETag" in response.headers


@JUNK_SETTINGS
@given(body=anything | raw_bytes, game_id=st.integers(min_value=0, max_value=10**40))
def test_game_ids_and_openapi_with_junk(client, game, body, game_id):
    _, headers = game
    assert_answered(send(client, "GET", f"{API}/games/{game_id}", body, headers))
    assert_answered(send(client, "POST", f"{API}/games/{game_id}/rounds", body, headers))
    assert_answered(send(client, "GET", f"{API}/openapi.json", body))
