"""A round's result (RULES.md sections 4, 8 and 9): checks, scores, penalties, the draw game."""

from dataclasses import replace

import pytest

from scorekeeper.core import (
    BlankScoring,
    GameRules,
    GameType,
    HandEntry,
    HouseRules,
    Penalty,
    PenaltyEntry,
    PenaltyKind,
    RoundEntry,
    check_round,
    draw_hand_scores,
    draw_next_opener,
    new_game,
    parse_points,
    parse_tile,
    team_round_score,
)

FOUR = ["Ana", "Ben", "Cleo", "Dan"]
ALL_HOUSE_RULES = HouseRules(open_train_points=10, strategic_error=True, adjustments=True)


def game_of(players=FOUR, **rules):
    return new_game(players, GameRules(**rules))


def entry(hands, out=None, blocked=False, penalties=()):
    """A RoundEntry from {player: pips or [tiles]}."""
    return RoundEntry(
        {
            name: HandEntry(tiles=value) if isinstance(value, list) else HandEntry(value)
            for name, value in hands.items()
        },
        out=out,
        blocked=blocked,
        penalties=penalties,
    )


def only_error(check):
    assert check.result is None
    assert not check.ok
    [problem] = check.errors
    return problem


# RULES.md section 4 examples.


def test_example_4_1_only_the_player_out_counts_as_gone_out():
    game = game_of(["A", "B", "C"])
    check = check_round(game, 1, entry({"A": ["0-0"], "B": ["6-4", "3-2"], "C": []}, out="C"))
    assert check.ok and check.warnings == ()
    result = check.result
    assert result.scores == {"A": 0, "B": 15, "C": 0}
    assert [hand.went_out for hand in result.hands] == [False, False, True]
    assert result.out == "C"
    assert not result.blocked
    assert result.engine == 12
    assert result.hand("B").tiles == (parse_tile("6-4"), parse_tile("3-2"))


def test_example_4_2_blank_25_hand_of_tiles_scores_85():
    game = game_of(["A", "B"], blank_scoring=BlankScoring.BLANK_25)
    check = check_round(game, 1, entry({"A": ["0-5", "0-0", "2-3"]}, out="B"))
    assert check.errors == ()
    assert check.result.score("A") == 85
    assert check.result.hand("A").pips == 85


def test_example_4_3_strategic_error_adds_the_rounds_highest_score():
    game = game_of(["A", "B", "C"], house_rules=HouseRules(strategic_error=True))
    penalty = PenaltyEntry("B", PenaltyKind.STRATEGIC_ERROR, reason="played on a closed train")
    check = check_round(game, 1, entry({"B": 12, "C": 40}, out="A", penalties=[penalty]))
    result = check.result
    assert result.score("B") == 52
    # Pips and penalty are kept apart so the sheet can show both.
    assert (result.hand("B").pips, result.hand("B").penalty) == (12, 40)
    assert result.penalties == (
        Penalty("B", PenaltyKind.STRATEGIC_ERROR, 40, "played on a closed train"),
    )
    assert result.scores == {"A": 0, "B": 52, "C": 40}


# Scoring a valid round.


def test_blocked_round_everyone_scores_their_hand():
    check = check_round(
        game_of(), 1, entry({"Ana": 3, "Ben": "15", "Cleo": 0, "Dan": 40}, blocked=True)
    )
    assert check.ok
    assert check.result.scores == {"Ana": 3, "Ben": 15, "Cleo": 0, "Dan": 40}
    assert check.result.out is None
    assert check.result.blocked
    assert not any(hand.went_out for hand in check.result.hands)


def test_round_lines_follow_seating_order():
    check = check_round(game_of(), 1, entry({"Dan": 4, "Cleo": 3, "Ben": 2}, out="Ana"))
    assert [hand.player for hand in check.result.hands] == FOUR


@pytest.mark.parametrize("out_hand", [None, "", "  ", 0, "0", []])
def test_player_out_may_be_left_blank_or_entered_as_nothing(out_hand):
    hands = {"Ben": 5, "Cleo": 6, "Dan": 7}
    if out_hand is not None:
        hands["Ana"] = out_hand
    check = check_round(game_of(), 1, entry(hands, out="Ana"))
    assert check.errors == ()
    assert check.result.scores == {"Ana": 0, "Ben": 5, "Cleo": 6, "Dan": 7}


