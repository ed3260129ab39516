"""House rules (RULES.md section 4: "each off by default"): each one off in a new game, with the
words the setup form and the API show, its bounds, and its value kept by name (the columns, the
API, the export)."""

import importlib.util
from types import ModuleType

import pytest

from scorekeeper.core import (
    HOUSE_RULES,
    HouseRules,
    house_problems,
    house_rule_values,
    house_rules_from,
)


def declared() -> ModuleType:
    """scorekeeper/core/house.py read afresh, as a new process reads it.

    The declarations run once, when the module is imported; reading it again here checks what
    every process gets from them (and lets mutation testing, which forks after the import, see
    a change to them)."""
    spec = importlib.util.find_spec("scorekeeper.core.house")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_house_rule_is_off_in_a_new_game_and_has_its_words():
    house = declared()
    assert house.HouseRules() == house.HouseRules(**{r.name: r.default for r in house.HOUSE_RULES})
    assert house.house_problems(house.HouseRules()) == []
    assert [rule.name for rule in house.HOUSE_RULES] == [rule.name for rule in HOUSE_RULES]
    for rule in house.HOUSE_RULES:
        assert getattr(house.HouseRules(), rule.name) is rule.default
        assert rule.default in (0, False) and type(rule.default) is rule.kind
        assert rule.is_switch is (rule.kind is bool)
        # The setup form's label and the API's description: words, not blanks.
        assert isinstance(rule.words.label, str) and rule.words.label.strip()
        assert isinstance(rule.words.description, str) and rule.words.description.strip()


def test_a_switch_is_on_or_off_and_never_out_of_bounds():
    house = declared()
    switches = [rule for rule in house.HOUSE_RULES if rule.is_switch]
    assert {"strategic_error", "adjustments"} <= {rule.name for rule in switches}
    for rule in switches:
        assert rule.default is False
        assert (rule.problem(True), rule.problem(False)) == (None, None)
    every_one_on = house.HouseRules(**{rule.name: True for rule in switches})
    assert house.house_problems(every_one_on) == []


def test_the_open_train_penalty_is_0_off_to_1000_points():
    house = declared()
    (rule,) = [rule for rule in house.HOUSE_RULES if rule.name == "open_train_points"]
    assert (rule.kind, rule.default, rule.is_switch) == (int, 0, False)
    assert rule.words.label == "Open-train penalty"
    assert rule.words.description == "Points added to a player whose train is open (0: off)."
    # The setup form offers off and the common penalties; each is accepted.
    assert (rule.words.low, rule.words.high, rule.words.offered) == (0, 1000, (5, 10, 25))
    for points in (0, *rule.words.offered, 1000):
        assert house.house_problems(house.HouseRules(open_train_points=points)) == []
    for points in (-1, 1001):
        (problem,) = house.house_problems(house.HouseRules(open_train_points=points))
        assert (problem.code, problem.field, problem.message) == (
            "open_train_points",
            "open_train_points",
            "The open-train penalty must be 0 (off) to 1,000 points.",
        )


def test_a_tables_house_rules_are_kept_by_name():
    chosen = HouseRules(open_train_points=25, strategic_error=True)
    values = house_rule_values(chosen)
    assert set(values) == {rule.name for rule in HOUSE_RULES}
    assert (values["open_train_points"], values["strategic_error"]) == (25, True)
    assert values["adjustments"] is False
    assert house_rules_from(values) == chosen


@pytest.mark.parametrize(
    ("values", "rules"),
    [
        ({}, HouseRules()),  # a file from before house rules: every one off
        ({"open_train_points": 10}, HouseRules(open_train_points=10)),
        ({"adjustments": True, "colour": "red"}, HouseRules(adjustments=True)),
    ],
)
def test_a_house_rule_left_out_stays_off(values, rules):
    assert house_rules_from(values) == rules
    assert house_problems(house_rules_from(values)) == []
