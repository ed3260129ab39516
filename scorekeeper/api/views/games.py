"""API routes: read JSON, call one game service, answer with JSON, ETag and the right status.

Two kinds of bearer token: a quick game's own edit or view token, and an account's personal
token ("sk_..."), which opens the games of the account's clubs as its role there allows. A
club game never opens with a game token, and a quick game never with a personal token.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Response, current_app, jsonify, request, url_for
from flask_babel import gettext as _
from pydantic import BaseModel

from scorekeeper import core
from scorekeeper.access import club_game_access, may_score
from scorekeeper.api import bp, schemas, serialise
from scorekeeper.api.contract import (
    BAD_BODY,
    FORBIDDEN,
    GAME_SECURITY,
    INVALID_BODY,
    INVALID_ROUND,
    NEW_ROUND_REFUSED,
    NOT_FOUND,
    STALE,
    UNAUTHORIZED,
    WRITES,
    Answer,
    BadBody,
    Invalid,
    document,
    field_error,
    operation,
    problem_error,
    read,
)
from scorekeeper.forms import write_key
from scorekeeper.models import Game, User, etag_of
from scorekeeper.services import accounts as account_service
from scorekeeper.services import clubs as club_service
from scorekeeper.services import games as game_service
from scorekeeper.web import limits
from scorekeeper.web.etags import conditional, etag_for, tagged
from scorekeeper.web.responses import json_response, kept_text

# The history shows changes made through the API as coming from "api" (devices.device_label).
API_DEVICE = "api"
# Game ids are stored as 32-bit integers: a larger id in a URL is simply not found.
GAME = "<id:game_id>"
ROUND = "<id:number>"
# Methods that only read: they leave every table as it was (an API token's last use included).
READS = frozenset({"GET", "HEAD", "OPTIONS"})
# RFC 6750 b64token; anything else in the header is malformed.
_TOKEN = re.compile(r"[A-Za-z0-9._~+/-]{1,200}=*")


class ApiError(Exception):
    """Stop a request with a body (its answer model), a status and optional headers."""

    def __init__(self, status: int, body: BaseModel, headers: dict[str, str] | None = None):
        self.status = status
        self.body = body
        self.headers = headers or {}
        super().__init__(status)


@bp.errorhandler(ApiError)
def _api_error(error: ApiError) -> Response:
    response = json_response(error.body, error.status)
    for name, value in error.headers.items():
        response.headers[name] = value
    return response


@bp.errorhandler(BadBody)
def _bad_body(error: BadBody) -> Response:
    return json_response(schemas.Error(error=error.message), 400)


@bp.errorhandler(Invalid)
def _invalid(error: Invalid) -> Response:
    return json_response(serialise.errors(error.errors), 422)


def _problems(problems: tuple[core.Problem, ...] | list[core.Problem]) -> list[schemas.Problem]:
    return [problem_error(problem) for problem in problems]


def _with_game(
    body: BaseModel,
    game: Game,
    status: int = 200,
    headers: dict[str, str] | None = None,
    *,
    etag: str | None = None,
) -> Response:
    """A JSON response carrying the game's current ETag (`etag`: the one a save just made)."""
    response = tagged(json_response(body, status), etag_for(etag or game.etag, language=False))
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def _refusal(status: int, message: str, headers: dict[str, str] | None = None) -> ApiError:
    """Stop a request with `{"error": message}` (schemas.Error)."""
    return ApiError(status, schemas.Error(error=message), headers)


def _unauthorized(message: str, invalid: bool = False) -> ApiError:
    """401 with a WWW-Authenticate challenge (RFC 6750: invalid_token for a dead token)."""
    challenge = 'Bearer realm="scorekeeper"' + (', error="invalid_token"' if invalid else "")
    return _refusal(401, message, {"WWW-Authenticate": challenge})


def _header_token() -> str | None:
    """The token of `Authorization: Bearer <token>`, or None if the header is missing or bad."""
    parts = request.headers.get("Authorization", "").split()
    if len(parts) != 2 or parts[0].lower() != "bearer" or not _TOKEN.fullmatch(parts[1]):
        return None
    return parts[1]


def _bearer_token() -> str:
    """The bearer token; 401 if the header is missing or malformed."""
    token = _header_token()
    if token is None:
        raise _unauthorized(_("Send the game's token in an Authorization: Bearer header."))
    return token


def _account(token: str) -> User | None:
    """The account of a personal token; None for a game's token; 401 if it is a personal token
    that is unknown or revoked."""
    if not account_service.looks_personal(token):
        return None
    # Only a request that writes notes the token's use: a GET never writes.
    user = account_service.user_for_token(token, note_use=request.method not in READS)
    if user is None:
        raise _unauthorized(_("This personal API token is unknown or was revoked."), invalid=True)
    return user


