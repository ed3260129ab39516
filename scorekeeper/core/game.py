"""Where a game stands after its rounds: next round, engine and opener, finished, standings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .engines import engines
from .rounds import RoundResult, draw_next_opener, team_round_score
from .setup import GameSetup
from .standings import Standing, standings, winners


@dataclass(frozen=True)
class GameState:
    """What the game page shows: the next round, the standings, and whether it is over."""

    rounds_played: int
    finished: bool
    next_round: int | None
    next_engine: int | None
    next_opener: str | None
    standings: tuple[Standing, ...]
    team_standings: tuple[Standing, ...]
    winners: tuple[str, ...]
    engines: tuple[int, ...]
    # False when all but one player have left: the game can only be ended (RULES.md 11).
    can_play: bool = True


def round_scores(game: GameSetup, results: Sequence[RoundResult]) -> dict[str, list[int]]:
    """Each player's round scores, in seating order."""
    return {player: [result.score(player) for result in results] for player in game.players}


def missed_rounds(game: GameSetup, results: Sequence[RoundResult]) -> dict[str, set[int]]:
    """Each player's missed rounds (late arrival or leaver), as indexes into `results`
    (RULES.md sections 10 and 11)."""
    missed: dict[str, set[int]] = {}
    for index, result in enumerate(results):
        for hand in result.hands:
            if hand.missed:
                missed.setdefault(hand.player, set()).add(index)
    return missed


def team_scores(game: GameSetup, results: Sequence[RoundResult]) -> dict[str, list[int]]:
    """Each team's round scores (RULES.md section 6)."""
    return {
        game.team_name(team): [team_round_score(result, team) for result in results]
        for team in game.teams
    }


def game_state(
    game: GameSetup, results: Sequence[RoundResult], *, ended_early: bool = False
) -> GameState:
    """Everything that follows from a game's rounds so far."""
    schedule = engines(game.rules)
    played = len(results)
    player_lines = standings(
        round_scores(game, results),
        higher_wins=game.is_draw,
        missed=missed_rounds(game, results),
        left_after=dict(game.left_after),
    )
    team_lines = standings(team_scores(game, results)) if game.teams else []
    present = game.present_in(played + 1)
    next_opener: str | None
    if game.is_draw:
        reached = [line for line in player_lines if line.total >= game.rules.target]
        finished = ended_early or bool(reached)
        next_opener = draw_next_opener(present, results[-1] if results else None)
        next_engine = None
    else:
        finished = ended_early or played >= len(schedule)
        next_engine = None if finished else schedule[played]
        away = game.away_in(played + 1)
        next_opener = None if finished else seat_opener(game.players, played + 1, away)
    if not (finished and played):
        top: tuple[str, ...] = ()  # nobody wins a game that ended before its first round
    elif team_lines and not game.is_draw:
        top = tuple(winners(team_lines))
    else:
        top = tuple(winners(player_lines))
    return GameState(
        rounds_played=played,
        finished=finished,
        next_round=None if finished else played + 1,
        next_engine=next_engine,
        next_opener=None if finished else next_opener,
        standings=tuple(player_lines),
        team_standings=tuple(team_lines),
        winners=top,
        engines=tuple(schedule),
        can_play=len(present) >= 2,
    )


def seat_opener(players: Sequence[str], round_number: int, away: frozenset[str]) -> str:
    """Who opens a Mexican Train round: the seats take turns clockwise (Galt 1994); a player
    who has left is passed over, to the next seat still at the table."""
    start = (round_number - 1) % len(players)
    turn = [players[(start + step) % len(players)] for step in range(len(players))]
    return next((name for name in turn if name not in away), turn[0])
