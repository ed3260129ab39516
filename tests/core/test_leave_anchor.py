"""A leave stays after the round it followed (RULES.md section 11): when that round is deleted
and entered again, the leaver's hand is asked for like anyone's; the sheet still says "left
after round N", and from round N + 1 the leaver misses the rounds."""

from scorekeeper.core import (
    GameRules,
    HandEntry,
    RoundEntry,
    check_round,
    game_state,
    leave,
    new_game,
)


def entry(pips, out):
    return RoundEntry({name: HandEntry(value) for name, value in pips.items()}, out=out)


def test_the_round_a_player_left_after_asks_for_their_hand_when_entered_again():
    game = leave(new_game(["A", "B", "C"], GameRules(rounds=4)), "C", 2)
    round_1 = check_round(game, 1, entry({"B": 20, "C": 15}, "A")).result
    # Round 2 (deleted, now entered again) was C's last: C's hand is needed, and counts.
    missing = check_round(game, 2, entry({"B": 12}, "A"))
    assert [problem.code for problem in missing.errors] == ["pips_missing"]
    round_2 = check_round(game, 2, entry({"B": 12, "C": 3}, "A")).result
    assert round_2.score("C") == 3 and not round_2.hand("C").missed
    state = game_state(game, [round_1, round_2])
    assert {line.name: line.left_after for line in state.standings}["C"] == 2
    # Round 3: C is gone, takes the round's highest; C opens no round any more.
    round_3 = check_round(game, 3, entry({"A": 30, "C": 99}, "B")).result
    assert round_3.hand("C").missed and round_3.score("C") == 30


def test_a_leaver_opens_the_round_they_left_after_when_it_is_entered_again():
    """Round 3 is C's to open; C left after round 3, which was deleted: C opens it again."""
    game = leave(new_game(["A", "B", "C"], GameRules(rounds=5)), "C", 3)
    results = [
        check_round(game, 1, entry({"B": 20, "C": 15}, "A")).result,
        check_round(game, 2, entry({"A": 2, "C": 5}, "B")).result,
    ]
    state = game_state(game, results)
    assert state.next_opener == "C"
    assert state.can_play


def test_a_round_two_players_left_after_can_be_entered_again():
    """B and C left after round 1, leaving A alone; round 1 was deleted: it is entered again with
    all three, so the game can be played, not only ended."""
    game = leave(leave(new_game(["A", "B", "C"]), "C", 1), "B", 1)
    state = game_state(game, [])
    assert state.can_play
    assert check_round(game, 1, entry({"B": 20, "C": 15}, "A")).errors == ()
    round_1 = check_round(game, 1, entry({"B": 20, "C": 15}, "A")).result
    assert not game_state(game, [round_1]).can_play