@pytest.mark.parametrize("out", [["Ana"], ["Ana", ""], ("Ana", None)])
def test_out_may_be_given_as_a_list_with_one_name(out):
    check = check_round(game_of(), 1, entry({"Ben": 5, "Cleo": 6, "Dan": 7}, out=out))
    assert check.result.out == "Ana"


def test_engine_is_the_round_engine():
    check = check_round(game_of(), 4, entry({"Ben": ["12-12"], "Cleo": 1, "Dan": 1}, out="Ana"))
    assert check.result.engine == 9
    assert check.result.score("Ben") == 24


# RULES.md section 8: hard errors. Each row: entry -> (code, player, English message).
ROUND_ERRORS = [
    (
        entry({"Ben": "12.5", "Cleo": 1, "Dan": 1}, out="Ana"),
        ("pips_not_whole", "Ben", "Ben: 12.5 is not a whole number of pips."),
    ),
    (
        entry({"Ben": "twelve", "Cleo": 1, "Dan": 1}, out="Ana"),
        ("pips_not_whole", "Ben", "Ben: twelve is not a whole number of pips."),
    ),
    (
        entry({"Ben": 12.5, "Cleo": 1, "Dan": 1}, out="Ana"),
        ("pips_not_whole", "Ben", "Ben: 12.5 is not a whole number of pips."),
    ),
    (
        entry({"Ben": -3, "Cleo": 1, "Dan": 1}, out="Ana"),
        ("pips_negative", "Ben", "Ben: a hand cannot be worth less than 0 (you entered -3)."),
    ),
    (
        entry({"Ben": "-1500", "Cleo": 1, "Dan": 1}, out="Ana"),
        ("pips_negative", "Ben", "Ben: a hand cannot be worth less than 0 (you entered -1,500)."),
    ),
    (
        entry({"Ben": None, "Cleo": 1, "Dan": 1}, out="Ana"),
        ("pips_missing", "Ben", "Ben: enter the pips left in hand (0 if none), or the tiles."),
    ),
    (
        entry({"Ben": " ", "Cleo": 1, "Dan": 1}, out="Ana"),
        ("pips_missing", "Ben", "Ben: enter the pips left in hand (0 if none), or the tiles."),
    ),
    (
        entry({"Cleo": 1, "Dan": 1}, out="Ana"),
        ("pips_missing", "Ben", "Ben: enter the pips left in hand (0 if none), or the tiles."),
    ),
    (
        entry({"Ana": 0, "Ben": 0, "Cleo": 1, "Dan": 1}, out=["Ana", "Ben"]),
        ("out_many", None, "Only one player can go out: Ana, Ben are all marked out."),
    ),
    (
        entry({"Ana": 0, "Ben": 0, "Cleo": 1, "Dan": 1}, out=["Ana", "Ben"], blocked=True),
        ("out_many", None, "Only one player can go out: Ana, Ben are all marked out."),
    ),
    (
        entry({"Ana": 1, "Ben": 1, "Cleo": 1, "Dan": 1}, out="Zed"),
        ("out_unknown", None, "Zed is not playing in this game."),
    ),
    (
        entry({"Ana": 5, "Ben": 1, "Cleo": 1, "Dan": 1}, out="Ana"),
        ("out_with_pips", "Ana", "Ana went out, so their hand is empty (you entered 5)."),
    ),
    (
        entry({"Ana": ["0-0"], "Ben": 1, "Cleo": 1, "Dan": 1}, out="Ana"),
        ("out_with_tiles", "Ana", "Ana went out, so their hand holds no tiles."),
    ),
    (
        entry({"Ana": 1, "Ben": 1, "Cleo": 1, "Dan": 1}),
        ("nobody_out", None, "Nobody went out: mark who went out, or mark the round blocked."),
    ),
    (
        entry({"Ana": 1, "Ben": 1, "Cleo": 1, "Dan": 1}, out=""),
        ("nobody_out", None, "Nobody went out: mark who went out, or mark the round blocked."),
    ),
    (
        entry({"Ben": 1, "Cleo": 1, "Dan": 1}, out="Ana", blocked=True),
        (
            "out_and_blocked",
            "Ana",
            "Ana went out, so the round was not blocked: clear one of the two.",
        ),
    ),
    (
        entry({"Ana": 1212, "Ben": 1, "Cleo": 1}, out="Dan"),
        (
            "hand_too_big",
            "Ana",
            "Ana: 1,212 is more than every tile left in a double-12 set without the 12-12 (1,068).",
        ),
    ),
    (
        entry({"Ana": 600, "Ben": 300, "Cleo": 200}, out="Dan"),
        (
            "hands_too_big",
            None,
            "All hands together hold 1,100, more than every tile left in a double-12 set "
            "without the 12-12 (1,068).",
        ),
    ),
    (
        entry({"Ben": 1, "Cleo": 1, "Dan": 1, "Zed": 4}, out="Ana"),
        ("hand_unknown", None, "Zed is not playing in this game."),
    ),
    (
        entry({"Ben": ["13-2"], "Cleo": 1, "Dan": 1}, out="Ana"),
        ("tile_not_in_set", "Ben", "Ben: 13-2 is not in a double-12 set."),
    ),
    (
        entry({"Ben": ["12-12"], "Cleo": 1, "Dan": 1}, out="Ana"),
        (
            "tile_engine",
            "Ben",
            "Ben: 12-12 is this round's engine: it is on the table, not in a hand.",
        ),
    ),
    (
        entry({"Ben": ["6-4"], "Cleo": ["4-6"], "Dan": 1}, out="Ana"),
        ("tile_two_hands", "Cleo", "6-4 cannot be in two hands: Ben and Cleo."),
    ),
    (
        entry({"Ben": ["6-4", "[4|6]"], "Cleo": 1, "Dan": 1}, out="Ana"),
        ("tile_twice_hand", "Ben", "Ben: 6-4 is entered twice (there is only one)."),
    ),
    (
        entry({"Ben": ["6x4"], "Cleo": 1, "Dan": 1}, out="Ana"),
        ("tile_unreadable", "Ben", "Ben: 6x4 is not a tile: write it like 6-4."),
    ),
]


