"""Game setup (RULES.md sections 3, 6, 7, 9 and the setup errors of 8): options, players, teams."""

import pytest

from scorekeeper.core import (
    COMMON_OPEN_TRAIN_POINTS,
    DRAW_TARGETS,
    PLAYER_LIMITS,
    BlankScoring,
    GameRules,
    GameType,
    HouseRules,
    Order,
    Recommendation,
    RuleError,
    clean_name,
    draw_hand_size,
    hand_size_choices,
    new_game,
    recommend,
)

DRAW = GameType.DRAW
MT = GameType.MEXICAN_TRAIN


def names(count: int) -> list[str]:
    return [f"P{number}" for number in range(1, count + 1)]


def problems_of(players, rules=None, teams=()):
    with pytest.raises(RuleError) as caught:
        new_game(players, rules, teams)
    return caught.value.problems


# RULES.md section 7: players -> set and tiles each (Hindi seed).
RECOMMENDED = [
    (2, 9, 8),
    (3, 9, 8),
    (4, 12, 12),
    (5, 12, 12),
    (6, 12, 12),
    (7, 12, 10),
    (8, 12, 10),
    (9, 15, 11),
    (12, 15, 11),
    (13, 18, 11),
    (14, 18, 11),
]


@pytest.mark.parametrize(("players", "set_size", "hand_size"), RECOMMENDED)
def test_setup_helper_recommends_set_and_hand_size(players, set_size, hand_size):
    assert recommend(players) == Recommendation(set_size, hand_size)


@pytest.mark.parametrize(("players", "expected"), [(0, (9, 8)), (1, (9, 8)), (15, (18, 11))])
def test_setup_helper_answers_while_the_player_count_is_still_out_of_range(players, expected):
    assert recommend(players) == Recommendation(*expected)


# RULES.md section 9: draw game hand sizes.
DRAW_HANDS = [(2, 7), (3, 5), (4, 4), (5, 3)]


@pytest.mark.parametrize(("players", "hand_size"), DRAW_HANDS)
def test_draw_game_hand_size(players, hand_size):
    assert draw_hand_size(players) == hand_size
    assert recommend(players, DRAW) == Recommendation(6, hand_size)


@pytest.mark.parametrize(("players", "hand_size"), [(1, 7), (9, 3)])
def test_draw_setup_helper_clamps_to_2_to_5_players(players, hand_size):
    assert recommend(players, DRAW) == Recommendation(6, hand_size)


@pytest.mark.parametrize(
    ("players", "set_size", "choices"),
    [
        (3, 9, [(8, "Recommended")]),
        (3, 12, [(15, "Galt 1994")]),
        (4, 12, [(12, "Recommended"), (15, "Galt 1994")]),
        (6, 12, [(12, "Recommended"), (12, "Galt 1994")]),
        (7, 12, [(10, "Recommended"), (11, "Galt 1994")]),
        (10, 12, []),
        (10, 15, [(11, "Recommended")]),
        (13, 18, [(11, "Recommended")]),
    ],
)
def test_hand_size_choices_offer_the_recommendation_first_then_published_alternatives(
    players, set_size, choices
):
    assert hand_size_choices(players, set_size) == choices


def test_option_constants_of_the_rules():
    assert PLAYER_LIMITS == {MT: (2, 14), DRAW: (2, 5)}
    assert DRAW_TARGETS == (50, 100)
    assert COMMON_OPEN_TRAIN_POINTS == (5, 10, 25)


def test_new_game_fills_in_the_defaults():
    game = new_game(["Ana", "Ben", "Cleo", "Dan"])
    assert game.players == ("Ana", "Ben", "Cleo", "Dan")
    assert game.teams == ()
    assert not game.is_draw
    rules = game.rules
    assert rules.game_type is MT
    assert rules.set_size == 12
    assert rules.blank_scoring is BlankScoring.FACE
    assert rules.order is Order.DESCENDING
    assert (rules.start_double, rules.rounds, rules.hand_size) == (12, 13, 12)
    assert rules.house_rules == HouseRules(0, False, False)


