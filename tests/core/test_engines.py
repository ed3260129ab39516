"""Engines and openers (RULES.md section 3): which double starts each round, who plays first."""

import pytest

from scorekeeper.core import (
    SUPPORTED_SETS,
    GameRules,
    GameType,
    Order,
    engine_of,
    engines,
    new_game,
    opener,
)


def test_example_3_1_double_12_default_engines_12_down_to_0():
    game = new_game(["Ana", "Ben"])
    assert engines(game.rules) == [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
    assert len(engines(game.rules)) == 13


def test_example_3_2_double_9_start_at_9_four_rounds():
    rules = GameRules(set_size=9, start_double=9, rounds=4)
    assert engines(rules) == [9, 8, 7, 6]
    assert engines(new_game(["Ana", "Ben"], rules).rules) == [9, 8, 7, 6]


@pytest.mark.parametrize("set_size", SUPPORTED_SETS)
def test_default_game_has_n_plus_1_rounds_from_n_n_down_to_blank(set_size):
    schedule = engines(new_game(["Ana", "Ben"], GameRules(set_size=set_size)).rules)
    assert schedule == list(range(set_size, -1, -1))


@pytest.mark.parametrize(
    ("rules", "schedule"),
    [
        (GameRules(order=Order.ASCENDING), list(range(13))),
        (GameRules(order=Order.ASCENDING, set_size=6, start_double=2, rounds=3), [2, 3, 4]),
        (GameRules(start_double=7), [7, 6, 5, 4, 3, 2, 1, 0]),
        (GameRules(rounds=5), [12, 11, 10, 9, 8]),
        (GameRules(set_size=6, rounds=1), [6]),
        (GameRules(order=Order.ASCENDING, start_double=10), [10, 11, 12]),
    ],
    ids=["ascending", "ascending-from-2", "start-at-7", "fewer-rounds", "one-round", "asc-from-10"],
)
def test_engine_options(rules, schedule):
    assert engines(rules) == schedule
    assert engines(new_game(["Ana", "Ben"], rules).rules) == schedule


def test_engines_never_go_past_the_blank_even_when_asked_for_more_rounds():
    # new_game refuses such a game; engines alone still never invent a double.
    assert engines(GameRules(start_double=3, rounds=10)) == [3, 2, 1, 0]


def test_draw_game_has_no_engine():
    rules = new_game(["Ana", "Ben"], GameRules(game_type=GameType.DRAW)).rules
    assert engines(rules) == []
    assert engine_of(rules, 1) is None


@pytest.mark.parametrize(("number", "engine"), [(1, 12), (2, 11), (12, 1), (13, 0)])
def test_engine_of_a_round(number, engine):
    assert engine_of(GameRules(), number) == engine


@pytest.mark.parametrize("number", [0, -1, 14, 100])
def test_engine_of_a_round_outside_the_game_is_none(number):
    assert engine_of(GameRules(), number) is None


def test_opener_rotates_clockwise_from_the_first_seat():
    players = ["Ana", "Ben", "Cleo"]
    assert [opener(players, number) for number in range(1, 8)] == [
        "Ana",
        "Ben",
        "Cleo",
        "Ana",
        "Ben",
        "Cleo",
        "Ana",
    ]


def test_engine_options_given_as_text():
    assert engines(GameRules(order="ascending", set_size=6)) == [0, 1, 2, 3, 4, 5, 6]
    assert engines(GameRules(game_type="draw")) == []