def _club_access(game: Game, account: User | None, *, edit: bool) -> None:
    """403 unless the account's role in the game's club allows it (viewer: read; scorer: write)."""
    assert game.club_id is not None
    if account is None:
        raise _refusal(
            403,
            _("This is a club game: use a club member's personal API token."),
        )
    access = club_game_access(club_service.role_in(account, game.club_id))
    if access is None:
        raise _refusal(403, _("Only the club's members can open this game."))
    if edit and access != "edit":
        raise _refusal(403, _("Recording scores needs a scorer or owner of the club."))


def _game_for(game_id: int, *, edit: bool) -> Game:
    """The game, if the bearer token may read it (view or edit token) or score it (edit).

    A club game: a personal token whose account's club role allows it. A quick game: its tokens.
    Only the game's row is read: its snapshot has the rounds."""
    return _allowed(game_service.game_row(game_id), game_id, edit=edit)


def _game_keys_for(game_id: int) -> Any:
    """As _game_for to read, but only the game's keys as plain columns (id, version, tokens,
    club): a read needs no row object, its snapshot has the rest."""
    return _allowed(game_service.game_keys(game_id), game_id, edit=False)


def _allowed(game, game_id: int, *, edit: bool):
    raw = _bearer_token()
    account = _account(raw)
    if game is None:
        raise _refusal(404, _("There is no game %(id)s.", id=game_id))
    if game.club_id is not None:
        _club_access(game, account, edit=edit)
        return game
    if account is not None:
        raise _refusal(403, _("A personal API token opens club games only: use this game's token."))
    if not game_service.opens(raw, game, edit=edit):
        message = (
            _("Recording scores needs this game's edit token.")
            if edit
            else _("That token does not open this game.")
        )
        raise _refusal(403, message)
    return game


def _club_creator() -> User:
    """The account creating a club game: a personal token is required (401 without one)."""
    token = _header_token()
    if token is None or not account_service.looks_personal(token):
        raise _unauthorized(
            _("A club game is created with a personal API token: send it as Bearer token.")
        )
    account = _account(token)
    assert account is not None
    return account


def _stale(game_id: int, *, precondition: bool) -> ApiError:
    """412 (If-Match sent) or 409: someone else saved first; the body has the game as it is now."""
    game = game_service.game_row(game_id)
    assert game is not None  # games are never deleted
    return ApiError(
        412 if precondition else 409,
        serialise.stale(_("The game changed since you read it: nothing was saved."), game),
        {"ETag": f'"{game.etag}"'},
    )


def _expected_version(game: Game) -> int | None:
    """The version an If-Match header pins the save to (412 now if it is already stale)."""
    if "If-Match" not in request.headers:
        return None
    # The version is the same whatever the encoding: a weak (compressed) ETag names it too.
    if not request.if_match.contains_weak(game.etag):
        raise _stale(game.id, precondition=True)
    return game.version


def _idempotency_key() -> str | None:
    """The client's Idempotency-Key for this write (400 if it is not 8-64 URL-safe characters):
    a repeat with the same key saves nothing and gets the first answer."""
    raw = request.headers.get("Idempotency-Key")
    if raw is None:
        return None
    key = write_key(raw)
    if key is None:
        raise _refusal(400, _("Idempotency-Key must be 8 to 64 letters, digits, - or _."))
    return key


def _saved_or_raise(outcome: game_service.SaveOutcome) -> None:
    """422 with the errors, or with the warnings a client must confirm, if nothing was saved."""
    if outcome.saved:
        return
    if outcome.needs_confirmation:
        raise ApiError(422, serialise.warnings(_problems(outcome.check.warnings)))
    raise ApiError(422, serialise.errors(_problems(outcome.check.errors)))


def _link(operation_id: str, body: Any = None, **parameters: str) -> dict[str, Any]:
    """An OpenAPI link: where an answer's values lead next (stateful API testers follow them)."""
    link: dict[str, Any] = {"operationId": operation_id, "parameters": parameters}
    if body is not None:
        link["requestBody"] = body
    return link


