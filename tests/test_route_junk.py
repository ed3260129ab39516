"""No URL gives a 500: every route with an id in its path, given huge, negative, zero and
non-numeric ids, answers 4xx (or works), never 5xx; and no route takes an unbounded integer."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.routing import Rule
from werkzeug.routing.converters import NumberConverter

from scorekeeper import core, create_app
from scorekeeper.services import games as game_service
from scorekeeper.web.converters import MAX_ID, IdConverter
from tests.helpers import load_game

DEVICE = "route-junk-device-0123456789abcdef"


JUNK_SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Past every bound a database has: PostgreSQL's integer, SQLite's 64-bit integer, and beyond.
PAST_THE_BOUND = ("2147483648", "9223372036854775808", "99999999999999999999", "9" * 5000)
NOT_IDS = ("0", "-1", "+1", "1.0", "1e3", "0x10", "٣", "６", " 1", "1 ", "", "%00", "abc")


def _rules() -> list[Rule]:
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": "sqlite://"}
    )
    return sorted(app.url_map.iter_rules(), key=lambda rule: rule.rule)


RULES = _rules()
ID_RULES = [r for r in RULES if any(isinstance(c, IdConverter) for c in r._converters.values())]


def _url(rule: Rule, values: dict[str, str]) -> str:
    """The rule's path with each <converter(args):name> replaced by values[name]."""
    return re.sub(r"<(?:[^<>:]+:)?(\w+)>", lambda match: values[match.group(1)], rule.rule)


def make_game(app) -> int:
    """A quick game this test's device scores, with one round: id 1 is a real game."""
    with app.app_context():
        game = game_service.create_game(["Ana", "Ben"], core.GameRules(), device=DEVICE)
        entry = core.RoundEntry({"Ana": core.HandEntry(0), "Ben": core.HandEntry(5)}, out="Ana")
        game_service.record_round(load_game(game.id), entry, device=DEVICE)
        return game.id


def _methods(rule: Rule) -> list[str]:
    return sorted((rule.methods or set()) - {"HEAD", "OPTIONS"})


def test_no_route_takes_an_unbounded_integer():
    unbounded = [
        (rule.rule, name)
        for rule in RULES
        for name, converter in rule._converters.items()
        if isinstance(converter, NumberConverter)
        and (converter.max is None or converter.max > MAX_ID)
    ]
    assert unbounded == []
    assert len(ID_RULES) >= 40  # every page, image, form and API route with an id


@pytest.mark.parametrize("value", PAST_THE_BOUND + ("0", "-1", "٣"))
def test_an_id_past_the_bound_is_not_found_on_every_route(app, client, value):
    client.set_cookie("sk_device", DEVICE)
    make_game(app)  # game 1 exists: only the bad id can make the answer a 404
    answers = {}
    for rule in ID_RULES:
        for name in (n for n, c in rule._converters.items() if isinstance(c, IdConverter)):
            values = {n: "1" for n in rule._converters}
            values.update({"kind": "race", "token": "x"})
            values[name] = quote(value, safe="")
            for method in _methods(rule):
                answers[(method, rule.rule, name)] = client.open(
                    _url(rule, values), method=method
                ).status_code
    # 405: the same path answers other methods, and Werkzeug says so before it reads the id.
    assert {key: code for key, code in answers.items() if code not in (404, 405)} == {}


junk_id = (
    st.integers(min_value=-(2**80), max_value=2**80).map(str)
    | st.sampled_from(PAST_THE_BOUND + NOT_IDS + ("1", "2", str(MAX_ID)))
    | st.text(max_size=12)
)


@JUNK_SETTINGS
@given(data=st.data())
def test_junk_ids_on_every_route_never_fail(app, client, data):
    if not hasattr(app, "_junk_game"):
        app._junk_game = make_game(app)
        client.set_cookie("sk_device", DEVICE)
    rule = data.draw(st.sampled_from(ID_RULES), label="rule")
    values = {
        name: quote(data.draw(junk_id, label=name), safe="") or "1" for name in rule._converters
    }
    method = data.draw(st.sampled_from(_methods(rule)), label="method")
    response = client.open(_url(rule, values), method=method, data={"x": "1"})
    assert response.status_code < 500, (method, rule.rule, values, response.status_code)
