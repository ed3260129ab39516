"""Where a game stands (RULES.md sections 3, 5, 6, 9): next round, openers, end, winners."""

from scorekeeper.core import (
    GameRules,
    GameType,
    HandEntry,
    HouseRules,
    PenaltyEntry,
    RoundEntry,
    check_round,
    game_state,
    new_game,
    round_scores,
    team_scores,
)

FOUR = ["Ana", "Ben", "Cleo", "Dan"]
TEAMS = [("Ana", "Cleo"), ("Ben", "Dan")]


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


def test_new_game_state_shows_round_1_engine_and_opener():
    game = new_game(FOUR)
    state = game_state(game, [])
    assert state.rounds_played == 0
    assert not state.finished
    assert (state.next_round, state.next_engine, state.next_opener) == (1, 12, "Ana")
    assert state.engines == tuple(range(12, -1, -1))
    assert state.winners == ()
    assert [line.place for line in state.standings] == [1, 1, 1, 1]
    assert state.team_standings == ()


def test_next_engine_descends_and_the_opener_rotates_clockwise():
    game = new_game(FOUR)
    results = []
    seen = []
    for number in range(1, 6):
        state = game_state(game, results)
        seen.append((state.next_round, state.next_engine, state.next_opener))
        results.append(play(game, number, {"Ben": 1, "Cleo": 2, "Dan": 3}, out="Ana"))
    assert seen == [
        (1, 12, "Ana"),
        (2, 11, "Ben"),
        (3, 10, "Cleo"),
        (4, 9, "Dan"),
        (5, 8, "Ana"),
    ]


def test_ascending_game_counts_up():
    game = new_game(FOUR, GameRules(order="ascending"))
    first = play(game, 1, {"Ben": 1, "Cleo": 2, "Dan": 3}, out="Ana")
    assert first.engine == 0
    assert game_state(game, [first]).next_engine == 1


def test_game_finishes_after_its_last_round_and_lowest_total_wins():
    game = new_game(["Ana", "Ben", "Cleo"], GameRules(start_double=9, rounds=2))
    results = [play(game, 1, {"Ben": 10, "Cleo": 2}, out="Ana")]
    state = game_state(game, results)
    assert not state.finished
    assert (state.next_round, state.next_engine, state.next_opener) == (2, 8, "Ben")
    results.append(play(game, 2, {"Ana": 5, "Cleo": 20}, out="Ben"))
    state = game_state(game, results)
    assert state.finished
    assert state.rounds_played == 2
    assert (state.next_round, state.next_engine, state.next_opener) == (None, None, None)
    assert [(line.name, line.total) for line in state.standings] == [
        ("Ana", 5),
        ("Ben", 10),
        ("Cleo", 22),
    ]
    assert state.winners == ("Ana",)


def test_game_ended_early_is_finished_and_won_on_the_rounds_played():
    game = new_game(FOUR)
    results = [play(game, 1, {"Ana": 4, "Ben": 9, "Cleo": 6}, out="Dan")]
    state = game_state(game, results, ended_early=True)
    assert state.finished
    assert state.next_round is None
    assert state.winners == ("Dan",)


def test_game_ended_before_its_first_round_has_no_winner():
    assert game_state(new_game(FOUR), [], ended_early=True).winners == ()
    team_game = new_game(FOUR, teams=TEAMS)
    state = game_state(team_game, [], ended_early=True)
    assert state.finished
    assert state.winners == ()


def test_shared_first_place_gives_several_winners():
    game = new_game(["Ana", "Ben", "Cleo"], GameRules(rounds=1))
    results = [play(game, 1, {"Ana": 7, "Ben": 7, "Cleo": 9})]
    assert game_state(game, results).winners == ("Ana", "Ben")