@pytest.mark.parametrize(
    ("round_entry", "expected"),
    ROUND_ERRORS,
    ids=[f"{row[1][0]}-{index}" for index, row in enumerate(ROUND_ERRORS)],
)
def test_round_error(round_entry, expected):
    problem = only_error(check_round(game_of(), 1, round_entry))
    assert (problem.code, problem.player, problem.message) == expected
    assert problem.severity == "error"
    assert problem.field == FIELD_TO_FIX[problem.code]


# The form shows each error next to the box to fix.
FIELD_TO_FIX = {
    "pips_not_whole": "pips",
    "pips_negative": "pips",
    "pips_missing": "pips",
    "out_many": "out",
    "out_unknown": "out",
    "nobody_out": "out",
    "out_with_pips": "pips",
    "out_with_tiles": "tiles",
    "out_and_blocked": "blocked",
    "hand_too_big": "pips",
    "hands_too_big": "pips",
    "hand_unknown": "players",
    "tile_not_in_set": "tiles",
    "tile_engine": "tiles",
    "tile_two_hands": "tiles",
    "tile_twice_hand": "tiles",
    "tile_unreadable": "tiles",
}


# A hand with a wrong tile is not valued until the tile is fixed, so the scorer sees only the
# tile to fix (with 1 tile dealt, the other tiles here would be an unlikely 33 pips).
@pytest.mark.parametrize(
    ("hands", "code"),
    [
        ({"Ben": ["6x4", "12-11", "5-5"]}, "tile_unreadable"),
        ({"Ben": ["13-2", "12-11", "5-5"]}, "tile_not_in_set"),
        ({"Ben": ["12-12", "12-11", "5-5"]}, "tile_engine"),
        ({"Ben": ["12-11", "5-5", "11-12"]}, "tile_twice_hand"),
        ({"Ben": ["12-11"], "Cleo": ["11-12", "12-10", "5-5"]}, "tile_two_hands"),
    ],
)
def test_a_hand_with_a_wrong_tile_is_only_reported_for_that_tile(hands, code):
    hands = {"Ben": 1, "Cleo": 1, "Dan": 1} | hands
    check = check_round(game_of(hand_size=1), 1, entry(hands, out="Ana"))
    assert [p.code for p in check.errors] == [code]
    assert check.warnings == ()


def test_every_wrong_tile_of_a_hand_is_reported():
    check = check_round(game_of(), 1, entry({"Ben": ["6x4", "13-2"], "Cleo": 1}, out="Ana"))
    assert [p.code for p in check.errors] == ["tile_unreadable", "tile_not_in_set", "pips_missing"]


