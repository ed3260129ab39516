"""A player who leaves (RULES.md section 11), missed rounds in the tie-breaks (sections 5, 10)."""

from dataclasses import replace

import pytest

from scorekeeper.core import (
    GameRules,
    GameType,
    HandEntry,
    HandResult,
    HouseRules,
    LateRule,
    PenaltyEntry,
    RoundEntry,
    RuleError,
    check_round,
    come_back,
    come_back_problem,
    game_state,
    late_scores,
    leave,
    leave_problem,
    new_game,
    set_warning,
)


def play(game, number, pips, out=None, penalties=()):
    """Score one round from {player: pips}; blocked when nobody is out."""
    entry = RoundEntry(
        {name: HandEntry(value) for name, value in pips.items()},
        out=out,
        blocked=out is None,
        penalties=penalties,
    )
    check = check_round(game, number, entry)
    assert check.errors == ()
    return check.result


def lines(state):
    return [(line.name, line.total, line.place, line.zero_rounds) for line in state.standings]


def test_example_11_1_a_leaver_takes_the_highest_score_of_each_round_missed():
    """A, B, C, 3 rounds. Round 1: A out, B 20, C 15. C leaves after round 1. Round 2: A out,
    B 12; C takes 12. Round 3: B out, A 30; C takes 30. Totals A 30, B 32, C 57; zero rounds
    A 2, B 1, C 0; C "left after round 1"."""
    game = new_game(["A", "B", "C"], GameRules(rounds=3))
    results = [play(game, 1, {"B": 20, "C": 15}, out="A")]
    assert leave_problem(game, "C", 1) is None
    game = leave(game, "C", 1)
    # The form no longer asks for C's hand: whatever is sent for C is not read.
    results.append(play(game, 2, {"B": 12, "C": 99}, out="A"))
    results.append(play(game, 3, {"A": 30}, out="B"))
    assert [r.score("C") for r in results] == [15, 12, 30]
    assert [r.hand("C").missed for r in results] == [False, True, True]
    state = game_state(game, results)
    assert state.finished
    assert lines(state) == [("A", 30, 1, 2), ("B", 32, 2, 1), ("C", 57, 3, 0)]
    assert [line.left_after for line in state.standings] == [None, None, 1]
    assert state.winners == ("A",)


def test_a_leaver_takes_the_highest_pips_not_the_others_penalties():
    game = new_game(["A", "B", "C"], GameRules(house_rules=HouseRules(open_train_points=25)))
    first = play(game, 1, {"B": 20, "C": 15}, out="A")
    game = leave(game, "C", 1)
    second = play(game, 2, {"B": 12}, out="A", penalties=[PenaltyEntry("B", "open_train")])
    assert (second.score("B"), second.score("C")) == (37, 12)
    assert [hand.player for hand in second.hands] == ["A", "B", "C"]
    assert first.score("C") == 15


def test_a_missed_round_scoring_0_is_not_a_zero_round_for_a_leaver():
    # Everyone went out or held blanks: the highest score is 0, and C did not play it.
    game = leave(new_game(["A", "B", "C"]), "C", 1)
    results = [play(new_game(["A", "B", "C"]), 1, {"B": 5, "C": 7}, out="A")]
    results.append(play(game, 2, {"B": 0}, out="A"))
    c = next(line for line in game_state(game, results).standings if line.name == "C")
    assert (c.rounds, c.zero_rounds, c.lowest_nonzero) == ((7, 0), 0, 7)


def test_example_10_2_missed_rounds_take_no_part_in_the_lowest_round_tie_break():
    """Average rule; B, C and late A. Round 1: B out, C 6; A takes 3. Round 2: C out, A 10, B 5.
    Round 3: A out, B 8, C 30. A and B total 13 with one zero round each; A's lowest round
    other than zero is 10 (not the missed 3), B's 5: B 1st, A 2nd, C 3rd (36)."""
    two = new_game(["B", "C"])
    first = play(two, 1, {"C": 6}, out="B")
    (missed,) = late_scores(LateRule.AVERAGE, [list(first.scores.values())])
    assert missed == 3
    game = new_game(["B", "C", "A"])
    first = replace(first, hands=(*first.hands, HandResult("A", 0, 0, missed, False, missed=True)))
    results = [
        first,
        play(game, 2, {"A": 10, "B": 5}, out="C"),
        play(game, 3, {"B": 8, "C": 30}, out="A"),
    ]
    state = game_state(game, results)
    assert lines(state) == [("B", 13, 1, 1), ("A", 13, 2, 1), ("C", 36, 3, 1)]
    by_name = {line.name: line for line in state.standings}
    assert (by_name["A"].lowest_nonzero, by_name["B"].lowest_nonzero) == (10, 5)
    assert by_name["B"].decided_by.value == "lowest_nonzero"


