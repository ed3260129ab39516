"""Every house rule the core declares (core.HOUSE_RULES) reaches every layer: the tables, the
setup and club forms, the API's schema and answers, the export and the import.

Each test walks the core's rules, so a rule added to core.HouseRules that some layer misses
fails here, named."""

from __future__ import annotations

from html import unescape
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import inspect

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Club, Game
from scorekeeper.services import clubs as club_service
from scorekeeper.services import export_json, import_schema
from scorekeeper.services.games import mapping
from tests.clubs.helpers import as_, make_club_game, make_world
from tests.helpers import import_club_json, load_game

API = "/api/v1"
EACH_RULE = pytest.mark.parametrize("rule", core.HOUSE_RULES, ids=lambda rule: rule.name)


def chosen(rule: core.HouseRule) -> int | bool:
    """A value other than the rule's default that every form offers."""
    return True if rule.is_switch else rule.words.offered[-1]


CHOSEN = {rule.name: chosen(rule) for rule in core.HOUSE_RULES}
CHOSEN_RULES = core.house_rules_from(CHOSEN)


def form_data(values: dict[str, int | bool]) -> dict[str, str]:
    """The house rules as a browser posts them (an unchecked box is not sent)."""
    return {
        name: "y" if value is True else str(value)
        for name, value in values.items()
        if value is not False
    }


def setup_data(**extra: str) -> dict[str, str]:
    return {
        "players-0": "Ana",
        "players-1": "Ben",
        "players-2": "Cy",
        "game_type": "mexican_train",
        "set_size": "12",
        "order": "descending",
        "blank_scoring": "face",
        "target": "100",
        "submit": "Start",
        **extra,
    }


@EACH_RULE
def test_each_rule_is_declared_with_its_words(rule):
    assert rule.words.label and rule.words.description
    assert isinstance(rule.default, rule.kind)
    assert chosen(rule) != rule.default
    if not rule.is_switch:
        assert rule.words.low <= rule.default <= rule.words.high
        assert rule.words.offered and rule.words.out_of_bounds
        too_big = core.house_rules_from({rule.name: rule.words.high + 1})
        with pytest.raises(core.RuleError) as error:
            core.new_game(("Ana", "Ben"), core.GameRules(house_rules=too_big))
        assert [problem.field for problem in error.value.problems] == [rule.name]


def test_the_columns_hold_every_rule(app):
    with app.app_context():
        columns = {
            table: {column["name"] for column in inspect(db.engine).get_columns(table)}
            for table in ("games", "clubs")
        }
        assert {rule.name for rule in core.HOUSE_RULES} <= columns["games"] & columns["clubs"]
        game = Game()
        mapping.set_house_rules(game, CHOSEN_RULES)
        assert mapping.house_rules_of(game) == CHOSEN_RULES
        rules = core.GameRules(house_rules=CHOSEN_RULES)
        assert mapping.rules_of(Game(**mapping.rule_columns(rules))) == rules


