"""API routes for rounds: read one, record the next, correct one, delete the last."""

from __future__ import annotations

from flask import Response, url_for
from flask_babel import gettext as _

from scorekeeper.api import bp, schemas, serialise
from scorekeeper.api.contract import (
    BAD_BODY,
    FORBIDDEN,
    GAME_SECURITY,
    INVALID_ROUND,
    NEW_ROUND_REFUSED,
    NOT_FOUND,
    STALE,
    UNAUTHORIZED,
    WRITES,
    Answer,
    field_error,
    operation,
    read,
)
from scorekeeper.api.views.common import (
    API_DEVICE,
    GAME,
    ROUND,
    TO_CHANGE,
    TO_DELETE,
    TO_GAME,
    TO_NEXT_ROUND,
    TO_ROUND,
    ApiError,
    expected_version,
    game_for,
    idempotency_key,
    refuse,
    saved_or_raise,
    stale_refusal,
    with_game,
)
from scorekeeper.models import etag_of
from scorekeeper.services import games as game_service
from scorekeeper.web import limits
from scorekeeper.web.etags import ETAG_HEADER, IF_MATCH_HEADER


@bp.get(f"/games/{GAME}/rounds/{ROUND}")
@operation(
    "Read one round, hand by hand",
    {
        200: Answer("The round.", (schemas.Round,), (ETAG_HEADER,), TO_CHANGE),
        401: UNAUTHORIZED,
        403: FORBIDDEN,
        404: NOT_FOUND,
    },
    security=GAME_SECURITY,
)
def round_(game_id: int, number: int) -> Response:
    """One recorded round, hand by hand (view or edit token; club: viewer)."""
    found = game_for(game_id, edit=False)
    result = game_service.snapshot_of(found).result(number)
    if result is None:
        raise refuse(404, _("Round %(number)s is not recorded.", number=number))
    return with_game(serialise.round_(number, result), found)


ROUND_WRITE = {
    400: BAD_BODY,
    401: UNAUTHORIZED,
    403: FORBIDDEN,
    404: NOT_FOUND,
    412: STALE,
    422: INVALID_ROUND,
    **WRITES,
}


@bp.post(f"/games/{GAME}/rounds")
@operation(
    "Record the next round",
    {
        201: Answer(
            "Saved: the round, hand by hand.", (schemas.Round,), (ETAG_HEADER, "Location"), TO_ROUND
        ),
        409: Answer(
            "Nothing was saved: the game changed meanwhile (no If-Match sent, or `number` is no "
            "longer the next round: the game as it is now), or the game is over.",
            (schemas.Stale, schemas.Error),
        ),
        **ROUND_WRITE,
        422: NEW_ROUND_REFUSED,
    },
    body=schemas.RoundEntry,
    security=GAME_SECURITY,
    parameters=(IF_MATCH_HEADER, "Idempotency-Key"),
)
@limits.round_writes
def record_round(game_id: int) -> Response:
    """Record the next round (edit token; club: scorer)."""
    found = game_for(game_id, edit=True)
    key = idempotency_key()
    wanted = read(schemas.RoundEntry)  # a bad request is refused before its precondition
    expected = expected_version(found)
    try:
        outcome = game_service.record_round(
            found,
            wanted.to_entry(),
            number=wanted.number,
            confirm=wanted.confirm,
            device=API_DEVICE,
            expected_version=expected,
            key=key,
        )
    except game_service.StaleGame:
        raise stale_refusal(game_id, precondition=expected is not None) from None
    except game_service.GameOver:
        raise refuse(409, _("This game is over: no more rounds can be recorded.")) from None
    except game_service.KeyReused as reused:
        message = _(
            "This Idempotency-Key was already used for round %(number)s, with another body: "
            "nothing was saved. Send this round with a new key.",
            number=reused.number,
        )
        raise refuse(422, message) from None
    saved_or_raise(outcome)
    assert outcome.number is not None
    number = outcome.number
    if outcome.check.result is None:  # a repeat of a write whose round was undone since
        raise refuse(
            409, _("Round %(number)s was saved with this key, then undone.", number=number)
        )
    location = url_for("api.round_", game_id=game_id, number=number, _external=True)
    body = serialise.round_(number, outcome.check.result)
    assert outcome.version is not None
    etag = etag_of(game_id, outcome.version, found.view_token)
    return with_game(body, found, 201, {"Location": location}, etag=etag)


@bp.put(f"/games/{GAME}/rounds/{ROUND}")
@operation(
    "Correct a recorded round",
    {
        200: Answer(
            "Saved: the corrected round, hand by hand.", (schemas.Round,), (ETAG_HEADER,), TO_DELETE
        ),
        409: Answer(
            "Nothing was saved: the game changed meanwhile (no If-Match sent).", (schemas.Stale,)
        ),
        **ROUND_WRITE,
    },
    body=schemas.RoundEntry,
    security=GAME_SECURITY,
    parameters=(IF_MATCH_HEADER,),
)
@limits.round_writes
def edit_round(game_id: int, number: int) -> Response:
    """Correct a recorded round (edit token; club: scorer)."""
    found = game_for(game_id, edit=True)
    wanted = read(schemas.RoundEntry)  # a bad request is refused before its precondition
    expected = expected_version(found)
    if wanted.number is not None and wanted.number != number:
        message = _("This is round %(number)s: number must match it.", number=number)
        error = field_error("number", message, code="number_mismatch")
        raise ApiError(422, serialise.errors([error]))
    try:
        outcome = game_service.edit_round(
            found,
            number,
            wanted.to_entry(),
            confirm=wanted.confirm,
            device=API_DEVICE,
            expected_version=expected,
        )
    except LookupError:
        raise refuse(404, _("Round %(number)s is not recorded.", number=number)) from None
    except game_service.StaleGame:
        raise stale_refusal(game_id, precondition=expected is not None) from None
    saved_or_raise(outcome)
    # The round as stored, read back: it includes the late arrivals' hands the edit scored
    # again (outcome.check.result holds only the hands of those who played it).
    stored = game_service.snapshot_of(found).result(number)
    assert stored is not None
    return with_game(serialise.round_(number, stored), found)


@bp.delete(f"/games/{GAME}/rounds/{ROUND}")
@operation(
    "Delete the last round",
    {
        200: Answer(
            "Deleted: the game as it is now.",
            (schemas.Game,),
            (ETAG_HEADER,),
            {**TO_GAME, **TO_NEXT_ROUND},
        ),
        401: UNAUTHORIZED,
        403: FORBIDDEN,
        404: NOT_FOUND,
        409: Answer(
            "Nothing was deleted: not the last round, or the game changed meanwhile (no "
            "If-Match sent: the game as it is now).",
            (schemas.Stale, schemas.Error),
        ),
        412: STALE,
    },
    security=GAME_SECURITY,
    parameters=(IF_MATCH_HEADER,),
)
@limits.round_writes
def delete_round(game_id: int, number: int) -> Response:
    """Remove the last recorded round (edit token; club: scorer); answers with the game now."""
    found = game_for(game_id, edit=True)
    expected = expected_version(found)
    numbers = game_service.snapshot_of(found).numbers
    last = numbers[-1] if numbers else 0
    if not 1 <= number <= last:
        raise refuse(404, _("Round %(number)s is not recorded.", number=number))
    if number != last:
        raise refuse(409, _("Only the last round (round %(last)s) can be deleted.", last=last))
    try:
        game_service.undo_last_round(
            found, device=API_DEVICE, expected_version=expected, number=number
        )
    except game_service.StaleGame:
        raise stale_refusal(game_id, precondition=expected is not None) from None
    return with_game(serialise.game(found), found)