def test_a_leaver_may_come_back_and_the_rounds_between_stay_missed():
    game = new_game(["A", "B", "C"])
    results = [play(game, 1, {"B": 20, "C": 15}, out="A")]
    away = leave(game, "C", 1)
    results.append(play(away, 2, {"B": 12}, out="A"))
    assert come_back_problem(away, "C") is None
    back = come_back(away, "C")
    assert back.left_after == () and back.present == ("A", "B", "C")
    results.append(play(back, 3, {"A": 30, "C": 4}, out="B"))
    assert [r.hand("C").missed for r in results] == [False, True, False]
    state = game_state(back, results)
    assert [line.left_after for line in state.standings] == [None, None, None]
    assert come_back_problem(back, "C").code == "back_not_left"


def test_the_opener_passes_over_a_player_who_left():
    game = new_game(["A", "B", "C"])
    results = [play(game, 1, {"B": 1, "C": 2}, out="A")]
    assert game_state(game, results).next_opener == "B"
    away = leave(game, "B", 1)
    assert game_state(away, results).next_opener == "C"
    results.append(play(away, 2, {"C": 2}, out="A"))
    assert game_state(away, results).next_opener == "C"


def test_when_all_but_one_have_left_the_game_can_only_be_ended():
    game = leave(new_game(["A", "B", "C"]), "C", 1)
    two_left = [play(new_game(["A", "B", "C"]), 1, {"B": 1, "C": 2}, out="A")]
    assert game_state(game, two_left).can_play is True  # two at the table still play
    assert leave_problem(game, "B", 1) is None
    alone = leave(game, "B", 1)
    results = [play(new_game(["A", "B", "C"]), 1, {"B": 1, "C": 2}, out="A")]
    state = game_state(alone, results)
    assert not state.can_play and not state.finished
    check = check_round(alone, 2, RoundEntry({"A": HandEntry(0)}, out="A"))
    assert [(p.code, p.message) for p in check.errors] == [
        ("only_one_left", "Only A is still playing: the game can only be ended.")
    ]
    refused = leave_problem(alone, "A", 1)
    assert (refused.code, refused.message) == (
        "only_one_left",
        "Only A is still playing: the game can only be ended.",
    )


def draw_game(players=("A", "B", "C", "D")):
    return new_game(list(players), GameRules(game_type=GameType.DRAW))


def test_a_draw_game_leaver_holds_no_hand_and_ranks_after_those_who_stayed():
    game = draw_game()
    results = [play(game, 1, {"B": 20, "C": 10, "D": 30}, out="A")]  # A 60
    game = leave(game, "A", 1)
    results.append(play(game, 2, {"C": 3, "D": 4}, out="B"))  # B 7
    game = leave(game, "B", 2)
    results.append(play(game, 3, {"C": 2, "D": 9}))  # blocked: C 7
    assert [r.score("A") for r in results] == [60, 0, 0]
    assert [(h.player, h.pips, h.missed) for h in results[2].hands][:2] == [
        ("A", 0, True),
        ("B", 0, True),
    ]
    state = game_state(game, results)
    # C 7 and D 0 stayed; B left after hand 2, A after hand 1: later leavers first.
    assert [
        (line.name, line.total, line.place, line.decided_by.value) for line in state.standings
    ] == [
        ("C", 7, 1, "total"),
        ("D", 0, 2, "total"),
        ("B", 7, 3, "left"),
        ("A", 60, 4, "left"),
    ]
    # The loser of the last hand opens; a leaver never does.
    assert state.next_opener == "D"
    assert come_back_problem(game, "A").code == "back_draw"


def test_the_draw_game_loser_who_left_does_not_open():
    game = draw_game(("A", "B", "C"))
    results = [play(game, 1, {"B": 20, "C": 10}, out="A")]
    assert game_state(game, results).next_opener == "B"
    assert game_state(leave(game, "B", 1), results).next_opener == "C"


def test_house_rules_sent_with_a_draw_game_are_refused_like_teams():
    rules = GameRules(game_type=GameType.DRAW, house_rules=HouseRules(strategic_error=True))
    with pytest.raises(RuleError) as error:
        new_game(["A", "B", "C"], rules)
    assert [(p.code, p.field, p.message) for p in error.value.problems] == [
        (
            "house_rules_draw",
            "house_rules",
            "The draw game has no house-rule penalties: turn them off.",
        )
    ]