def test_the_setup_form_shows_and_keeps_every_rule(app, client):
    page = unescape(client.get("/games/new").get_data(as_text=True))
    french = unescape(
        client.get("/games/new", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    )
    for rule in core.HOUSE_RULES:
        assert f'name="{rule.name}"' in page
        assert rule.words.label in page
        assert rule.words.label not in french  # translated
    response = client.post("/games/new", data=setup_data(**form_data(CHOSEN)))
    assert response.status_code == 302, response.get_data(as_text=True)
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        game = load_game(game_id)
        assert mapping.rules_of(game).house_rules == CHOSEN_RULES
        token = game.view_token
    answer = client.get(f"{API}/games/{game_id}", headers={"Authorization": f"Bearer {token}"})
    assert answer.get_json()["options"]["house_rules"] == CHOSEN


def test_the_api_takes_describes_and_answers_every_rule(client):
    body = {"players": ["Ana", "Ben", "Cy"], "house_rules": CHOSEN}
    created = client.post(f"{API}/games", json=body).get_json()
    answer = client.get(
        f"{API}/games/{created['id']}", headers={"Authorization": f"Bearer {created['view_token']}"}
    )
    assert answer.get_json()["options"]["house_rules"] == CHOSEN
    schemas = client.get(f"{API}/openapi.json").get_json()["components"]["schemas"]
    taken, answered = schemas["HouseRules"]["properties"], schemas["HouseRulesChosen"]
    for rule in core.HOUSE_RULES:
        assert taken[rule.name]["description"] == rule.words.description
        assert taken[rule.name]["default"] == rule.default
        assert rule.name in answered["required"]
        if not rule.is_switch:
            too_big = {**body, "house_rules": {rule.name: rule.words.high + 1}}
            refused = client.post(f"{API}/games", json=too_big)
            assert refused.status_code == 422
            assert rule.name in str(refused.get_json())


def test_club_settings_and_club_setup_take_every_rule(app, client):
    world = make_world(app)
    owner = as_(client, app, world, "owner")
    settings = {"name": "Thursday Trains", "set_size": "12", "blank_scoring": "face"}
    response = owner.post(
        f"/clubs/{world.club}/settings",
        data={**settings, "order": "descending", **form_data(CHOSEN)},
    )
    assert response.status_code == 302
    with app.app_context():
        club = db.session.get(Club, world.club)
        assert club_service.default_rules(club).house_rules == CHOSEN_RULES
    for url in (f"/clubs/{world.club}/settings", f"/clubs/{world.club}/games/new"):
        page = owner.get(url).get_data(as_text=True)
        for rule in core.HOUSE_RULES:
            shown = ["checked"] if rule.is_switch else [f'value="{chosen(rule)}"', "selected"]
            assert any(
                f'name="{rule.name}"' in tag and all(word in tag for word in shown)
                for tag in _tags(page)
            ), (url, rule.name)


def _tags(page: str) -> list[str]:
    """Each input, and each select with its selected option (joined, to find both)."""
    tags: list[str] = []
    for part in page.split("<input")[1:]:
        tags.append(part.split(">", 1)[0])
    for part in page.split("<select")[1:]:
        select, options = part.split(">", 1)
        selected = [o.split(">", 1)[0] for o in options.split("</select>")[0].split("<option")]
        tags.extend(select + option for option in selected if "selected" in option)
    return tags


def test_the_export_and_the_import_carry_every_rule(app):
    world = make_world(app)
    with app.app_context():
        club = db.session.get(Club, world.club)
        mapping.set_house_rules(club, CHOSEN_RULES)
        db.session.commit()
    game_id = make_club_game(app, world.club, ["Ana", "Ben", "Cy"])
    with app.app_context():
        game = load_game(game_id)
        mapping.set_house_rules(game, CHOSEN_RULES)
        db.session.commit()
        document: dict[str, Any] = export_json.export_club_json(world.club)
        assert CHOSEN.items() <= document["club"]["rules"].items()
        assert CHOSEN.items() <= document["games"][0]["rules"].items()
        document["club"]["name"] = "Imported Trains"
        document["club"]["public_token"] = "imported-public-token"
        for number, entry in enumerate(document["games"]):
            entry["edit_token"] = f"imported-edit-{number:04d}"
            entry["view_token"] = f"imported-view-{number:04d}"
        imported = import_club_json(document)
        assert club_service.default_rules(imported).house_rules == CHOSEN_RULES
        (copy,) = export_json.club_games(imported.id)
        assert mapping.house_rules_of(copy) == CHOSEN_RULES


def test_the_import_schema_has_every_rule():
    club = import_schema.SCHEMA["properties"]["club"]["properties"]["rules"]
    game = import_schema.SCHEMA["properties"]["games"]["items"]["properties"]["rules"]
    for record in (club, game):
        for rule in core.HOUSE_RULES:
            expected = {"type": "boolean"} if rule.is_switch else {"type": "integer"}
            assert expected.items() <= record["properties"][rule.name].items()


def test_the_api_and_export_documents_name_every_rule():
    """docs/api.md's `house_rules` row names each rule (a number with its bounds), and the
    export format's club and game `rules` examples carry each: a rule added to the core and
    left out of the documents fails here, named."""
    docs = Path(__file__).resolve().parent.parent / "docs"
    api_row = next(
        line
        for line in (docs / "api.md").read_text().splitlines()
        if line.startswith("| `house_rules`")
    )
    export = (docs / "export.md").read_text()
    for rule in core.HOUSE_RULES:
        assert f'"{rule.name}"' in api_row, rule.name
        if not rule.is_switch:
            assert f"`{rule.name}` {rule.words.low} to {rule.words.high:,}" in api_row, rule.name
        assert export.count(f'"{rule.name}":') >= 2, rule.name
