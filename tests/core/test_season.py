"""Season standings (issue 5): the three methods on hand-worked examples, and late arrivals."""

from fractions import Fraction

import pytest

from scorekeeper.core import (
    LateRule,
    PlayerSeason,
    RoundScores,
    RuleError,
    SeasonMethod,
    best_round,
    late_scores,
    longest_run,
    parse_points_table,
    placement_points,
    round_half_up,
    season_standings,
)

# Hand-worked season: three finished four-player games.
# Game 1: Ana 1st, Ben 2nd, Cy 3rd, Di 4th.   Game 2: Ben 1st, Ana and Cy share 2nd, Di 4th.
# Game 3 (Ana absent; three players): Cy 1st, Ben 2nd, Di 3rd.
# Totals and rounds (13 a game): Ana 60 over 26 rounds, Ben 90/39, Cy 100/39, Di 300/39.
SEASON = [
    PlayerSeason(
        "Ana", games=2, wins=1, rounds=26, total_score=60, placements={(4, 1, 1): 1, (4, 2, 2): 1}
    ),
    PlayerSeason(
        "Ben",
        games=3,
        wins=1,
        rounds=39,
        total_score=90,
        placements={(4, 2, 1): 1, (4, 1, 1): 1, (3, 2, 1): 1},
    ),
    PlayerSeason(
        "Cy",
        games=3,
        wins=1,
        rounds=39,
        total_score=100,
        placements={(4, 3, 1): 1, (4, 2, 2): 1, (3, 1, 1): 1},
    ),
    PlayerSeason(
        "Di", games=3, wins=0, rounds=39, total_score=300, placements={(4, 4, 1): 2, (3, 3, 1): 1}
    ),
]


def table(lines):
    return [(line.place, line.player) for line in lines]


def test_placement_points_default_one_point_per_player_beaten():
    # Winner of four scores 3, last scores 0; sharing 2nd of four splits 2 and 1: 1.5 each.
    assert placement_points(4, 1, 1) == 3
    assert placement_points(4, 4, 1) == 0
    assert placement_points(4, 2, 2) == Fraction(3, 2)


def test_placement_points_season_by_hand():
    # Ana 3 + 1.5 = 4.5; Ben 2 + 3 + 1 = 6; Cy 1 + 1.5 + 2 = 4.5; Di 0 + 0 + 0 = 0.
    lines = season_standings(SEASON, SeasonMethod.PLACEMENT_POINTS)
    assert [(line.player, line.points) for line in lines] == [
        ("Ben", 6),
        ("Ana", Fraction(9, 2)),
        ("Cy", Fraction(9, 2)),
        ("Di", 0),
    ]
    assert table(lines) == [(1, "Ben"), (2, "Ana"), (2, "Cy"), (4, "Di")]
    assert [line.shared for line in lines] == [False, True, True, False]


def test_placement_points_with_a_club_table():
    # Table 5, 3, 1: Ana 5 + (3+1)/2 = 7; Ben 3 + 5 + 3 = 11; Cy 1 + 2 + 5 = 8;
    # Di 0 + 0 (4th is past the table) + 1 (3rd of three) = 1.
    lines = season_standings(SEASON, SeasonMethod.PLACEMENT_POINTS, table=(5, 3, 1))
    assert [(line.player, line.points) for line in lines] == [
        ("Ben", 11),
        ("Cy", 8),
        ("Ana", 7),
        ("Di", 1),
    ]


def test_games_won_ties_broken_by_average_per_round():
    # Ana, Ben and Cy each won once; averages 60/26 = 2.31, 90/39 = 2.31, 100/39 = 2.56.
    # Ana's 60/26 (2.3077) and Ben's 90/39 (2.3077) are equal: they share 1st.
    lines = season_standings(SEASON, SeasonMethod.GAMES_WON)
    assert table(lines) == [(1, "Ana"), (1, "Ben"), (3, "Cy"), (4, "Di")]
    assert lines[0].average == Fraction(30, 13)


def test_average_per_round_lowest_first_with_a_minimum_of_games():
    lines = season_standings(SEASON, SeasonMethod.AVERAGE, min_games=3)
    # Ana played 2 games: listed, not ranked.
    assert table(lines) == [(1, "Ben"), (2, "Cy"), (3, "Di"), (None, "Ana")]
    assert [line.qualified for line in lines] == [True, True, True, False]
    assert table(season_standings(SEASON, SeasonMethod.AVERAGE, min_games=2))[0] == (1, "Ana")