@pytest.mark.parametrize(
    ("players", "set_size", "warned"),
    [
        (14, 6, (6, 14, 28, 18, 11)),
        (8, 9, (9, 8, 55, 12, 10)),
        (4, 9, None),  # 54 tiles deal 13 each: the recommended 12 fit
        (14, 18, None),
        (3, 6, None),  # 27 tiles deal 9 each: the recommended 8 fit
    ],
)
def test_a_set_too_small_for_the_table_is_warned_about_with_seed_002s_set(
    players, set_size, warned
):
    setup = new_game([f"P{n}" for n in range(players)], GameRules(set_size=set_size))
    problem = set_warning(setup)
    if warned is None:
        assert problem is None
        return
    assert (problem.code, problem.field, problem.severity) == ("set_too_small", "set", "warning")
    figures = tuple(problem.params[k] for k in ("set", "players", "tiles", "suggested", "hand"))
    assert figures == warned
    assert problem.message == (
        f"A double-{warned[0]} set is too small for {warned[1]} players: its {warned[2]} tiles "
        f"cannot deal {warned[4]} each. The rules suggest a double-{warned[3]} set for "
        f"{warned[1]} players."
    )


def test_no_set_warning_for_the_draw_game():
    assert set_warning(draw_game()) is None


def three():
    return new_game(["A", "B", "C"])


def partnership():
    return new_game(["A", "B", "C", "D"], teams=[("A", "C"), ("B", "D")])


# (the game, who asks, rounds played (None: coming back), the code and what the player reads).
# Built in the test, not at collection, so each refusal is worked out afresh.
REFUSALS = [
    (three, "Zed", 1, "leave_unknown", "Zed is not playing in this game."),
    (
        partnership,
        "A",
        1,
        "leave_teams",
        "A player cannot leave a partnership game: the teams are set. End the game instead.",
    ),
    (lambda: leave(three(), "A", 1), "A", 2, "leave_twice", "A has already left the game."),
    (
        three,
        "B",
        0,
        "leave_before_start",
        "No round has been played yet: start a new game without B instead.",
    ),
    (
        lambda: leave(leave(three(), "C", 1), "B", 1),
        "A",
        2,
        "only_one_left",
        "Only A is still playing: the game can only be ended.",
    ),
    (lambda: new_game(["A", "B"]), "B", None, "back_not_left", "B has not left the game."),
    (
        lambda: leave(draw_game(), "C", 2),
        "C",
        None,
        "back_draw",
        "C left a draw game: a player who leaves it is out for good.",
    ),
]


@pytest.mark.parametrize(("game", "player", "played", "code", "message"), REFUSALS)
def test_what_a_refused_leave_or_return_says(game, player, played, code, message):
    if played is None:
        problem = come_back_problem(game(), player)
    else:
        problem = leave_problem(game(), player, played)
    assert (problem.code, problem.message) == (code, message)


def test_a_leavers_line_of_a_missed_round_holds_no_hand():
    """The sheet's line for C in a round C missed: no pips, no penalty, the round's highest
    score, not out, marked as missed because C left."""
    game = leave(three(), "C", 1)
    result = play(game, 2, {"B": 12}, out="A")
    c = result.hand("C")
    assert (c.pips, c.penalty, c.score, c.went_out, c.tiles) == (0, 0, 12, False, None)
    assert (c.missed, c.away) == (True, True)
    assert (result.hand("B").missed, result.hand("B").away) == (False, False)


def test_a_game_everyone_has_left_takes_no_round():
    """A game whose every seat has left (an imported file may say so) can only be ended: a
    round is refused, naming nobody, rather than failing."""
    game = replace(three(), left_after=(("A", 1), ("B", 1), ("C", 1)))
    check = check_round(game, 2, RoundEntry({"A": HandEntry(0)}, out="A"))
    assert check.result is None
    assert [(p.code, p.message) for p in check.errors] == [
        ("only_one_left", "Only - is still playing: the game can only be ended.")
    ]
    results = [play(three(), 1, {"B": 1, "C": 2}, out="A")]
    state = game_state(game, results)
    assert (state.can_play, state.finished) == (False, False)
    assert state.next_opener == "B"  # whose turn round 2 is, though nobody is left to play


def test_a_late_arrivals_missed_round_does_not_set_a_leavers_score():
    """The highest of the round is the highest of those who played it: a late arrival's
    missed round (scored by the club's rule) is not one of them."""
    from scorekeeper.core import missed_score

    game = new_game(["A", "B", "C"])
    result = play(game, 1, {"B": 5, "C": 7}, out="A")
    late = replace(result.hands[2], score=40, missed=True)
    result = replace(result, hands=(*result.hands[:2], late))
    assert missed_score(result, draw=False) == 5
    assert missed_score(result, draw=True) == 0
