"""Games and rounds as plain JSON-ready dicts (the API's bodies; the share page may poll them)."""

from __future__ import annotations

from typing import Any

from scorekeeper import core
from scorekeeper.models import Game
from scorekeeper.services import games as game_service
from scorekeeper.services.games import snapshot_of


def penalty_dict(penalty: core.Penalty) -> dict[str, Any]:
    """A scored penalty."""
    return {
        "player": penalty.player,
        "kind": penalty.kind.value,
        "points": penalty.points,
        "reason": penalty.reason,
    }


def round_dict(number: int, result: core.RoundResult) -> dict[str, Any]:
    """One round as the round resource: every hand's pips, penalty, score and tiles."""
    return {
        "number": number,
        "engine": result.engine,
        "out": result.out,
        "blocked": result.blocked,
        "hands": [
            {
                "player": hand.player,
                "pips": hand.pips,
                "penalty": hand.penalty,
                "score": hand.score,
                "went_out": hand.went_out,
                "tiles": None if hand.tiles is None else [str(tile) for tile in hand.tiles],
            }
            for hand in result.hands
        ],
        "penalties": [penalty_dict(penalty) for penalty in result.penalties],
    }


def round_line(number: int, result: core.RoundResult) -> dict[str, Any]:
    """One round as a line of the game's score sheet: scores and pips by player."""
    return {
        "number": number,
        "engine": result.engine,
        "out": result.out,
        "blocked": result.blocked,
        "scores": {hand.player: hand.score for hand in result.hands},
        "pips": {hand.player: hand.pips for hand in result.hands},
        "penalties": [penalty_dict(penalty) for penalty in result.penalties],
    }


def standing_dict(line: core.Standing) -> dict[str, Any]:
    """One line of the standings, with the rule that decided its place."""
    return {
        "place": line.place,
        "shared": line.shared,
        "name": line.name,
        "total": line.total,
        "zero_rounds": line.zero_rounds,
        "decided_by": line.decided_by.value,
    }


def options_dict(rules: core.GameRules) -> dict[str, Any]:
    """The game's options, with every default filled in (the keys POST /games takes)."""
    return {
        "set": rules.set_size,
        "blank_scoring": rules.blank_scoring.value,
        "start_double": rules.start_double,
        "rounds": rules.rounds,
        "order": rules.order.value,
        "hand_size": rules.hand_size,
        "target": rules.target,
        "house_rules": {
            "open_train_points": rules.house_rules.open_train_points,
            "strategic_error": rules.house_rules.strategic_error,
            "adjustments": rules.house_rules.adjustments,
        },
    }


def game_dict(game: Game) -> dict[str, Any]:
    """The whole game: players, options, rounds, standings and what comes next."""
    snapshot = snapshot_of(game)
    setup, results, state = snapshot.setup, snapshot.results, snapshot.state
    players = [standing_dict(line) for line in state.standings]
    teams = [standing_dict(line) for line in state.team_standings]
    return {
        "id": game.id,
        "game_type": setup.rules.game_type.value,
        "players": list(setup.players),
        "teams": [list(team) for team in setup.teams],
        "options": options_dict(setup.rules),
        "engines": list(state.engines),
        "rounds": [
            round_line(number, result)
            for number, result in zip(snapshot.numbers, results, strict=True)
        ],
        # Partners are ranked as teams (RULES.md 6); player_standings keeps the individuals.
        "standings": teams if setup.teams and not setup.is_draw else players,
        "player_standings": players,
        "finished": state.finished,
        "next_round": state.next_round,
        "next_engine": state.next_engine,
        "next_opener": state.next_opener,
        "winner": state.winners[0] if len(state.winners) == 1 else None,
        "winners": list(state.winners),
    }


def created_dict(game: Game, edit_url: str | None, view_url: str | None) -> dict[str, Any]:
    """The answer to POST /games: the game's id, its two tokens and links, and its engines.

    A club game is opened with members' personal tokens, never with game tokens: those are null,
    and the answer says which club it is in."""
    club_game = game.club_id is not None
    body = {
        "id": game.id,
        "edit_token": None if club_game else game.edit_token,
        "view_token": None if club_game else game.view_token,
        "engines": list(game_service.state_of(game).engines),
        "edit_url": None if club_game else edit_url,
        "view_url": None if club_game else view_url,
    }
    if club_game:
        body["club_id"] = game.club_id
    return body
