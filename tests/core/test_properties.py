"""Properties of the rules core that must hold for every deal and every score sheet."""

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.core import (
    SUPPORTED_SETS,
    BlankScoring,
    DecidedBy,
    GameRules,
    HandEntry,
    RoundEntry,
    Tile,
    check_round,
    double,
    draw_hand_scores,
    engines,
    hand_value,
    new_game,
    running_totals,
    standings,
    tiles_in_set,
)

EXAMPLES = settings(max_examples=150, deadline=None)
FACE = BlankScoring.FACE
BLANK_25 = BlankScoring.BLANK_25


def worth(tile: Tile, option: BlankScoring) -> int:
    """RULES.md section 2's table, read directly: an oracle independent of tile_value."""
    if option == FACE:
        return tile.pips
    if option == BLANK_25:
        return sum(25 if end == 0 else end for end in (tile.low, tile.high))
    if tile == double(0):
        return 25 if option == BlankScoring.DOUBLE_BLANK_25 else 50
    return tile.pips


ALL_TILES = list(tiles_in_set(18))


@EXAMPLES
@given(
    st.lists(st.sampled_from(ALL_TILES), max_size=20, unique=True),
    st.sampled_from(list(BlankScoring)),
)
def test_hand_value_is_the_sum_of_its_tiles_values(hand, option):
    assert hand_value(hand, option) == sum(worth(tile, option) for tile in hand)


@st.composite
def deals(draw):
    """A real round: hands dealt without replacement from the set minus the round's engine."""
    set_size = draw(st.sampled_from(SUPPORTED_SETS))
    option = draw(st.sampled_from(list(BlankScoring)))
    players = [f"P{index}" for index in range(draw(st.integers(2, 8)))]
    game = new_game(players, GameRules(set_size=set_size, blank_scoring=option))
    number = draw(st.integers(1, len(engines(game.rules))))
    engine = double(engines(game.rules)[number - 1])
    boneyard = draw(st.permutations([tile for tile in tiles_in_set(set_size) if tile != engine]))
    out = draw(st.none() | st.sampled_from(players))
    hands: dict[str, list[Tile]] = {}
    for player in players:
        size = 0 if player == out else draw(st.integers(0, 20))
        hands[player], boneyard = list(boneyard[:size]), boneyard[size:]
    as_tiles = {player: draw(st.booleans()) for player in players}
    return game, number, hands, out, as_tiles


@EXAMPLES
@given(deals())
def test_any_real_deal_is_accepted_and_scores_its_hands(deal):
    game, number, hands, out, as_tiles = deal
    option = game.rules.blank_scoring
    entry = RoundEntry(
        {
            player: (
                HandEntry(tiles=[str(tile) for tile in held])
                if as_tiles[player]
                else HandEntry(str(sum(worth(tile, option) for tile in held)))
            )
            for player, held in hands.items()
        },
        out=out,
        blocked=out is None,
    )
    check = check_round(game, number, entry)
    assert check.errors == ()
    expected = {
        player: 0 if player == out else sum(worth(tile, option) for tile in held)
        for player, held in hands.items()
    }
    assert check.result.scores == expected
    assert [hand.went_out for hand in check.result.hands] == [p == out for p in game.players]


@st.composite
def score_sheets(draw, max_players=7):
    """Round scores for a few players, with many repeats so ties and shared places happen."""
    rounds = draw(st.integers(0, 5))
    score = st.sampled_from([0, 0, 5, 10, 12, 20]) | st.integers(-10, 60)
    count = draw(st.integers(1, max_players))
    return {
        f"P{index}": draw(st.lists(score, min_size=rounds, max_size=rounds))
        for index in range(count)
    }


def key(line):
    """The tie-break chain of RULES.md section 5 as one sortable key (lower is better)."""
    low = float("inf") if line.lowest_nonzero is None else line.lowest_nonzero
    return (line.total, -line.zero_rounds, low)


@EXAMPLES
@given(score_sheets())
def test_totals_are_the_sum_of_the_rounds(sheet):
    for line in standings(sheet):
        assert line.total == sum(sheet[line.name]) == sum(line.rounds)
        assert running_totals(sheet[line.name])[-1:] in ([], [line.total])


@EXAMPLES
@given(score_sheets())
def test_standings_are_a_total_order_following_the_tie_break_chain(sheet):
    lines = standings(sheet)
    assert sorted(line.name for line in lines) == sorted(sheet)
    places = [line.place for line in lines]
    assert places == sorted(places)
    assert places[0] == 1
    for before, after in zip(lines, lines[1:], strict=False):
        if before.place != after.place:
            assert key(before) < key(after)
        else:
            assert key(before) == key(after)
    for line in lines:
        assert line.place == 1 + sum(key(other) < key(line) for other in lines)
        equal = sum(key(other) == key(line) for other in lines)
        assert line.shared == (equal > 1)
        assert (line.decided_by == DecidedBy.SHARED) == line.shared


@EXAMPLES
@given(score_sheets(), st.randoms(use_true_random=False))
def test_renaming_players_never_changes_a_place(sheet, random):
    order = list(sheet)
    random.shuffle(order)
    fresh = {name: f"Q{index}" for index, name in enumerate(reversed(list(sheet)))}
    renamed = {fresh[name]: sheet[name] for name in order}
    before = {line.name: (line.place, line.decided_by) for line in standings(sheet)}
    after = {line.name: (line.place, line.decided_by) for line in standings(renamed)}
    assert {name: after[fresh[name]] for name in sheet} == before


@EXAMPLES
@given(score_sheets())
def test_draw_standings_rank_by_highest_total_only(sheet):
    lines = standings(sheet, higher_wins=True)
    for line in lines:
        assert line.place == 1 + sum(other.total > line.total for other in lines)


counts = st.dictionaries(
    st.sampled_from(["A", "B", "C", "D", "E"]), st.integers(0, 60), min_size=2, max_size=5
)


@EXAMPLES
@given(counts)
def test_draw_blocked_hand_scores_the_sum_of_differences(hand_counts):
    scores = draw_hand_scores(hand_counts, None)
    lowest = min(hand_counts.values())
    holders = [player for player, value in hand_counts.items() if value == lowest]
    if len(holders) == 1:
        [winner] = holders
        assert scores[winner] == sum(hand_counts.values()) - lowest * len(hand_counts)
        assert all(score == 0 for player, score in scores.items() if player != winner)
    else:
        assert set(scores.values()) == {0}


@EXAMPLES
@given(counts, st.data())
def test_draw_player_out_scores_every_other_hand(hand_counts, data):
    out = data.draw(st.sampled_from(sorted(hand_counts)))
    hand_counts = {**hand_counts, out: 0}
    scores = draw_hand_scores(hand_counts, out)
    assert scores[out] == sum(hand_counts.values())
    assert sum(scores.values()) == scores[out]
