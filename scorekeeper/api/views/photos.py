"""API route for counting a hand from a photo: the round sheet's reader (services/photos.py),
answered as JSON. Nothing is stored: not the photo, not the reading."""

from __future__ import annotations

from flask import Response, current_app, request

from scorekeeper.api import bp, schemas
from scorekeeper.api.contract import (
    FORBIDDEN,
    GAME_SECURITY,
    NOT_FOUND,
    UNAUTHORIZED,
    Answer,
    operation,
)
from scorekeeper.api.views.common import GAME, game_for_hands, refuse
from scorekeeper.services import photos as photo_service
from scorekeeper.web import limits, uploads
from scorekeeper.web.responses import json_response


@bp.post(f"/games/{GAME}/photos")
@operation(
    "Count a hand from a photo",
    {
        200: Answer(
            "The tiles found, their total, and advice for a better photo.", (schemas.PhotoReading,)
        ),  # fmt: skip
        400: Answer("No photo in the multipart field `photo`, or an empty one.", (schemas.Error,)),
        401: UNAUTHORIZED,
        403: FORBIDDEN,
        404: NOT_FOUND,
        413: Answer("The photo is larger than 15 MB.", (schemas.Error,)),
        415: Answer("The file is not a picture (JPEG, PNG, WebP or HEIC).", (schemas.Error,)),
        422: Answer(
            "The picture cannot be read: cut short, damaged, over 24 megapixels, under 32 pixels "
            "on a side, or more than 10 times longer than wide.",
            (schemas.Error,),
        ),  # fmt: skip
        503: Answer(
            "Too many photos are being read at once (or the database is busy): send it again "
            "after Retry-After seconds.",
            (schemas.Error,),
            ("Retry-After",),
        ),  # fmt: skip
    },
    body=schemas.PhotoUpload,
    security=GAME_SECURITY,
    media="multipart/form-data",
)
@limits.photo_reads
def read_photo(game_id: int) -> Response:
    """Read the tiles on a photo of one hand (edit or table token; club: scorer), for the
    game's set: each tile's two values, confidence and corners, the total, and advice. Nothing
    is stored; record the hand with the round as usual."""
    game = game_for_hands(game_id)
    limits.check_game_photo_read(game.id)
    max_bytes = current_app.config["PHOTO_MAX_BYTES"]
    try:
        data = uploads.hand_photo(request)
        reading = photo_service.read_hand(data, set_max=game.set_size, max_bytes=max_bytes)
    except photo_service.PhotoRefused as refusal:
        headers = None if refusal.retry_after is None else {"Retry-After": str(refusal.retry_after)}
        raise refuse(refusal.status, refusal.message, headers) from None
    return json_response(schemas.PhotoReading.model_validate(photo_service.answer(reading)))