# Runtime expressions: the answer's ETag pins the next write to the version just read or made.
ETAG = "$response.header.ETag"
TO_GAME = {"GetGame": _link("game", game_id="$response.body#/id")}
# A game just read (or a round just deleted): record its next round, pinned to that version.
TO_NEXT_ROUND = {
    "RecordRound": _link(
        "record_round",
        {"number": "$response.body#/next_round"},
        game_id="$response.body#/id",
        **{"If-Match": ETAG},
    )
}
# A round just saved: read it, correct it (starting from what was sent), or take it back.
TO_ROUND = {
    "GetRound": _link("round", game_id="$request.path.game_id", number="$response.body#/number"),
    "EditRound": _link(
        "edit_round",
        "$request.body",
        game_id="$request.path.game_id",
        number="$response.body#/number",
        **{"If-Match": ETAG},
    ),
    "DeleteRound": _link(
        "delete_round",
        game_id="$request.path.game_id",
        number="$response.body#/number",
        **{"If-Match": ETAG},
    ),
}
# A round just read: correct it or take it back, pinned to the version read.
TO_CHANGE = {
    name: _link(
        target,
        game_id="$request.path.game_id",
        number="$response.body#/number",
        **{"If-Match": ETAG},
    )
    for name, target in (("EditRound", "edit_round"), ("DeleteRound", "delete_round"))
}
# A round just corrected: take it back, pinned to the version the correction made.
TO_DELETE = {
    "DeleteRound": _link(
        "delete_round",
        game_id="$request.path.game_id",
        number="$request.path.number",
        **{"If-Match": ETAG},
    )
}


@bp.get("/openapi.json")
@operation(
    "This document",
    {200: Answer("The OpenAPI 3.1 document, written from the code.")},
    database=False,
)
def openapi() -> Response:
    """The OpenAPI 3 description of this API (generated from the routes' contracts)."""
    return jsonify(document(current_app))


@bp.post("/games")
@operation(
    "Create a game",
    {
        201: Answer(
            "Created: keep the edit token to record scores.",
            (schemas.CreatedGame,),
            ("ETag", "Location"),
            TO_GAME,
        ),
        400: BAD_BODY,
        401: Answer(
            "club_id sent without a personal token, or with an unknown or revoked one.",
            (schemas.Error,),
            ("WWW-Authenticate",),
        ),
        403: Answer("The account is not a scorer or owner of that club.", (schemas.Error,)),
        422: INVALID_BODY,
        **WRITES,
    },
    body=schemas.NewGame,
    # No token for a quick game; a personal token for a club game (club_id).
    security=({}, {"personalToken": []}),
)
@limits.new_games
def create_game() -> Response:
    """Create a game; the answer holds its edit and view tokens (a club game: its club instead)."""
    wanted = read(schemas.NewGame)
    if wanted.club_id is not None:
        # A club game needs a personal token; a quick game needs none (any header is ignored).
        creator = _club_creator()
        if not may_score(club_service.role_in(creator, wanted.club_id)):
            raise _refusal(
                403,
                _("Only the club's scorers and owners can create its games."),
            )
    if wanted.played_on is not None and game_service.in_the_future(wanted.played_on):
        message = _("A game cannot be played in the future: check the date.")
        raise Invalid([field_error("played_on", message, code="played_in_future")])
    try:
        game = game_service.create_game(
            wanted.players,
            wanted.to_rules(),
            wanted.teams,
            device=API_DEVICE,
            club_id=wanted.club_id,
            played_on=wanted.played_on,
        )
    except core.RuleError as error:
        raise ApiError(422, serialise.errors(_problems(error.problems))) from None
    warning = core.set_warning(game_service.snapshot_of(game).setup)
    body = serialise.created(
        game,
        url_for("games.claim", token=game.edit_token, _external=True),
        url_for("games.share", token=game.view_token, _external=True),
        _problems([warning] if warning else []),
    )
    location = url_for("api.game", game_id=game.id, _external=True)
    return _with_game(body, game, 201, {"Location": location})


@bp.get(f"/games/{GAME}")
@operation(
    "Read a game: rounds, standings, what comes next",
    {
        200: Answer(
            "The game.",
            (schemas.Game,),
            ("ETag",),
            TO_NEXT_ROUND,
        ),
        304: Answer("Not changed since the ETag sent in If-None-Match.", headers=("ETag",)),
        401: UNAUTHORIZED,
        403: FORBIDDEN,
        404: NOT_FOUND,
    },
    security=GAME_SECURITY,
    parameters=("If-None-Match",),
)
def game(game_id: int) -> Response:
    """The game's players, options, rounds and standings (view or edit token; club: viewer)."""
    found = _game_keys_for(game_id)
    etag = etag_for(etag_of(found.id, found.version), language=False)
    return conditional(etag, lambda: _kept_game(found, etag))


def _kept_game(found: Any, etag: str) -> Response:
    """The game's JSON (GET), written and gzipped once per version, kept with its snapshot
    under the answer's ETag (every phone and client reading one version gets the same bytes)."""
    snapshot = game_service.snapshot_of(found)
    if snapshot.version != found.version:  # the keys were read before a newer commit
        return _with_game(serialise.game(found), found, etag=etag)

    def write() -> str:
        return json_response(serialise.game(found)).get_data(as_text=True)

    body = kept_text(snapshot, etag_for(etag, language=False, part="api"), write)
    mimetype = current_app.json.mimetype  # type: ignore[attr-defined]
    return tagged(current_app.response_class(body, mimetype=mimetype), etag)