def test_round_scores_per_player_in_seating_order_with_penalties():
    game = new_game(FOUR, GameRules(house_rules=HouseRules(open_train_points=25)))
    results = [
        play(game, 1, {"Ben": 3, "Cleo": 0, "Dan": 8}, out="Ana"),
        play(
            game,
            2,
            {"Ana": 4, "Cleo": 6, "Dan": 1},
            out="Ben",
            penalties=[PenaltyEntry("Ana", "open_train")],
        ),
    ]
    scores = round_scores(game, results)
    assert list(scores) == FOUR
    assert scores == {"Ana": [0, 29], "Ben": [3, 0], "Cleo": [0, 6], "Dan": [8, 1]}
    standing = game_state(game, results).standings
    assert [(line.name, line.total) for line in standing] == [
        ("Ben", 3),
        ("Cleo", 6),
        ("Dan", 9),
        ("Ana", 29),
    ]


# RULES.md section 6: partnerships.


def test_example_6_1_team_out_scores_0_the_other_team_both_hands():
    game = new_game(FOUR, teams=TEAMS)
    result = play(game, 1, {"Ben": 10, "Cleo": 30, "Dan": 5}, out="Ana")
    assert team_scores(game, [result]) == {"Ana & Cleo": [0], "Ben & Dan": [15]}


def test_example_6_2_a_penalty_counts_for_the_team_even_when_a_partner_went_out():
    game = new_game(FOUR, GameRules(house_rules=HouseRules(open_train_points=10)), TEAMS)
    result = play(
        game,
        1,
        {"Ben": 10, "Cleo": 30, "Dan": 5},
        out="Ana",
        penalties=[PenaltyEntry("Cleo", "open_train")],
    )
    assert team_scores(game, [result]) == {"Ana & Cleo": [10], "Ben & Dan": [15]}


def test_team_game_is_won_by_the_lowest_team_total():
    game = new_game(FOUR, GameRules(rounds=2), TEAMS)
    results = [
        play(game, 1, {"Ben": 10, "Cleo": 30, "Dan": 5}, out="Ana"),  # AC 0, BD 15
        play(game, 2, {"Ana": 1, "Ben": 2, "Cleo": 3, "Dan": 4}),  # AC 4, BD 6
    ]
    state = game_state(game, results)
    assert [(line.name, line.total, line.place) for line in state.team_standings] == [
        ("Ana & Cleo", 4, 1),
        ("Ben & Dan", 21, 2),
    ]
    assert state.winners == ("Ana & Cleo",)
    # Individual standings are still shown: Ana is first on her own.
    assert state.standings[0].name == "Ana"


def test_team_tie_broken_by_team_zero_rounds():
    game = new_game(FOUR, GameRules(rounds=2), TEAMS)
    results = [
        play(game, 1, {"Ben": 10, "Cleo": 30, "Dan": 10}, out="Ana"),  # AC 0, BD 20
        play(game, 2, {"Ana": 15, "Cleo": 5, "Dan": 0}, out="Ben"),  # AC 20, BD 0
    ]
    state = game_state(game, results)
    # Both teams total 20 with one zero round; lowest non-zero round: 20 each: shared.
    assert [(line.name, line.place, line.decided_by) for line in state.team_standings] == [
        ("Ana & Cleo", 1, "shared"),
        ("Ben & Dan", 1, "shared"),
    ]
    assert state.winners == ("Ana & Cleo", "Ben & Dan")


# RULES.md section 9: the draw game.


def draw_game(target=100):
    return new_game(["A", "B", "C"], GameRules(game_type=GameType.DRAW, target=target))


def test_draw_game_state_before_the_first_hand():
    # RULES.md section 9: the holder of the highest double opens the first hand, not a seat.
    state = game_state(draw_game(), [])
    assert not state.finished
    assert (state.next_round, state.next_engine, state.next_opener) == (1, None, None)
    assert state.engines == ()