@pytest.mark.parametrize(("out_hand", "code"), [(5, "out_with_pips"), (["0-0"], "out_with_tiles")])
def test_a_hand_entered_for_the_player_out_does_not_hide_the_others_errors(out_hand, code):
    check = check_round(game_of(), 1, entry({"Ana": out_hand, "Ben": "x", "Cleo": 1}, out="Ana"))
    assert [(p.code, p.player) for p in check.errors] == [
        (code, "Ana"),
        ("pips_not_whole", "Ben"),
        ("pips_missing", "Dan"),
    ]


@pytest.mark.parametrize(
    ("round_entry", "message"),
    [
        (
            entry({"Ben": 1, "Cleo": 1, "Dan": 1, "Z" * 50: 4}, out="Ana"),
            "Z" * 40 + " is not playing in this game.",
        ),
        (
            entry({"Ben": "9" * 30, "Cleo": 1, "Dan": 1}, out="Ana"),
            "Ben: " + "9" * 20 + " is not a whole number of pips.",
        ),
    ],
)
def test_a_long_entry_is_quoted_shortened_in_the_message(round_entry, message):
    assert only_error(check_round(game_of(), 1, round_entry)).message == message


def test_every_error_of_an_entry_is_reported_with_the_field_to_fix():
    check = check_round(game_of(), 1, entry({"Ana": "x", "Ben": -1, "Cleo": ["99-1"]}))
    assert [(p.code, p.player, p.field) for p in check.errors] == [
        ("nobody_out", None, "out"),
        ("pips_not_whole", "Ana", "pips"),
        ("pips_negative", "Ben", "pips"),
        ("tile_not_in_set", "Cleo", "tiles"),
        ("pips_missing", "Dan", "pips"),
    ]
    assert check.result is None


def test_engine_of_a_later_round_is_refused_and_the_first_engine_is_allowed():
    check = check_round(game_of(), 2, entry({"Ben": ["12-12", "11-11"], "Cleo": 1}, out="Ana"))
    problem = check.errors[0]
    assert (problem.code, problem.message) == (
        "tile_engine",
        "Ben: 11-11 is this round's engine: it is on the table, not in a hand.",
    )
    assert [p.code for p in check.errors] == ["tile_engine", "pips_missing"]


def test_tile_not_in_a_double_6_set():
    game = game_of(set_size=6)
    problem = only_error(
        check_round(game, 1, entry({"Ben": ["7-1"], "Cleo": 1, "Dan": 1}, out="Ana"))
    )
    assert problem.message == "Ben: 7-1 is not in a double-6 set."


def test_hand_bound_is_exactly_every_tile_but_the_engine():
    at_bound = check_round(game_of(), 1, entry({"Ana": 1068, "Ben": 0, "Cleo": 0}, out="Dan"))
    assert at_bound.ok
    over = check_round(game_of(), 1, entry({"Ana": 1069, "Ben": 0, "Cleo": 0}, out="Dan"))
    assert only_error(over).code == "hand_too_big"


def test_hand_bound_follows_the_blank_option_and_the_engine():
    game = game_of(blank_scoring=BlankScoring.BLANK_25)
    # Round 13's engine is 0-0 (worth 50 under blank_25): 1092 + 12 * 25 = 1392.
    assert check_round(game, 13, entry({"Ana": 1392, "Ben": 0, "Cleo": 0}, out="Dan")).ok
    over = check_round(game, 13, entry({"Ana": 1393, "Ben": 0, "Cleo": 0}, out="Dan"))
    assert only_error(over).message == (
        "Ana: 1,393 is more than every tile left in a double-12 set without the 0-0 (1,392)."
    )


def test_all_hands_bound_is_exactly_every_tile_but_the_engine():
    at_bound = check_round(game_of(), 1, entry({"Ana": 600, "Ben": 400, "Cleo": 68}, out="Dan"))
    assert at_bound.errors == ()
    over = check_round(game_of(), 1, entry({"Ana": 600, "Ben": 400, "Cleo": 69}, out="Dan"))
    assert only_error(over).message == (
        "All hands together hold 1,069, more than every tile left in a double-12 set "
        "without the 12-12 (1,068)."
    )