@bp.get(f"/games/{GAME}/rounds/{ROUND}")
@operation(
    "Read one round, hand by hand",
    {
        200: Answer("The round.", (schemas.Round,), ("ETag",), TO_CHANGE),
        401: UNAUTHORIZED,
        403: FORBIDDEN,
        404: NOT_FOUND,
    },
    security=GAME_SECURITY,
)
def round_(game_id: int, number: int) -> Response:
    """One recorded round, hand by hand (view or edit token; club: viewer)."""
    found = _game_for(game_id, edit=False)
    result = game_service.snapshot_of(found).result(number)
    if result is None:
        raise _refusal(404, _("Round %(number)s is not recorded.", number=number))
    return _with_game(serialise.round_(number, result), found)


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
            "Saved: the round, hand by hand.", (schemas.Round,), ("ETag", "Location"), TO_ROUND
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
    parameters=("If-Match", "Idempotency-Key"),
)
@limits.round_writes
def record_round(game_id: int) -> Response:
    """Record the next round (edit token; club: scorer)."""
    found = _game_for(game_id, edit=True)
    key = _idempotency_key()
    wanted = read(schemas.RoundEntry)  # a bad request is refused before its precondition
    expected = _expected_version(found)
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
        raise _stale(game_id, precondition=expected is not None) from None
    except game_service.GameOver:
        raise _refusal(409, _("This game is over: no more rounds can be recorded.")) from None
    except game_service.KeyReused as reused:
        message = _(
            "This Idempotency-Key was already used for round %(number)s, with another body: "
            "nothing was saved. Send this round with a new key.",
            number=reused.number,
        )
        raise _refusal(422, message) from None
    _saved_or_raise(outcome)
    assert outcome.number is not None
    number = outcome.number
    if outcome.check.result is None:  # a repeat of a write whose round was undone since
        raise _refusal(
            409, _("Round %(number)s was saved with this key, then undone.", number=number)
        )
    location = url_for("api.round_", game_id=game_id, number=number, _external=True)
    body = serialise.round_(number, outcome.check.result)
    assert outcome.version is not None
    etag = etag_of(game_id, outcome.version)
    return _with_game(body, found, 201, {"Location": location}, etag=etag)


@bp.put(f"/games/{GAME}/rounds/{ROUND}")
@operation(
    "Correct a recorded round",
    {
        200: Answer(
            "Saved: the corrected round, hand by hand.", (schemas.Round,), ("ETag",), TO_DELETE
        ),
        409: Answer(
            "Nothing was saved: the game changed meanwhile (no If-Match sent).", (schemas.Stale,)
        ),
        **ROUND_WRITE,
    },
    body=schemas.RoundEntry,
    security=GAME_SECURITY,
    parameters=("If-Match",),
)
@limits.round_writes
def edit_round(game_id: int, number: int) -> Response:
    """Correct a recorded round (edit token; club: scorer)."""
    found = _game_for(game_id, edit=True)
    wanted = read(schemas.RoundEntry)  # a bad request is refused before its precondition
    expected = _expected_version(found)
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
        raise _refusal(404, _("Round %(number)s is not recorded.", number=number)) from None
    except game_service.StaleGame:
        raise _stale(game_id, precondition=expected is not None) from None
    _saved_or_raise(outcome)
    # The round as stored, read back: it includes the late arrivals' hands the edit scored
    # again (outcome.check.result holds only the hands of those who played it).
    stored = game_service.snapshot_of(found).result(number)
    assert stored is not None
    return _with_game(serialise.round_(number, stored), found)


@bp.delete(f"/games/{GAME}/rounds/{ROUND}")
@operation(
    "Delete the last round",
    {
        200: Answer(
            "Deleted: the game as it is now.",
            (schemas.Game,),
            ("ETag",),
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
    parameters=("If-Match",),
)
@limits.round_writes
def delete_round(game_id: int, number: int) -> Response:
    """Remove the last recorded round (edit token; club: scorer); answers with the game now."""
    found = _game_for(game_id, edit=True)
    expected = _expected_version(found)
    numbers = game_service.snapshot_of(found).numbers
    last = numbers[-1] if numbers else 0
    if not 1 <= number <= last:
        raise _refusal(404, _("Round %(number)s is not recorded.", number=number))
    if number != last:
        raise _refusal(409, _("Only the last round (round %(last)s) can be deleted.", last=last))
    try:
        game_service.undo_last_round(
            found, device=API_DEVICE, expected_version=expected, number=number
        )
    except game_service.StaleGame:
        raise _stale(game_id, precondition=expected is not None) from None
    return _with_game(serialise.game(found), found)