def test_placement_points_count_every_time_a_place_is_earned():
    # Ana wins two four-player games (3 each) and is last of three once (0): 6.
    ana = PlayerSeason("Ana", 3, 2, 39, 90, placements={(4, 1, 1): 2, (3, 3, 1): 1})
    [line] = season_standings([ana], SeasonMethod.PLACEMENT_POINTS)
    assert line.points == 6


def test_each_line_shows_games_and_wins():
    lines = season_standings(SEASON, SeasonMethod.AVERAGE, min_games=3)
    assert [(line.player, line.games, line.wins) for line in lines] == [
        ("Ben", 3, 1),
        ("Cy", 3, 1),
        ("Di", 3, 0),
        ("Ana", 2, 1),
    ]
    ana = lines[-1]
    assert (ana.place, ana.shared, ana.points, ana.average) == (
        None,
        False,
        Fraction(9, 2),
        Fraction(30, 13),
    )


def test_by_average_one_game_is_enough_unless_the_season_asks_more():
    one = PlayerSeason("One", 1, 1, 13, 26)
    none = PlayerSeason("None", 0, 0, 0, 0)
    assert table(season_standings([one, none], SeasonMethod.AVERAGE)) == [
        (1, "One"),
        (None, "None"),
    ]


def test_unranked_players_are_listed_by_name():
    lines = season_standings(
        [PlayerSeason("Zoe", 1, 0, 13, 10), PlayerSeason("Abe", 1, 0, 13, 20)],
        SeasonMethod.AVERAGE,
        min_games=2,
    )
    assert table(lines) == [(None, "Abe"), (None, "Zoe")]
    assert [line.shared for line in lines] == [False, False]


@pytest.mark.parametrize("method", [SeasonMethod.GAMES_WON, SeasonMethod.AVERAGE])
def test_a_player_without_rounds_ranks_after_a_high_average(method):
    # Old averages 100 a round (a bad season), New has not played a round yet.
    lines = season_standings(
        [PlayerSeason("New", 0, 0, 0, 0), PlayerSeason("Old", 1, 0, 13, 1300)],
        method,
        min_games=0,
    )
    assert table(lines) == [(1, "Old"), (2, "New")]


def test_a_player_without_rounds_ranks_last_by_average():
    lines = season_standings(
        [PlayerSeason("New", 0, 0, 0, 0), PlayerSeason("Old", 1, 0, 13, 40)],
        SeasonMethod.AVERAGE,
        min_games=0,
    )
    assert table(lines) == [(1, "Old"), (2, "New")]
    assert lines[1].average is None
    won = season_standings([PlayerSeason("New", 0, 0, 0, 0)], SeasonMethod.GAMES_WON)
    assert won[0].place == 1


@pytest.mark.parametrize(
    ("typed", "points"),
    [
        (None, None),
        ("", None),
        ("3, 2, 1, 0", (3, 2, 1, 0)),
        ("10;5", (10, 5)),
        ("-1,0", (-1, 0)),
        (", ".join(["1"] * 20), (1,) * 20),
    ],
)
def test_points_table_is_read_from_what_the_organiser_typed(typed, points):
    assert parse_points_table(typed) == points


@pytest.mark.parametrize("typed", ["three", "3,,x", ",", "1," * 21, "--3", "X3, 2"])
def test_points_table_that_is_not_numbers_is_refused(typed):
    with pytest.raises(RuleError) as error:
        parse_points_table(typed)
    [problem] = error.value.problems
    assert (problem.code, problem.field, problem.message) == (
        "points_table",
        "points_table",
        "Write the points for 1st, 2nd, 3rd... separated by commas, like 3, 2, 1, 0.",
    )


@pytest.mark.parametrize(
    ("rule", "scores"),
    [
        (LateRule.HIGHEST, [15, 7, 0]),
        (LateRule.AVERAGE, [10, 4, 0]),  # (15+5)/2 = 10; (0+7+5)/3 = 4; nobody played: 0
        (LateRule.ZERO, [0, 0, 0]),
    ],
)
def test_a_late_arrival_scores_the_missed_rounds_by_the_clubs_rule(rule, scores):
    assert late_scores(rule, [[15, 5], [0, 7, 5], []]) == scores


def test_late_average_rounds_half_up():
    assert late_scores(LateRule.AVERAGE, [[1, 2]]) == [2]


