"""Tiles and sets (RULES.md sections 1 and 2): sizes, pips, parsing, what a tile is worth."""

import pytest

from scorekeeper.core import (
    SUPPORTED_SETS,
    BlankScoring,
    RuleError,
    Tile,
    best_tiles_value,
    double,
    hand_value,
    most_in_hands,
    parse_tile,
    set_pips,
    tile_count,
    tile_value,
    tiles_in_set,
)
from scorekeeper.core.tiles import check_set

FACE = BlankScoring.FACE
BLANK_25 = BlankScoring.BLANK_25
DOUBLE_BLANK_25 = BlankScoring.DOUBLE_BLANK_25
DOUBLE_BLANK_50 = BlankScoring.DOUBLE_BLANK_50

# RULES.md section 1: set, tiles, total pips.
SETS = [(6, 28, 168), (9, 55, 495), (12, 91, 1092), (15, 136, 2040), (18, 190, 3420)]


def test_supported_sets_are_double_6_9_12_15_18():
    assert SUPPORTED_SETS == (6, 9, 12, 15, 18)


@pytest.mark.parametrize(("set_size", "tiles", "pips"), SETS)
def test_set_tile_count_and_total_pips(set_size, tiles, pips):
    assert tile_count(set_size) == tiles
    assert set_pips(set_size) == pips
    # A whole number of pips, shown as one: 1,092, never 1,092.0.
    assert f"{set_pips(set_size):,}" == f"{pips:,}"


@pytest.mark.parametrize(("set_size", "tiles", "pips"), SETS)
def test_tiles_in_set_lists_every_pair_once(set_size, tiles, pips):
    listed = list(tiles_in_set(set_size))
    assert len(listed) == len(set(listed)) == tiles
    assert sum(tile.pips for tile in listed) == pips
    assert all(0 <= tile.low <= tile.high <= set_size for tile in listed)


def test_tiles_in_set_lists_smallest_first():
    assert list(tiles_in_set(1)) == [Tile(0, 0), Tile(0, 1), Tile(1, 1)]


@pytest.mark.parametrize("set_size", SUPPORTED_SETS)
def test_supported_sets_pass_the_set_check(set_size):
    check_set(set_size)


@pytest.mark.parametrize("set_size", [0, 5, 7, 10, 13, 20])
def test_unsupported_set_is_refused_with_the_choices(set_size):
    with pytest.raises(RuleError) as caught:
        check_set(set_size)
    [problem] = caught.value.problems
    assert problem.code == "set_unsupported"
    assert problem.field == "set"
    assert problem.message == (
        f"Double-{set_size} sets are not supported: choose double-6, 9, 12, 15 or 18."
    )


def test_tile_is_the_same_either_way_round_and_named_high_end_first():
    assert Tile.of(6, 4) == Tile.of(4, 6) == Tile(4, 6)
    assert str(Tile.of(4, 6)) == "6-4"
    assert not Tile.of(6, 4).is_double
    assert Tile.of(6, 4).pips == 10


def test_double_is_a_tile_with_equal_ends():
    assert double(5) == Tile(5, 5)
    assert double(5).is_double
    assert str(double(0)) == "0-0"


# RULES.md section 2: what a tile is worth under each blank option.
VALUES = [
    (FACE, "0-7", 7),
    (FACE, "0-0", 0),
    (FACE, "6-4", 10),
    (FACE, "12-12", 24),
    (BLANK_25, "0-7", 32),
    (BLANK_25, "0-0", 50),
    (BLANK_25, "0-5", 30),
    (BLANK_25, "6-4", 10),
    (DOUBLE_BLANK_25, "0-0", 25),
    (DOUBLE_BLANK_25, "0-7", 7),
    (DOUBLE_BLANK_25, "5-5", 10),
    (DOUBLE_BLANK_50, "0-0", 50),
    (DOUBLE_BLANK_50, "0-7", 7),
    (DOUBLE_BLANK_50, "9-9", 18),
]