def test_a_hand_at_the_bound_with_more_in_other_hands_is_too_big_together():
    check = check_round(game_of(), 1, entry({"Ana": 1068, "Ben": 1, "Cleo": 0}, out="Dan"))
    assert [p.code for p in check.errors] == ["hands_too_big"]


def test_one_too_big_hand_is_not_also_reported_as_too_big_together():
    check = check_round(game_of(), 1, entry({"Ana": 2000, "Ben": 1000, "Cleo": 0}, out="Dan"))
    assert [p.code for p in check.errors] == ["hand_too_big"]


def test_draw_game_bound_is_the_whole_double_6_set():
    game = game_of(["A", "B"], game_type=GameType.DRAW)
    assert check_round(game, 1, entry({"A": 168}, out="B")).ok
    problem = only_error(check_round(game, 1, entry({"A": 169}, out="B")))
    assert problem.message == "A: 169 is more than every tile in a double-6 set (168)."


def test_draw_game_hands_together_cannot_hold_more_than_the_set():
    game = game_of(["A", "B", "C"], game_type=GameType.DRAW)
    problem = only_error(check_round(game, 1, entry({"A": 100, "B": 100}, out="C")))
    assert problem.code == "hands_too_big"
    assert problem.message == (
        "All hands together hold 200, more than every tile in a double-6 set (168)."
    )


# RULES.md section 8: the warning.


def test_warning_when_a_hand_beats_the_dealt_hand_sizes_best_tiles():
    check = check_round(game_of(), 1, entry({"Ana": 245, "Ben": 3, "Cleo": 0}, out="Dan"))
    assert check.ok  # saved once the scorer confirms
    assert check.result.score("Ana") == 245
    [warning] = check.warnings
    assert (warning.code, warning.player, warning.field, warning.severity) == (
        "hand_unlikely",
        "Ana",
        "pips",
        "warning",
    )
    assert warning.message == (
        "Ana: 245 is more than the 12 best tiles are worth (244). "
        "Check for a typo, unless Ana drew a lot."
    )


def test_no_warning_at_the_dealt_hand_sizes_best_tiles():
    check = check_round(game_of(), 1, entry({"Ana": 244, "Ben": 3, "Cleo": 0}, out="Dan"))
    assert check.warnings == ()


def test_no_warning_for_a_game_stored_without_its_hand_size():
    # A game from an old export may not say how many tiles were dealt: nothing is unlikely.
    stored = replace(game_of(), rules=replace(game_of().rules, hand_size=None))
    check = check_round(stored, 1, entry({"Ana": 1068, "Ben": 0, "Cleo": 0}, out="Dan"))
    assert (check.errors, check.warnings) == ((), ())
    assert (
        only_error(
            check_round(stored, 1, entry({"Ana": 1069, "Ben": 0, "Cleo": 0}, out="Dan"))
        ).code
        == "hand_too_big"
    )


def test_warnings_are_returned_with_errors_so_the_form_shows_both():
    check = check_round(game_of(), 1, entry({"Ana": 300, "Ben": -1, "Cleo": 0}, out="Dan"))
    assert [p.code for p in check.errors] == ["pips_negative"]
    assert [p.code for p in check.warnings] == ["hand_unlikely"]
    assert check.result is None


# Penalties (RULES.md section 4).


def penalty_round(*penalties, house=ALL_HOUSE_RULES, pips=None):
    game = game_of(house_rules=house)
    hands = pips or {"Ben": 12, "Cleo": 40, "Dan": 7}
    return check_round(game, 1, entry(hands, out="Ana", penalties=penalties))


@pytest.mark.parametrize("points", [1, 5, 10, 25, 1000])
def test_open_train_penalty_adds_the_games_points(points):
    house = HouseRules(open_train_points=points)
    check = penalty_round(PenaltyEntry("Ben", "open_train", points=99), house=house)
    assert check.result.score("Ben") == 12 + points
    assert check.result.penalties == (Penalty("Ben", PenaltyKind.OPEN_TRAIN, points),)


def test_open_train_penalty_counts_for_the_player_who_went_out():
    check = penalty_round(PenaltyEntry("Ana", PenaltyKind.OPEN_TRAIN))
    assert check.result.score("Ana") == 10
    assert check.result.hand("Ana").went_out


