"""Every API answer built as its model of api/schemas.py: the model that describes a body in the
OpenAPI document is the one that writes it (`model_dump(mode="json")`), so the two cannot drift.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC
from typing import Any

from scorekeeper import core
from scorekeeper.api import schemas
from scorekeeper.models import Game
from scorekeeper.services import games as game_service
from scorekeeper.services.games import snapshot_of


def penalty(scored: core.Penalty) -> schemas.Penalty:
    """A scored penalty."""
    return schemas.Penalty(
        player=scored.player, kind=scored.kind.value, points=scored.points, reason=scored.reason
    )


def _round_fields(number: int, result: core.RoundResult) -> dict[str, Any]:
    """What a round and a line of the score sheet both say: its number, engine, who went out,
    whether it was blocked, and its penalties."""
    return {
        "number": number,
        "engine": result.engine,
        "out": result.out,
        "blocked": result.blocked,
        "penalties": [penalty(scored) for scored in result.penalties],
    }


def round_(number: int, result: core.RoundResult) -> schemas.Round:
    """One round as the round resource: every hand's pips, penalty, score and tiles."""
    hands = [
        schemas.Hand(
            player=hand.player,
            pips=hand.pips,
            penalty=hand.penalty,
            score=hand.score,
            went_out=hand.went_out,
            tiles=None if hand.tiles is None else [str(tile) for tile in hand.tiles],
            away=hand.away,
        )
        for hand in result.hands
    ]
    return schemas.Round(**_round_fields(number, result), hands=hands)


def round_line(number: int, result: core.RoundResult) -> schemas.RoundLine:
    """One round as a line of the game's score sheet: scores and pips by player."""
    return schemas.RoundLine(
        **_round_fields(number, result),
        scores={hand.player: hand.score for hand in result.hands},
        pips={hand.player: hand.pips for hand in result.hands},
    )


def standing(line: core.Standing) -> schemas.Standing:
    """One line of the standings, with the rule that decided its place."""
    return schemas.Standing(
        place=line.place,
        shared=line.shared,
        name=line.name,
        total=line.total,
        zero_rounds=line.zero_rounds,
        decided_by=line.decided_by.value,
        left_after=line.left_after,
    )


def options(rules: core.GameRules) -> schemas.Options:
    """The game's options, with every default filled in (the keys POST /games takes)."""
    return schemas.Options(
        set=rules.set_size,
        blank_scoring=rules.blank_scoring.value,
        start_double=rules.start_double,
        rounds=rules.rounds,
        order=rules.order.value,
        hand_size=rules.hand_size,
        target=rules.target,
        house_rules=schemas.HouseRulesChosen(**core.house_rule_values(rules.house_rules)),
    )


def game(found: Any) -> schemas.Game:
    """The whole game: players, options, rounds, standings and what comes next."""
    snapshot = snapshot_of(found)
    setup, results, state = snapshot.setup, snapshot.results, snapshot.state
    players = [standing(line) for line in state.standings]
    teams = [standing(line) for line in state.team_standings]
    return schemas.Game(
        id=found.id,
        game_type=setup.rules.game_type.value,
        players=list(setup.players),
        teams=[list(team) for team in setup.teams],
        options=options(setup.rules),
        engines=list(state.engines),
        rounds=[
            round_line(number, result)
            for number, result in zip(snapshot.numbers, results, strict=True)
        ],
        # Partners are ranked as teams (RULES.md 6); player_standings keeps the individuals.
        standings=teams if setup.teams and not setup.is_draw else players,
        player_standings=players,
        finished=state.finished,
        next_round=state.next_round,
        next_engine=state.next_engine,
        next_opener=state.next_opener,
        can_play=state.can_play,
        winner=state.winners[0] if len(state.winners) == 1 else None,
        winners=list(state.winners),
    )


def sent_hand(line: game_service.SentLine) -> schemas.SentHand:
    """A hand a player sent for the current round."""
    return schemas.SentHand(
        round=line.round,
        player=line.player,
        pips=line.pips,
        tiles=None if line.tiles is None else list(line.tiles),
        sent_at=line.sent_at.replace(tzinfo=UTC),  # stored in UTC without its zone
    )


def scorer_game(found: Any, table_token: str | None, table_url: str | None) -> schemas.Game:
    """The whole game as its scorers read it: with the table link and the hands sent."""
    body = game(found)
    body.table_token, body.table_url = table_token, table_url
    body.sent_hands = [sent_hand(line) for line in game_service.sent_hands(found)]
    return body


def created(
    found: Game,
    edit_url: str | None,
    view_url: str | None,
    warnings: Iterable[schemas.Problem] = (),
    table_token: str | None = None,
    table_url: str | None = None,
) -> schemas.CreatedGame:
    """The answer to POST /games: the game's id, its two tokens and links, and its engines.

    A club game is opened with members' personal tokens, never with game tokens: those are null,
    and the answer says which club it is in (a quick game's answer has no club_id)."""
    club_game = found.club_id is not None
    return schemas.CreatedGame(
        id=found.id,
        edit_token=None if club_game else found.edit_token,
        view_token=None if club_game else found.view_token,
        engines=list(game_service.state_of(found).engines),
        edit_url=None if club_game else edit_url,
        view_url=None if club_game else view_url,
        club_id=found.club_id,
        seats=seats(found) if club_game else None,
        table_token=table_token,
        table_url=table_url,
        warnings=list(warnings),
    )


def seats(found: Game) -> list[schemas.Seat]:
    """A club game's seats in order: each one's roster player, or a guest."""
    return [
        schemas.Seat(
            name=seat.name, player_id=seat.roster_player_id, guest=seat.roster_player_id is None
        )
        for seat in sorted(found.players, key=lambda seat: seat.seat)
    ]


def stale(message: str, found: Game) -> schemas.Stale:
    """Someone saved first: the message and the game as it is now."""
    return schemas.Stale(error=message, game=game(found))


def errors(problems: Iterable[schemas.Problem]) -> schemas.Errors:
    """Nothing was saved: every field that breaks a rule or has the wrong shape."""
    return schemas.Errors(errors=list(problems))


def warnings(problems: Iterable[schemas.Problem]) -> schemas.Warnings:
    """Nothing was saved: values to confirm."""
    return schemas.Warnings(warnings=list(problems))
