"""API routes for a player who leaves the table and comes back (RULES.md section 11)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from flask import Response

from scorekeeper import core
from scorekeeper.api import bp, schemas, serialise
from scorekeeper.api.contract import (
    BAD_BODY,
    FORBIDDEN,
    GAME_SECURITY,
    INVALID_BODY,
    NOT_FOUND,
    STALE,
    UNAUTHORIZED,
    WRITES,
    Answer,
    operation,
    read,
)
from scorekeeper.api.views.common import (
    API_DEVICE,
    GAME,
    ApiError,
    as_problems,
    expected_version,
    game_for,
    stale_refusal,
    with_game,
)
from scorekeeper.services import games as game_service
from scorekeeper.web import limits
from scorekeeper.web.etags import ETAG_HEADER, IF_MATCH_HEADER

SEAT_CHANGE = {
    200: Answer("Done: the game as it is now.", (schemas.Game,), (ETAG_HEADER,)),
    400: BAD_BODY,
    401: UNAUTHORIZED,
    403: FORBIDDEN,
    404: NOT_FOUND,
    409: Answer(
        "Nothing was changed: the game changed meanwhile (no If-Match sent).", (schemas.Stale,)
    ),
    412: STALE,
    422: INVALID_BODY,
    **WRITES,
}


@bp.post(f"/games/{GAME}/leave")
@operation(
    "A player leaves the game",
    SEAT_CHANGE,
    body=schemas.SeatChange,
    security=GAME_SECURITY,
    parameters=(IF_MATCH_HEADER,),
)
@limits.round_writes
def leave(game_id: int) -> Response:
    """A player leaves after the last round recorded (edit token; club: scorer): from the next
    round their hand is not sent; each round they miss scores the round's highest score (the
    draw game: nothing, and they rank after everyone who stayed). Not in a partnership game."""
    return _seat_change(game_id, game_service.leave)


@bp.post(f"/games/{GAME}/back")
@operation(
    "A player who left comes back",
    SEAT_CHANGE,
    body=schemas.SeatChange,
    security=GAME_SECURITY,
    parameters=(IF_MATCH_HEADER,),
)
@limits.round_writes
def come_back(game_id: int) -> Response:
    """A player who left plays again from the next round (edit token; club: scorer); the rounds
    they missed stay as scored. Not in the draw game: a player who leaves it is out."""
    return _seat_change(game_id, game_service.come_back)


def _seat_change(game_id: int, change: Callable[..., int]) -> Response:
    found = game_for(game_id, edit=True)
    wanted = read(schemas.SeatChange)
    expected = expected_version(found)
    try:
        change(found, wanted.player, device=API_DEVICE, expected_version=expected)
    except core.RuleError as error:
        problems = [
            problem if problem.field else replace(problem, field="player")
            for problem in error.problems
        ]
        raise ApiError(422, serialise.errors(as_problems(problems))) from None
    except game_service.StaleGame:
        raise stale_refusal(game_id, precondition=expected is not None) from None
    return with_game(serialise.game(found), found)