@pytest.mark.parametrize(
    ("players", "set_size", "hand_size"),
    [
        (2, 12, 8),  # the count for 2 players, whatever the set
        (5, 12, 12),
        (8, 12, 10),
        (10, 15, 11),
        (14, 18, 11),
        (4, 6, 6),  # 12 each does not fit a double-6: 27 tiles // 4 players
        (14, 12, 6),  # 11 each does not fit a double-12: 90 tiles // 14 players
        (14, 6, 1),
        (9, 6, 3),  # 27 tiles (the engine kept out) // 9 players
    ],
)
def test_default_hand_size_is_the_table_count_cut_to_what_the_set_allows(
    players, set_size, hand_size
):
    game = new_game(names(players), GameRules(set_size=set_size))
    assert game.rules.hand_size == hand_size


def test_chosen_hand_size_is_kept():
    assert new_game(names(3), GameRules(hand_size=15)).rules.hand_size == 15


def test_hand_size_may_use_every_tile_but_the_engine():
    assert new_game(names(6), GameRules(hand_size=15)).rules.hand_size == 15  # 90 of 91
    [problem] = problems_of(names(7), GameRules(hand_size=13))  # 91 of 91
    assert problem.message == "7 players cannot each be dealt 13 tiles from 90."


@pytest.mark.parametrize("game_type", [MT, DRAW])
def test_a_hand_of_one_tile_each_may_be_dealt(game_type):
    assert new_game(names(3), GameRules(game_type=game_type, hand_size=1)).rules.hand_size == 1


@pytest.mark.parametrize("points", [0, 1, 1000])
def test_open_train_penalty_of_0_to_1000_points(points):
    rules = GameRules(house_rules=HouseRules(open_train_points=points))
    assert new_game(names(2), rules).rules.house_rules.open_train_points == points


# A starting double outside the set is reported alone: the rounds are checked from the set's
# usual start (the top double, or 0-0 when counting up), where 13 rounds fit a double-12.
@pytest.mark.parametrize(
    ("order", "start"), [(Order.DESCENDING, -1), (Order.DESCENDING, 13), (Order.ASCENDING, 20)]
)
def test_a_wrong_starting_double_is_the_only_problem_reported(order, start):
    [problem] = problems_of(names(2), GameRules(order=order, start_double=start, rounds=13))
    assert problem.code == "start_double"


def test_ascending_game_starts_at_the_blank_by_default():
    rules = new_game(names(2), GameRules(order=Order.ASCENDING)).rules
    assert (rules.start_double, rules.rounds) == (0, 13)


def test_fewer_rounds_and_another_starting_double_are_kept():
    rules = new_game(names(2), GameRules(start_double=7, rounds=3)).rules
    assert (rules.start_double, rules.rounds) == (7, 3)


def test_draw_game_defaults_and_forced_options():
    game = new_game(
        ["Ana", "Ben", "Cleo"],
        GameRules(
            game_type=DRAW,
            set_size=12,
            blank_scoring=BlankScoring.BLANK_25,
            start_double=5,
            rounds=3,
        ),
    )
    assert game.is_draw
    rules = game.rules
    assert rules.set_size == 6
    assert rules.blank_scoring is BlankScoring.FACE
    assert (rules.start_double, rules.rounds) == (None, None)
    assert rules.hand_size == 5
    assert rules.target == 100
    assert rules.house_rules == HouseRules()


@pytest.mark.parametrize("target", DRAW_TARGETS)
def test_draw_game_target_50_or_100(target):
    assert new_game(names(2), GameRules(game_type=DRAW, target=target)).rules.target == target


def test_draw_game_chosen_hand_size_is_kept():
    assert new_game(names(4), GameRules(game_type=DRAW, hand_size=6)).rules.hand_size == 6