def test_strategic_error_on_the_highest_hand_doubles_it():
    check = penalty_round(PenaltyEntry("Cleo", PenaltyKind.STRATEGIC_ERROR))
    assert check.result.score("Cleo") == 80


def test_strategic_error_uses_pips_not_other_penalties():
    # Ben's open-train 10 does not raise "the highest score" Dan's penalty adds (40, Cleo's hand).
    check = penalty_round(
        PenaltyEntry("Cleo", "open_train"),
        PenaltyEntry("Dan", "strategic_error"),
    )
    assert check.result.scores == {"Ana": 0, "Ben": 12, "Cleo": 50, "Dan": 47}


def test_penalties_of_a_player_add_up():
    check = penalty_round(
        PenaltyEntry("Ben", "open_train"),
        PenaltyEntry("Ben", "strategic_error"),
        PenaltyEntry("Ben", "adjustment", points="-5", reason="miscounted round 2"),
        PenaltyEntry("Ben", "adjustment", points=3, reason="late"),
    )
    hand = check.result.hand("Ben")
    assert (hand.pips, hand.penalty, hand.score) == (12, 10 + 40 - 5 + 3, 60)
    assert [p.kind for p in check.result.penalties] == [
        PenaltyKind.OPEN_TRAIN,
        PenaltyKind.STRATEGIC_ERROR,
        PenaltyKind.ADJUSTMENT,
        PenaltyKind.ADJUSTMENT,
    ]


@pytest.mark.parametrize(("points", "score"), [(-10, 2), ("+4", 16), (" -12 ", 0), (-20, -8)])
def test_adjustment_is_any_signed_whole_number(points, score):
    check = penalty_round(PenaltyEntry("Ben", "adjustment", points=points, reason="  typo  "))
    assert check.result.score("Ben") == score
    assert check.result.penalties[0].reason == "typo"


def test_fixed_penalty_reason_is_optional_and_kept_trimmed():
    check = penalty_round(
        PenaltyEntry("Ben", "open_train", reason=None),
        PenaltyEntry("Cleo", "open_train", reason=" left it open "),
    )
    assert [p.reason for p in check.result.penalties] == ["", "left it open"]


# Each row: penalty entries -> (code, player, English message).
PENALTY_ERRORS = [
    (
        [PenaltyEntry("Ben", "adjustment", points="ten", reason="typo")],
        ALL_HOUSE_RULES,
        ("adjustment_not_whole", "Ben", "Ben: an adjustment is a whole number, like -10 or 5."),
    ),
    (
        [PenaltyEntry("Ben", "adjustment", points=None, reason="typo")],
        ALL_HOUSE_RULES,
        ("adjustment_not_whole", "Ben", "Ben: an adjustment is a whole number, like -10 or 5."),
    ),
    (
        [PenaltyEntry("Ben", "adjustment", points=2.5, reason="typo")],
        ALL_HOUSE_RULES,
        ("adjustment_not_whole", "Ben", "Ben: an adjustment is a whole number, like -10 or 5."),
    ),
    (
        [PenaltyEntry("Ben", "adjustment", points=5)],
        ALL_HOUSE_RULES,
        ("adjustment_reason", "Ben", "Ben: say why the score is adjusted."),
    ),
    (
        [PenaltyEntry("Ben", "adjustment", points=5, reason="   ")],
        ALL_HOUSE_RULES,
        ("adjustment_reason", "Ben", "Ben: say why the score is adjusted."),
    ),
    (
        [PenaltyEntry("Ben", "adjustment", points=5, reason=None)],
        ALL_HOUSE_RULES,
        ("adjustment_reason", "Ben", "Ben: say why the score is adjusted."),
    ),
    (
        [PenaltyEntry("Ben", "adjustment", points=-1069, reason="typo")],
        ALL_HOUSE_RULES,
        (
            "adjustment_big",
            "Ben",
            "Ben: an adjustment of -1,069 is more than a round can be worth (1,068).",
        ),
    ),
    (
        [PenaltyEntry("Ben", "open_train")],
        HouseRules(strategic_error=True, adjustments=True),
        ("penalty_off", "Ben", "Ben: this game does not use the open-train house rule."),
    ),
    (
        [PenaltyEntry("Ben", "strategic_error")],
        HouseRules(open_train_points=10, adjustments=True),
        ("penalty_off", "Ben", "Ben: this game does not use the strategic-error house rule."),
    ),
    (
        [PenaltyEntry("Ben", "adjustment", points=5, reason="typo")],
        HouseRules(open_train_points=10, strategic_error=True),
        ("penalty_off", "Ben", "Ben: this game does not use the adjustment house rule."),
    ),
    (
        [PenaltyEntry("Ben", "open_train"), PenaltyEntry("Ben", "open_train")],
        ALL_HOUSE_RULES,
        ("penalty_twice", "Ben", "Ben: the open-train penalty is counted once a round."),
    ),
    (
        [PenaltyEntry("Ben", "strategic_error"), PenaltyEntry("Ben", "strategic_error")],
        ALL_HOUSE_RULES,
        ("penalty_twice", "Ben", "Ben: the strategic-error penalty is counted once a round."),
    ),
    (
        [PenaltyEntry("Ben", "last_tile")],
        ALL_HOUSE_RULES,
        ("penalty_kind", "Ben", "last_tile is not a kind of penalty."),
    ),
    (
        [PenaltyEntry("Zed", "open_train")],
        ALL_HOUSE_RULES,
        ("penalty_player", None, "Zed is not playing in this game."),
    ),
]