def test_draw_game_goes_on_until_a_total_reaches_the_target():
    game = draw_game()
    results = [play(game, 1, {"B": 30, "C": 30}, out="A")]  # A 60
    state = game_state(game, results)
    assert not state.finished
    assert state.next_round == 2
    assert state.next_opener == "B"  # the loser of the hand (first seat of the tied highest)
    assert state.winners == ()
    results.append(play(game, 2, {"A": 2, "B": 5, "C": 35}))  # blocked: A scores 3 + 33 = 36
    assert not game_state(game, results).finished
    results.append(play(game, 3, {"A": 1, "C": 3}, out="B"))  # B scores 4
    results.append(play(game, 4, {"B": 3, "C": 1}, out="A"))  # A 60 + 36 + 4 = 100
    state = game_state(game, results)
    assert state.finished
    assert state.next_round is None and state.next_opener is None
    assert [(line.name, line.total, line.place) for line in state.standings] == [
        ("A", 100, 1),
        ("B", 4, 2),
        ("C", 0, 3),
    ]
    assert state.winners == ("A",)


def test_draw_game_to_50():
    game = draw_game(target=50)
    results = [play(game, 1, {"B": 30, "C": 20}, out="A")]
    state = game_state(game, results)
    assert state.finished
    assert state.winners == ("A",)


def test_draw_game_ended_early_goes_to_the_highest_total():
    game = draw_game()
    results = [play(game, 1, {"A": 4, "C": 3}, out="B")]
    state = game_state(game, results, ended_early=True)
    assert state.finished
    assert state.winners == ("B",)


def test_example_10_1_missed_rounds_scored_0_are_not_zero_rounds():
    """RULES.md example 10.1: rule 0; Cy joins at round 3 and goes out in round 4. Cy's zero
    rounds: 1 (round 4), not 3."""
    from dataclasses import replace

    from scorekeeper.core import HandResult, LateRule, late_scores

    two = new_game(["Ana", "Ben"])
    early = [play(two, 1, {"Ben": 7}, out="Ana"), play(two, 2, {"Ana": 9}, out="Ben")]
    missed = late_scores(LateRule.ZERO, [list(r.scores.values()) for r in early])
    assert missed == [0, 0]
    three = new_game(["Ana", "Ben", "Cy"])
    results = [
        replace(r, hands=(*r.hands, HandResult("Cy", 0, 0, score, False, missed=True)))
        for r, score in zip(early, missed, strict=True)
    ]
    results.append(play(three, 3, {"Ben": 4, "Cy": 6}, out="Ana"))
    results.append(play(three, 4, {"Ana": 5, "Ben": 3}, out="Cy"))
    cy = next(line for line in game_state(three, results).standings if line.name == "Cy")
    assert (cy.rounds, cy.zero_rounds) == ((0, 0, 6, 0), 1)


def test_a_missed_round_does_not_win_the_zero_round_tie_break():
    """Ana missed round 1 (scored 0 by rule 0); she and Ben both total 10. Ben's two zero rounds
    beat Ana's one: counting her missed round would have made them share first."""
    from dataclasses import replace

    game = new_game(["Ana", "Ben"])
    first = play(game, 1, {"Ana": 0}, out="Ben")
    first = replace(first, hands=(replace(first.hands[0], missed=True), first.hands[1]))
    results = [first, play(game, 2, {"Ana": 10}, out="Ben"), play(game, 3, {"Ben": 10}, out="Ana")]
    lines = game_state(game, results).standings
    assert [(line.name, line.place, line.zero_rounds, line.decided_by.value) for line in lines] == [
        ("Ben", 1, 2, "zero_rounds"),
        ("Ana", 2, 1, "zero_rounds"),
    ]


def test_a_round_a_partner_went_out_is_a_zero_round_for_the_team():
    game = new_game(FOUR, GameRules(), TEAMS)
    # RULES.md example 6.1: Ana goes out, Cleo holds 30; Ben 10, Dan 5.
    state = game_state(game, [play(game, 1, {"Ben": 10, "Cleo": 30, "Dan": 5}, out="Ana")])
    lines = {line.name: line for line in state.team_standings}
    assert (lines["Ana & Cleo"].total, lines["Ana & Cleo"].zero_rounds) == (0, 1)
    assert (lines["Ben & Dan"].total, lines["Ben & Dan"].zero_rounds) == (15, 0)
    # Cleo's own line keeps her 30: she did not score 0 herself.
    assert {line.name: line.zero_rounds for line in state.standings}["Cleo"] == 0