# Spanish seed: "En el montón siempre debe quedar una ficha boca abajo (si juegan más de dos
# jugadores) o dos fichas (si participan dos jugadores)."
@pytest.mark.parametrize(
    ("players", "hand_size", "left"),
    [(2, 13, 2), (3, 9, 1), (4, 6, 4), (5, 5, 3)],
)
def test_draw_deal_may_leave_as_few_tiles_as_the_boneyard_keeps(players, hand_size, left):
    game = new_game(names(players), GameRules(game_type=DRAW, hand_size=hand_size))
    assert 28 - players * game.rules.hand_size == left


@pytest.mark.parametrize(
    ("players", "hand_size", "message"),
    [
        (
            4,
            7,
            "With 4 players and 7 tiles each, no tile is left to draw from: deal at most 6 each.",
        ),
        (
            2,
            14,
            "With 2 players and 14 tiles each, no tile is left to draw from: deal at most 13 each.",
        ),
    ],
)
def test_draw_deal_of_the_whole_set_is_refused(players, hand_size, message):
    [problem] = problems_of(names(players), GameRules(game_type=DRAW, hand_size=hand_size))
    assert (problem.code, problem.field, problem.message) == (
        "hand_size_boneyard",
        "hand_size",
        message,
    )


def test_mexican_train_ignores_the_draw_target():
    assert new_game(names(2), GameRules(target=75)).rules.target == 75


@pytest.mark.parametrize(
    ("raw", "name"),
    [("  Ana  ", "Ana"), ("Ana   María", "Ana María"), ("\tBen\n", "Ben"), (None, ""), (7, "7")],
)
def test_clean_name(raw, name):
    assert clean_name(raw) == name


def test_names_are_stored_trimmed():
    assert new_game(["  Ana ", "Ben  Bo"]).players == ("Ana", "Ben Bo")


def test_name_of_40_characters_is_accepted():
    assert new_game(["x" * 40, "Ben"]).players[0] == "x" * 40


@pytest.mark.parametrize("count", [2, 14])
def test_mexican_train_player_limits_accepted(count):
    assert len(new_game(names(count)).players) == count


@pytest.mark.parametrize("count", [2, 5])
def test_draw_player_limits_accepted(count):
    assert len(new_game(names(count), GameRules(game_type=DRAW)).players) == count


