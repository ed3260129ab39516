"""core.check_hands: a hand a player sends before the round is saved, checked by the round's
own rules, alone and against the hands already sent (RULES.md section 8)."""

from __future__ import annotations

import pytest

from scorekeeper import core

SETUP = core.new_game(("Ana", "Ben", "Cy"), core.GameRules())


def codes(hands: dict[str, core.HandEntry], player: str, number: int = 1) -> list[str]:
    return [problem.code for problem in core.check_hands(SETUP, number, hands, player).errors]


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        (core.HandEntry(pips="12"), []),
        (core.HandEntry(pips="0"), []),  # went out
        (core.HandEntry(pips="x"), ["pips_not_whole"]),
        (core.HandEntry(pips="-3"), ["pips_negative"]),
        (core.HandEntry(pips=""), ["pips_missing"]),
        (core.HandEntry(pips="9999"), ["hand_too_big"]),
        (core.HandEntry(tiles=["6-4", "3-2"]), []),
        (core.HandEntry(tiles=["12-12"]), ["tile_engine"]),  # round 1's engine
        (core.HandEntry(tiles=["13-1"]), ["tile_not_in_set"]),
        (core.HandEntry(tiles=["6-4", "4-6"]), ["tile_twice_hand"]),
        (core.HandEntry(tiles=["six-four"]), ["tile_unreadable"]),
    ],
)
def test_a_hand_alone(hand, expected):
    assert codes({"Ben": hand}, "Ben") == expected


def test_a_tile_another_player_sent_is_the_senders_mistake_only():
    hands = {"Ana": core.HandEntry(tiles=["6-4"]), "Ben": core.HandEntry(tiles=["4-6", "1-0"])}
    check = core.check_hands(SETUP, 1, hands, "Ben")
    [problem] = check.errors
    assert (problem.code, problem.player, problem.params["first"]) == (
        "tile_two_hands",
        "Ben",
        "Ana",
    )
    assert codes({"Ana": hands["Ana"]}, "Ana") == []  # alone, Ana's hand is fine


def test_the_engine_moves_with_the_round_and_a_stranger_is_refused():
    assert codes({"Cy": core.HandEntry(tiles=["12-12"])}, "Cy", number=2) == []
    assert codes({"Zed": core.HandEntry(pips="3")}, "Zed") == ["hand_unknown"]


def test_a_stranger_is_told_by_name_beside_the_players():
    long_name = "Z" * 60
    [problem] = core.check_hands(SETUP, 1, {long_name: core.HandEntry(pips="3")}, long_name).errors
    assert problem.code == "hand_unknown" and problem.field == "players"
    assert problem.template == "%(name)s is not playing in this game."
    assert problem.params == {"name": "Z" * 40}
    assert problem.message == "Z" * 40 + " is not playing in this game."


def test_an_unlikely_hand_asks_its_own_player_only():
    """A hand worth more than the hand's best tiles is a warning (a typo?) to the player who sent
    it; another player's unlikely hand is not this player's to confirm."""
    hands = {"Ana": core.HandEntry(pips="300"), "Ben": core.HandEntry(pips="12")}
    ana = core.check_hands(SETUP, 1, hands, "Ana")
    assert ana.errors == ()
    assert [(w.code, w.player) for w in ana.warnings] == [("hand_unlikely", "Ana")]
    assert core.check_hands(SETUP, 1, hands, "Ben").warnings == ()