@pytest.mark.parametrize(("option", "text", "value"), VALUES)
def test_tile_value_under_each_blank_option(option, text, value):
    assert tile_value(parse_tile(text), option) == value


@pytest.mark.parametrize(("option", "text", "value"), VALUES)
def test_tile_value_under_a_blank_option_given_as_text(option, text, value):
    assert tile_value(parse_tile(text), option.value) == value


def test_tile_value_defaults_to_face():
    assert tile_value(double(0)) == 0
    assert tile_value(Tile(0, 7)) == 7


def test_blank_options_are_stored_by_their_rules_names():
    assert [option.value for option in BlankScoring] == [
        "face",
        "blank_25",
        "double_blank_25",
        "double_blank_50",
    ]


def test_hand_value_under_blank_25_matches_example_4_2():
    hand = [parse_tile(text) for text in ("0-5", "0-0", "2-3")]
    assert [tile_value(tile, BLANK_25) for tile in hand] == [30, 50, 5]
    assert hand_value(hand, BLANK_25) == 85


def test_empty_hand_is_worth_nothing():
    assert hand_value([], BLANK_25) == 0


@pytest.mark.parametrize(
    ("text", "tile"),
    [
        ("6-4", Tile(4, 6)),
        ("4-6", Tile(4, 6)),
        ("[6|4]", Tile(4, 6)),
        (" [ 6 | 4 ] ", Tile(4, 6)),
        (" 12 - 0 ", Tile(0, 12)),
        ("0-0", double(0)),
        ("6/4", Tile(4, 6)),
        ("18:17", Tile(17, 18)),
    ],
)
def test_parse_tile_reads_the_usual_spellings(text, tile):
    assert parse_tile(text) == tile


@pytest.mark.parametrize("text", ["", "6", "6-", "64", "a-b", "6-4-2", "100-1", "6--4", "six-four"])
def test_parse_tile_refuses_what_is_not_a_tile(text):
    with pytest.raises(RuleError) as caught:
        parse_tile(text)
    [problem] = caught.value.problems
    assert problem.code == "tile_unreadable"
    assert problem.field == "tiles"
    assert problem.message == f"{text} is not a tile: write it like 6-4."


@pytest.mark.parametrize("value", [64, None, (6, 4)])
def test_parse_tile_refuses_what_is_not_text(value):
    with pytest.raises(RuleError, match="is not a tile"):
        parse_tile(value)


def test_warning_bound_is_244_for_12_tiles_of_double_12_without_the_engine():
    assert best_tiles_value(12, 12, FACE, double(12)) == 244


def test_best_tiles_count_the_engine_when_it_is_not_on_the_table():
    # 12-12 (24) is among the best twelve when no engine is left out.
    assert best_tiles_value(12, 12) == 250


def test_best_tiles_of_more_than_the_set_is_the_whole_set():
    assert best_tiles_value(6, 100) == 168


def test_most_in_hands_double_12_face_engine_12_12_is_1068():
    assert most_in_hands(12, FACE, double(12)) == 1068 == 1092 - 24


def test_most_in_hands_without_engine_is_the_whole_set():
    assert most_in_hands(12) == 1092


@pytest.mark.parametrize(
    ("option", "engine", "most"),
    [
        # Twelve blank halves worth 25 instead of 0, and 0-0 worth 50.
        (BLANK_25, None, 1092 + 12 * 25 + 50),
        (BLANK_25, double(0), 1092 + 12 * 25),
        (BLANK_25, double(12), 1092 + 12 * 25 + 50 - 24),
        (DOUBLE_BLANK_25, double(12), 1068 + 25),
        (DOUBLE_BLANK_50, double(0), 1092),
        (DOUBLE_BLANK_50, double(5), 1092 - 10 + 50),
    ],
)
def test_most_in_hands_follows_the_blank_option_and_leaves_the_engine_out(option, engine, most):
    assert most_in_hands(12, option, engine) == most