# Each row: players, rules, teams -> the one problem (code, field, English message).
SETUP_ERRORS = [
    (
        names(1),
        None,
        (),
        ("player_count", "players", "This game needs 2 to 14 players (you have 1)."),
    ),
    (
        names(15),
        None,
        (),
        ("player_count", "players", "This game needs 2 to 14 players (you have 15)."),
    ),
    (
        names(100),
        None,
        (),
        ("player_count", "players", "This game needs 2 to 14 players (you have 100)."),
    ),
    (
        names(6),
        GameRules(game_type=DRAW),
        (),
        ("player_count", "players", "This game needs 2 to 5 players (you have 6)."),
    ),
    (
        names(8),
        GameRules(game_type=DRAW),
        (),
        ("player_count", "players", "This game needs 2 to 5 players (you have 8)."),
    ),
    (
        ["Ana", "   "],
        None,
        (),
        ("name_empty", "players-1", "Player 2 needs a name."),
    ),
    (
        ["Ana", None],
        None,
        (),
        ("name_empty", "players-1", "Player 2 needs a name."),
    ),
    (
        ["Ana", "x" * 41],
        None,
        (),
        ("name_long", "players-1", "x" * 40 + "…: a name can be at most 40 characters."),
    ),
    (
        ["Ana", " ANA "],
        None,
        (),
        ("name_twice", "players-1", "ANA is in the list twice: give each player a different name."),
    ),
    (
        ["Straße", "STRASSE"],
        None,
        (),
        (
            "name_twice",
            "players-1",
            "STRASSE is in the list twice: give each player a different name.",
        ),
    ),
    (
        names(2),
        GameRules(set_size=10),
        (),
        (
            "set_unsupported",
            "set",
            "Double-10 sets are not supported: choose double-6, 9, 12, 15 or 18.",
        ),
    ),
    (
        names(2),
        GameRules(start_double=13),
        (),
        (
            "start_double",
            "start_double",
            "The starting double must be a double of the set: 0-0 to 12-12.",
        ),
    ),
    (
        names(2),
        GameRules(set_size=6, start_double=-1),
        (),
        (
            "start_double",
            "start_double",
            "The starting double must be a double of the set: 0-0 to 6-6.",
        ),
    ),
    (
        names(2),
        GameRules(rounds=14),
        (),
        ("rounds", "rounds", "From 12-12 the game can have 1 to 13 rounds."),
    ),
    (
        names(2),
        GameRules(rounds=0),
        (),
        ("rounds", "rounds", "From 12-12 the game can have 1 to 13 rounds."),
    ),
    (
        names(2),
        GameRules(start_double=3, rounds=5),
        (),
        ("rounds", "rounds", "From 3-3 the game can have 1 to 4 rounds."),
    ),
    (
        names(2),
        GameRules(order=Order.ASCENDING, start_double=10, rounds=4),
        (),
        ("rounds", "rounds", "From 10-10 the game can have 1 to 3 rounds."),
    ),
    (
        names(8),
        GameRules(hand_size=12),
        (),
        ("hand_size", "hand_size", "8 players cannot each be dealt 12 tiles from 90."),
    ),
    (
        names(2),
        GameRules(hand_size=0),
        (),
        ("hand_size", "hand_size", "2 players cannot each be dealt 0 tiles from 90."),
    ),
    (
        names(4),
        GameRules(set_size=6, hand_size=-1),
        (),
        ("hand_size", "hand_size", "4 players cannot each be dealt -1 tiles from 27."),
    ),
    (
        names(5),
        GameRules(game_type=DRAW, hand_size=6),
        (),
        ("hand_size", "hand_size", "5 players cannot each be dealt 6 tiles from 28."),
    ),
    (
        names(2),
        GameRules(game_type=DRAW, hand_size=0),
        (),
        ("hand_size", "hand_size", "2 players cannot each be dealt 0 tiles from 28."),
    ),
    (
        names(2),
        GameRules(game_type=DRAW, target=75),
        (),
        ("target", "target", "The draw game is played to 50 or 100 points."),
    ),
    (
        names(2),
        GameRules(house_rules=HouseRules(open_train_points=-5)),
        (),
        (
            "open_train_points",
            "open_train_points",
            "The open-train penalty must be 0 (off) to 1,000 points.",
        ),
    ),
    (
        names(2),
        GameRules(house_rules=HouseRules(open_train_points=1001)),
        (),
        (
            "open_train_points",
            "open_train_points",
            "The open-train penalty must be 0 (off) to 1,000 points.",
        ),
    ),
    (
        names(4),
        GameRules(game_type=DRAW),
        [("P1", "P3"), ("P2", "P4")],
        ("teams_draw", "teams", "The draw game is played without teams."),
    ),
    (
        names(5),
        None,
        [("P1", "P3"), ("P2", "P4")],
        ("teams_size", "teams", "Partnerships need 4, 6 or 8 players (you have 5)."),
    ),
    (
        names(2),
        None,
        [("P1", "P2")],
        ("teams_size", "teams", "Partnerships need 4, 6 or 8 players (you have 2)."),
    ),
    (
        names(4),
        None,
        [("P1", "P3", "P2"), ("P2", "P4")],
        ("team_shape", "teams", "Each team is two players of this game (got P1, P3, P2)."),
    ),
    (
        names(4),
        None,
        [("P1", "Zed"), ("P2", "P4")],
        ("team_shape", "teams", "Each team is two players of this game (got P1, Zed)."),
    ),
    (
        names(4),
        None,
        [("P1", "P3"), ("P1", "P4")],
        ("team_twice", "teams", "P1 is in two teams."),
    ),
    (
        names(4),
        None,
        [("P1", "P1"), ("P2", "P4")],
        ("team_twice", "teams", "P1 is in two teams."),
    ),
    (
        names(6),
        None,
        [("P1", "P4"), ("P2", "P5")],
        ("team_missing", "teams", "Every player needs a partner: P3, P6 have none."),
    ),
]


