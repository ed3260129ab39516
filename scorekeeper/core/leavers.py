"""A player who leaves a game before it ends, and may come back (RULES.md section 11).

From the round after they leave, a player's hand is not asked for: in Mexican Train each round
they miss scores the highest score of that round (penalties of others not copied), whatever a
club's late-arrival rule; in the draw game they hold no hand and score nothing. Missed rounds
take no part in the tie-breakers. A leaver is a seat like any other otherwise: the setup lists
who is away (`GameSetup.left_after`), and the rounds mark the hands they missed (`away`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .problems import N_, Problem
from .rounds import HandResult, RoundCheck, RoundEntry, RoundResult
from .rounds import check_round as check_present
from .setup import GameSetup


def check_round(game: GameSetup, round_number: int, entry: RoundEntry) -> RoundCheck:
    """Check and score a round (RULES.md section 8) as the players still at the table played
    it; the players who have left get their missed hand (section 11). Whatever the entry says
    for a player who has left is not read: their score follows from the others'."""
    away = game.away_in(round_number)
    if not away:
        return check_present(game, round_number, entry)
    present = game.present_in(round_number)
    if len(present) < 2:
        return RoundCheck(errors=(only_one_left(present),))
    table = GameSetup(present, game.rules, game.teams)
    hands = {name: hand for name, hand in entry.hands.items() if name not in away}
    check = check_present(table, round_number, replace(entry, hands=hands))
    if check.result is None:
        return check
    return replace(check, result=with_missed(game, check.result, away))


def missed_score(result: RoundResult, draw: bool) -> int:
    """What a leaver scores for a round they missed: the highest score of those who played it,
    their penalties left out (Mexican Train); nothing in the draw game, where hands are won."""
    if draw:
        return 0
    played = [hand.score - hand.penalty for hand in result.hands if not hand.missed]
    return max(played, default=0)


def missed_hand(player: str, score: int) -> HandResult:
    """A leaver's line of a round they missed: no hand held, the score the rule gives."""
    return HandResult(player, 0, 0, score, False, None, missed=True, away=True)


def with_missed(game: GameSetup, result: RoundResult, away: frozenset[str]) -> RoundResult:
    """A round scored for the players at the table, with a missed hand for each of `away`,
    every line in seating order."""
    score = missed_score(result, game.is_draw)
    lines = {hand.player: hand for hand in result.hands}
    lines.update({name: missed_hand(name, score) for name in away})
    hands = tuple(lines[name] for name in game.players if name in lines)
    return replace(result, hands=hands)


def only_one_left(present: Sequence[str]) -> Problem:
    """Why no round can be recorded once all but one player have left."""
    return Problem(
        "only_one_left",
        N_("Only %(name)s is still playing: the game can only be ended."),
        {"name": present[0] if present else "-"},
    )


def leave_problem(game: GameSetup, player: str, rounds_played: int) -> Problem | None:
    """Why `player` cannot leave now (partnership game, not a player, already left, no round
    played yet, nobody else left to play with), or None."""
    if player not in game.players:
        return Problem(
            "leave_unknown", N_("%(name)s is not playing in this game."), {"name": player}
        )
    if game.teams:
        return Problem(
            "leave_teams",
            N_(
                "A player cannot leave a partnership game: the teams are set. End the game instead."
            ),
        )
    if player in game.away:
        return Problem("leave_twice", N_("%(name)s has already left the game."), {"name": player})
    if rounds_played < 1:
        return Problem(
            "leave_before_start",
            N_("No round has been played yet: start a new game without %(name)s instead."),
            {"name": player},
        )
    if len(game.present) <= 1:
        return only_one_left(game.present)
    return None


def come_back_problem(game: GameSetup, player: str) -> Problem | None:
    """Why `player` cannot come back (has not left, or left a draw game: that is final)."""
    if player not in game.away:
        return Problem("back_not_left", N_("%(name)s has not left the game."), {"name": player})
    if game.is_draw:
        return Problem(
            "back_draw",
            N_("%(name)s left a draw game: a player who leaves it is out for good."),
            {"name": player},
        )
    return None


def leave(game: GameSetup, player: str, rounds_played: int) -> GameSetup:
    """The game with `player` gone after round `rounds_played` (check leave_problem first)."""
    return replace(game, left_after=(*game.left_after, (player, rounds_played)))


def come_back(game: GameSetup, player: str) -> GameSetup:
    """The game with `player` back at the table from the next round."""
    return replace(game, left_after=tuple(p for p in game.left_after if p[0] != player))