@pytest.mark.parametrize(("penalties", "house", "expected"), PENALTY_ERRORS)
def test_penalty_error(penalties, house, expected):
    problem = only_error(penalty_round(*penalties, house=house))
    assert (problem.code, problem.player, problem.message) == expected
    assert problem.field == "penalty"


def test_every_penalty_problem_is_reported_at_once():
    check = penalty_round(
        PenaltyEntry("Ben", "last_tile"),
        PenaltyEntry("Zed", "open_train"),
        PenaltyEntry("Ben", "open_train"),
        PenaltyEntry("Cleo", "strategic_error"),
        PenaltyEntry("Cleo", "strategic_error"),
        PenaltyEntry("Dan", "adjustment", points="ten", reason="typo"),
        house=HouseRules(strategic_error=True, adjustments=True),
    )
    assert [p.code for p in check.errors] == [
        "penalty_kind",
        "penalty_player",
        "penalty_off",
        "penalty_twice",
        "adjustment_not_whole",
    ]


@pytest.mark.parametrize(
    ("penalty", "message"),
    [
        (PenaltyEntry("Ben", "k" * 50), "k" * 40 + " is not a kind of penalty."),
        (PenaltyEntry("Z" * 50, "open_train"), "Z" * 40 + " is not playing in this game."),
    ],
)
def test_a_long_penalty_entry_is_quoted_shortened(penalty, message):
    assert only_error(penalty_round(penalty)).message == message


def test_adjustment_up_to_a_rounds_worth_is_accepted():
    check = penalty_round(PenaltyEntry("Ben", "adjustment", points=-1068, reason="typo"))
    assert check.result.score("Ben") == 12 - 1068


def test_different_players_may_each_take_the_same_fixed_penalty():
    check = penalty_round(PenaltyEntry("Ben", "open_train"), PenaltyEntry("Cleo", "open_train"))
    assert (check.result.score("Ben"), check.result.score("Cleo")) == (22, 50)


# parse_points: what the pips and adjustment boxes accept.


@pytest.mark.parametrize(
    ("raw", "points"),
    [
        ("12", 12),
        (" 7 ", 7),
        ("+5", 5),
        ("-3", -3),
        ("007", 7),
        (12, 12),
        (-4, -4),
        (12.0, 12),
        ("123456789", 123456789),
        ("12.5", None),
        ("12.0", None),
        (12.5, None),
        (True, None),
        (False, None),
        (None, None),
        ("", None),
        ("1e3", None),
        ("1,212", None),
        ("1234567890", None),
        ([12], None),
    ],
)
def test_parse_points(raw, points):
    assert parse_points(raw) == points


# RULES.md section 9: the draw game.


def test_example_9_1_blocked_hand_lowest_count_scores_the_differences():
    assert draw_hand_scores({"A": 15, "B": 19, "C": 22}, None) == {"A": 11, "B": 0, "C": 0}
    game = game_of(["A", "B", "C"], game_type=GameType.DRAW)
    check = check_round(game, 1, entry({"A": 15, "B": 19, "C": 22}, blocked=True))
    assert check.result.scores == {"A": 11, "B": 0, "C": 0}