@pytest.mark.parametrize(("players", "rules", "teams", "expected"), SETUP_ERRORS)
def test_setup_error(players, rules, teams, expected):
    [problem] = problems_of(players, rules, teams)
    assert (problem.code, problem.field, problem.message) == expected
    assert problem.severity == "error"


def test_setup_reports_every_problem_at_once():
    problems = problems_of(["", "x" * 41], GameRules(start_double=20, rounds=30))
    assert [problem.code for problem in problems] == [
        "name_empty",
        "name_long",
        "start_double",
        "rounds",
    ]


def test_every_team_problem_is_reported_at_once():
    problems = problems_of(names(4), teams=[("P1", "Zed"), ("P2", "Yan")])
    assert [problem.message for problem in problems] == [
        "Each team is two players of this game (got P1, Zed).",
        "Each team is two players of this game (got P2, Yan).",
    ]


def test_team_problems_wait_until_players_and_options_are_valid():
    problems = problems_of(["Ana", "Ana", "Cleo", "Dan"], teams=[("Ana", "Zed")])
    assert [problem.code for problem in problems] == ["name_twice"]


@pytest.mark.parametrize("count", [4, 6, 8])
def test_teams_of_two_with_4_6_or_8_players(count):
    players = names(count)
    half = count // 2
    teams = [(players[i], players[i + half]) for i in range(half)]  # partners sit opposite
    game = new_game(players, teams=teams)
    assert game.teams == tuple(teams)
    assert [game.team_name(team) for team in game.teams][0] == f"P1 & P{1 + half}"


def test_team_members_are_matched_trimmed_and_case_insensitively():
    game = new_game(["Ana", "Ben", "Cleo", "Dan"], teams=[(" ana", "CLEO "), ("ben", "Dan")])
    assert game.teams == (("Ana", "Cleo"), ("Ben", "Dan"))


def test_options_given_as_text_are_read_as_the_options_they_name():
    # A form or a database column hands the core plain strings.
    game = new_game(names(3), GameRules(game_type="draw", blank_scoring="face", order="descending"))
    assert game.is_draw
    assert game.rules.game_type is DRAW
    rules = new_game(names(2), GameRules(blank_scoring="blank_25", order="ascending")).rules
    assert (rules.blank_scoring, rules.order) == (BlankScoring.BLANK_25, Order.ASCENDING)
    assert rules.start_double == 0


def test_draw_game_given_as_text_uses_the_draw_player_limits_and_no_teams():
    [problem] = problems_of(names(6), GameRules(game_type="draw"))
    assert problem.message == "This game needs 2 to 5 players (you have 6)."
    [problem] = problems_of(names(4), GameRules(game_type="draw"), [("P1", "P3"), ("P2", "P4")])
    assert problem.code == "teams_draw"


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("game_type", "dominoes", "dominoes is not one of the choices for game type."),
        ("blank_scoring", "blank_30", "blank_30 is not one of the choices for blank scoring."),
        ("order", None, "None is not one of the choices for order."),
    ],
)
def test_unknown_option_is_refused(option, value, message):
    [problem] = problems_of(names(2), GameRules(**{option: value}))
    assert (problem.code, problem.field, problem.message) == ("option_unknown", option, message)


def test_a_long_unknown_option_is_quoted_shortened():
    [problem] = problems_of(names(2), GameRules(blank_scoring="b" * 50))
    assert problem.message == "b" * 40 + " is not one of the choices for blank scoring."
