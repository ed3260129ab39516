"""API route for a player's own hand (issue 33): each phone at the table sends its hand for the
current round with the game's table token; the scorer's round form shows it until the round is
saved (services/games/sent_hands.py). Nothing counts until then."""

from __future__ import annotations

from flask import Response
from flask_babel import gettext as _

from scorekeeper import core
from scorekeeper.api import bp, schemas, serialise
from scorekeeper.api.contract import (
    BAD_BODY,
    GAME_SECURITY,
    INVALID_BODY,
    NOT_FOUND,
    UNAUTHORIZED,
    Answer,
    Invalid,
    field_error,
    operation,
    read,
)
from scorekeeper.api.views.common import GAME, ApiError, as_problems, game_for_hands, refuse
from scorekeeper.services import games as game_service
from scorekeeper.web import limits
from scorekeeper.web.responses import json_response


@bp.post(f"/games/{GAME}/hands")
@operation(
    "Send one player's hand for the current round (table link)",
    {
        201: Answer(
            "Kept for the scorer's round form (replacing a hand the player sent before): it "
            "counts once the scorer saves the round.",
            (schemas.SentHand,),
        ),
        400: BAD_BODY,
        401: UNAUTHORIZED,
        403: Answer(
            "Not the game's table token nor its edit token (a view token only reads); or a club "
            "game whose table links are off.",
            (schemas.Error,),
        ),
        404: NOT_FOUND,
        409: Answer(
            "The round is not the one being played (already saved, or not begun), or the game "
            "is over: nothing was sent.",
            (schemas.Error,),
        ),
        422: INVALID_BODY,
    },
    body=schemas.HandSent,
    security=GAME_SECURITY,
)
@limits.round_writes
def send_hand(game_id: int) -> Response:
    """Keep one player's hand for the current round: pips or tiles, checked by the rules as the
    round form checks them (tiles from the set, not the engine, not in two hands)."""
    game = game_for_hands(game_id)
    sent = read(schemas.HandSent)
    if (sent.pips is None) == (sent.tiles is None):
        message = _("Send the pips or the tiles of the hand, not both.")
        raise Invalid([field_error("pips", message, code="hand_pips_or_tiles")])
    hand = (
        core.HandEntry(tiles=sent.tiles)
        if sent.tiles is not None
        else core.HandEntry(pips=str(sent.pips))
    )
    try:
        line = game_service.send_hand(game, sent.round, sent.player, hand)
    except game_service.NotThisRound as refused:
        template, values = refused.words
        raise refuse(409, _(template, **values)) from None
    except game_service.HandRefused as refused:
        raise ApiError(422, serialise.errors(as_problems(refused.problems))) from None
    return json_response(serialise.sent_hand(line), 201)
