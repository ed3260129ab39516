"""Totals, places and tie-breakers (RULES.md section 5)."""

import pytest

from scorekeeper.core import (
    DecidedBy,
    lowest_nonzero,
    running_totals,
    standings,
    total,
    winners,
    zero_rounds,
)


def table(lines):
    """(name, place, shared, decided_by) per line, in standings order."""
    return [(line.name, line.place, line.shared, line.decided_by) for line in lines]


def test_example_5_1_most_zero_rounds_breaks_a_tie():
    lines = standings({"A": [0, 0, 40], "B": [0, 15, 25], "C": [20, 15, 20]})
    assert [(line.name, line.total, line.zero_rounds) for line in lines] == [
        ("A", 40, 2),
        ("B", 40, 1),
        ("C", 55, 0),
    ]
    assert table(lines) == [
        ("A", 1, False, DecidedBy.ZERO_ROUNDS),
        ("B", 2, False, DecidedBy.ZERO_ROUNDS),
        ("C", 3, False, DecidedBy.TOTAL),
    ]


def test_example_5_2_lowest_nonzero_round_breaks_a_tie():
    lines = standings({"A": [0, 12, 28], "B": [0, 5, 35]})
    assert [(line.name, line.lowest_nonzero) for line in lines] == [("B", 5), ("A", 12)]
    assert table(lines) == [
        ("B", 1, False, DecidedBy.LOWEST_NONZERO),
        ("A", 2, False, DecidedBy.LOWEST_NONZERO),
    ]


def test_example_5_3_identical_rounds_share_first_and_the_next_is_third():
    lines = standings({"A": [0, 20, 20], "B": [0, 20, 20], "C": [5, 20, 30]})
    assert table(lines) == [
        ("A", 1, True, DecidedBy.SHARED),
        ("B", 1, True, DecidedBy.SHARED),
        ("C", 3, False, DecidedBy.TOTAL),
    ]
    assert winners(lines) == ["A", "B"]


def test_three_way_tie_two_share_the_lowest_nonzero_round_the_third_has_a_higher_one():
    # All total 40 with one zero round; A and B's lowest non-zero round is 5, C's is 10.
    lines = standings({"A": [0, 5, 35], "B": [0, 5, 35], "C": [0, 10, 30]})
    assert table(lines) == [
        ("A", 1, True, DecidedBy.SHARED),
        ("B", 1, True, DecidedBy.SHARED),
        ("C", 3, False, DecidedBy.LOWEST_NONZERO),
    ]


def test_lowest_total_wins():
    lines = standings({"A": [30, 40], "B": [10, 5], "C": [20, 20]})
    assert table(lines) == [
        ("B", 1, False, DecidedBy.TOTAL),
        ("C", 2, False, DecidedBy.TOTAL),
        ("A", 3, False, DecidedBy.TOTAL),
    ]
    assert winners(lines) == ["B"]


def test_competition_ranking_counts_everyone_ahead():
    lines = standings({"A": [10], "B": [10], "C": [20], "D": [20], "E": [30]})
    assert [line.place for line in lines] == [1, 1, 3, 3, 5]


def test_three_way_tie_resolved_by_both_tie_breakers():
    lines = standings({"A": [0, 10, 20], "B": [0, 0, 30], "C": [0, 5, 25]})
    assert table(lines) == [
        ("B", 1, False, DecidedBy.ZERO_ROUNDS),
        ("C", 2, False, DecidedBy.LOWEST_NONZERO),
        ("A", 3, False, DecidedBy.LOWEST_NONZERO),
    ]


def test_tie_on_total_and_zero_rounds_but_not_lowest_round_shares_nothing():
    lines = standings({"A": [0, 0, 40], "B": [0, 0, 40], "C": [0, 5, 35]})
    assert table(lines) == [
        ("A", 1, True, DecidedBy.SHARED),
        ("B", 1, True, DecidedBy.SHARED),
        ("C", 3, False, DecidedBy.ZERO_ROUNDS),
    ]


def test_shared_lines_keep_seating_order():
    assert [line.name for line in standings({"Zoe": [10], "Al": [10]})] == ["Zoe", "Al"]


def test_before_any_round_everyone_shares_first():
    lines = standings({"A": [], "B": []})
    assert table(lines) == [("A", 1, True, DecidedBy.SHARED), ("B", 1, True, DecidedBy.SHARED)]
    assert (lines[0].total, lines[0].zero_rounds, lines[0].lowest_nonzero) == (0, 0, None)


def test_standing_line_shows_totals_and_rounds():
    [line] = standings({"A": [0, 12, 28]})
    assert (line.total, line.zero_rounds, line.lowest_nonzero, line.rounds) == (
        40,
        1,
        12,
        (0, 12, 28),
    )
    assert line.decided_by is DecidedBy.TOTAL


def test_draw_game_highest_total_wins_and_ties_share_without_tie_breakers():
    lines = standings({"A": [0, 60], "B": [100], "C": [30, 30]}, higher_wins=True)
    assert table(lines) == [
        ("B", 1, False, DecidedBy.TOTAL),
        ("A", 2, True, DecidedBy.SHARED),
        ("C", 2, True, DecidedBy.SHARED),
    ]


@pytest.mark.parametrize(
    ("rounds", "expected_total", "running", "zeros", "lowest"),
    [
        ([], 0, [], 0, None),
        ([0, 0], 0, [0, 0], 2, None),
        ([5, 0, 7], 12, [5, 5, 12], 1, 5),
        ([12, 0, 3, 0], 15, [12, 12, 15, 15], 2, 3),
        ([10, -4, 0], 6, [10, 6, 6], 1, -4),  # a negative adjustment is a non-zero round
    ],
)
def test_round_figures(rounds, expected_total, running, zeros, lowest):
    assert total(rounds) == expected_total
    assert running_totals(rounds) == running
    assert zero_rounds(rounds) == zeros
    assert lowest_nonzero(rounds) == lowest


def test_missed_rounds_are_never_zero_rounds():
    """RULES.md section 10: A's first round was missed (scored 0 by the club's rule)."""
    lines = standings({"A": [0, 0, 10], "B": [0, 5, 5]}, missed={"A": {0}})
    assert [(line.name, line.zero_rounds, line.decided_by.value) for line in lines] == [
        ("B", 1, "lowest_nonzero"),
        ("A", 1, "lowest_nonzero"),
    ]
    assert zero_rounds([0, 0, 10], {0}) == 1