@pytest.mark.parametrize(
    ("value", "places", "shown"),
    [
        (Fraction(49, 8), 2, "6.13"),  # 6.125: half to even would say 6.12
        (9.25, 1, "9.3"),  # half to even would say 9.2
        (2.675, 2, "2.68"),  # as it reads, not as the binary float is stored
        (Fraction(1, 3), 2, "0.33"),
        (Fraction(5, 2), 0, "3"),
        (Fraction(-5, 2), 0, "-3"),  # a tie goes away from zero
        (7, 1, "7.0"),
    ],
)
def test_one_rounding_rule_half_up(value, places, shown):
    assert str(round_half_up(value, places)) == shown


def test_late_average_uses_the_same_rounding_rule():
    assert late_scores(LateRule.AVERAGE, [[6, 7]]) == [7]  # 6.5 -> 7
    assert late_scores(LateRule.AVERAGE, [[-6, -7]]) == [-7]  # -6.5 -> -7, away from zero


# The season's story: the longest run of wins and the best round ------------------------------


@pytest.mark.parametrize(
    ("won", "run"),
    [
        ([], (0, -1)),
        ([False, False], (0, -1)),
        ([True], (1, 0)),
        # W L W W L W W W: the run of three, from the sixth game.
        ([True, False, True, True, False, True, True, True], (3, 5)),
        # Two runs of two: the earlier one.
        ([False, True, True, False, True, True], (2, 1)),
        ([True, True, True, True], (4, 0)),
    ],
)
def test_the_longest_run_of_wins_is_the_earliest_of_the_longest(won, run):
    assert longest_run(won) == run


def test_the_best_round_is_the_widest_gap_below_the_others_average():
    rounds = [
        # Ana out, the others 5, 10, 20: 35 / 3 = 11 2/3 below their average.
        [("Ana", 0), ("Ben", 5), ("Cy", 10), ("Di", 20)],
        # Ben out, the others 10, 10, 30: 50 / 3 = 16 2/3 -- the best.
        [("Ben", 0), ("Ana", 10), ("Cy", 10), ("Di", 30)],
        # Di scores 2 against 40 and 60 (average 50, a gap of 48), but Di is a guest (None).
        [(None, 2), ("Ana", 40), ("Cy", 60)],
        # A round of one hand has nobody to beat.
        [("Cy", 0)],
    ]
    best = best_round([RoundScores.of(hands) for hands in rounds])
    assert best is not None
    assert (best.index, best.player, best.score) == (1, "Ben", 0)
    assert best.others == Fraction(50, 3) and best.margin == Fraction(50, 3)


def test_a_round_may_be_given_as_its_total_and_its_lowest_hands():
    # Round 2 above: 50 points in 4 hands, Ben's 0 the lowest: the same answer.
    full = [RoundScores.of([("Ben", 0), ("Ana", 10), ("Cy", 10), ("Di", 30)])]
    lowest = [RoundScores(total=50, played=4, hands=[("Ben", 0)])]
    assert best_round(full) == best_round(lowest)


def test_a_guest_counts_for_the_others_and_ties_go_to_the_earliest_round():
    rounds = [
        [("Ana", 0), (None, 12)],  # Ana 12 below the guest
        [("Ben", 3), ("Cy", 15)],  # as wide (12), later, though Ben scored more: Ana keeps it
        [("Cy", 0), ("Ana", 0)],  # a gap of nothing
        [("Di", 4), ("Ana", 28), ("Ben", 4)],  # 12 again, and Di is the first of two
    ]
    best = best_round([RoundScores.of(hands) for hands in rounds])
    assert best is not None and (best.index, best.player, best.margin) == (0, "Ana", 12)
    later = best_round([RoundScores.of(hands) for hands in rounds[2:]])
    assert later is not None and (later.index, later.player, later.margin) == (1, "Di", 12)
    assert best_round([]) is None
    assert best_round([RoundScores.of([(None, 0), (None, 9)])]) is None


def test_a_round_of_one_hand_or_a_guest_first_hides_no_later_round_or_hand():
    """A one-hand round before the best one, and a guest's hand listed first in a round: both
    are passed over, never the end of the search."""
    rounds = [
        [("Cy", 0)],  # nobody to beat
        [(None, 1), ("Ana", 0), ("Ben", 30), ("Cy", 30)],  # a guest first, then Ana's best round
    ]
    best = best_round([RoundScores.of(hands) for hands in rounds])
    assert best is not None
    assert (best.index, best.player, best.score) == (1, "Ana", 0)