def test_example_9_2_player_out_scores_the_pips_left_in_the_other_hands():
    assert draw_hand_scores({"A": 0, "B": 12, "C": 9}, "A") == {"A": 21, "B": 0, "C": 0}
    game = game_of(["A", "B", "C"], game_type=GameType.DRAW)
    check = check_round(game, 1, entry({"B": 12, "C": 9}, out="A"))
    assert check.result.scores == {"A": 21, "B": 0, "C": 0}
    assert check.result.hand("B").pips == 12  # the sheet still shows what each hand held
    assert all(hand.penalty == 0 for hand in check.result.hands)


def test_draw_player_out_scores_even_when_another_holds_only_the_double_blank():
    game = game_of(["A", "B", "C"], game_type=GameType.DRAW)
    check = check_round(game, 1, entry({"B": ["0-0"], "C": 9}, out="A"))
    assert check.result.scores == {"A": 9, "B": 0, "C": 0}


def test_draw_blocked_hand_shared_lowest_count_scores_nothing():
    assert draw_hand_scores({"A": 10, "B": 10, "C": 20}, None) == {"A": 0, "B": 0, "C": 0}


def test_draw_hand_of_tiles_is_counted_at_face_value():
    game = game_of(["A", "B"], game_type=GameType.DRAW)
    check = check_round(game, 1, entry({"A": ["6-6", "0-0"], "B": ["0-5"]}, blocked=True))
    assert check.result.scores == {"A": 0, "B": 7}  # B holds 5, A 12


def test_draw_game_refuses_house_rule_penalties():
    game = game_of(["A", "B"], game_type=GameType.DRAW)
    check = check_round(
        game, 1, entry({"B": 3}, out="A", penalties=[PenaltyEntry("B", "open_train")])
    )
    assert only_error(check).code == "penalty_off"


def test_draw_game_needs_someone_out_or_a_blocked_hand():
    game = game_of(["A", "B"], game_type=GameType.DRAW)
    assert only_error(check_round(game, 1, entry({"A": 3, "B": 4}))).code == "nobody_out"


def test_draw_first_hand_is_opened_by_the_holder_of_the_highest_double_not_a_seat():
    # RULES.md section 9: only the table knows who holds it; the app says so (None here).
    assert draw_next_opener(["A", "B", "C"], None) is None


def test_draw_loser_of_a_hand_opens_the_next():
    game = game_of(["A", "B", "C"], game_type=GameType.DRAW)
    result = check_round(game, 1, entry({"B": 12, "C": 9}, out="A")).result
    assert draw_next_opener(game.players, result) == "B"


def test_draw_loser_tie_goes_to_the_earlier_seat():
    game = game_of(["A", "B", "C"], game_type=GameType.DRAW)
    result = check_round(game, 1, entry({"A": 2, "B": 9, "C": 9}, blocked=True)).result
    assert draw_next_opener(game.players, result) == "B"


# RULES.md section 6: a team's round score.


TEAMS = [("Ana", "Cleo"), ("Ben", "Dan")]


def team_round(hands, out=None, blocked=False, penalties=()):
    game = new_game(FOUR, GameRules(house_rules=ALL_HOUSE_RULES), TEAMS)
    check = check_round(game, 1, entry(hands, out=out, blocked=blocked, penalties=penalties))
    return check.result


def test_team_round_score_is_zero_when_a_partner_went_out():
    result = team_round({"Ben": 10, "Cleo": 30, "Dan": 5}, out="Ana")
    assert team_round_score(result, ("Ana", "Cleo")) == 0
    assert team_round_score(result, ("Ben", "Dan")) == 15


def test_team_round_score_counts_penalties_even_when_a_partner_went_out():
    result = team_round(
        {"Ben": 10, "Cleo": 30, "Dan": 5},
        out="Ana",
        penalties=[PenaltyEntry("Cleo", "open_train"), PenaltyEntry("Ana", "open_train")],
    )
    assert team_round_score(result, ("Ana", "Cleo")) == 20


def test_team_round_score_of_a_blocked_round_is_both_hands_and_penalties():
    result = team_round(
        {"Ana": 1, "Ben": 10, "Cleo": 30, "Dan": 5},
        blocked=True,
        penalties=[PenaltyEntry("Ben", "adjustment", points=-4, reason="typo")],
    )
    assert team_round_score(result, ("Ana", "Cleo")) == 31
    assert team_round_score(result, ("Ben", "Dan")) == 11
