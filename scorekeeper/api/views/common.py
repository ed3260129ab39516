"""What the API's route modules share: bearer tokens and who may open a game, refusals and
their error handlers, a game's JSON answer with its ETag, If-Match and Idempotency-Key, and the
OpenAPI links between operations.

Two kinds of bearer token: a quick game's own edit or view token, and an account's personal
token ("sk_..."), which opens the games of the account's clubs as its role there allows. A
club game never opens with a game token, and a quick game never with a personal token.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Response, request, url_for
from flask_babel import gettext as _
from pydantic import BaseModel

from scorekeeper import core
from scorekeeper.access import club_game_access, table_token_of, table_token_opens
from scorekeeper.api import bp, schemas, serialise
from scorekeeper.api.contract import BadBody, Invalid, problem_error
from scorekeeper.forms import write_key
from scorekeeper.models import Game, User
from scorekeeper.services import accounts as account_service
from scorekeeper.services import clubs as club_service
from scorekeeper.services import games as game_service
from scorekeeper.web.etags import IF_MATCH_HEADER, etag_for, if_match, tagged
from scorekeeper.web.responses import json_response

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
    """Stop a request with a body (its answer model), a status, optional headers and an
    optional ETag (a refusal that carries the game as it is now names its version)."""

    def __init__(
        self,
        status: int,
        body: BaseModel,
        headers: dict[str, str] | None = None,
        *,
        etag: str | None = None,
    ):
        self.status = status
        self.body = body
        self.headers = headers or {}
        self.etag = etag
        super().__init__(status)


@bp.errorhandler(ApiError)
def _api_error(error: ApiError) -> Response:
    response = json_response(error.body, error.status)
    for name, value in error.headers.items():
        response.headers[name] = value
    return response if error.etag is None else tagged(response, error.etag)


@bp.errorhandler(BadBody)
def _bad_body(error: BadBody) -> Response:
    return json_response(schemas.Error(error=error.message), 400)


@bp.errorhandler(Invalid)
def _invalid(error: Invalid) -> Response:
    return json_response(serialise.errors(error.errors), 422)


def as_problems(problems: tuple[core.Problem, ...] | list[core.Problem]) -> list[schemas.Problem]:
    return [problem_error(problem) for problem in problems]


def with_game(
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


def refuse(status: int, message: str, headers: dict[str, str] | None = None) -> ApiError:
    """Stop a request with `{"error": message}` (schemas.Error)."""
    return ApiError(status, schemas.Error(error=message), headers)


def unauthorized(message: str, invalid: bool = False) -> ApiError:
    """401 with a WWW-Authenticate challenge (RFC 6750: invalid_token for a dead token)."""
    challenge = 'Bearer realm="scorekeeper"' + (', error="invalid_token"' if invalid else "")
    return refuse(401, message, {"WWW-Authenticate": challenge})


def header_token() -> str | None:
    """The token of `Authorization: Bearer <token>`, or None if the header is missing or bad."""
    parts = request.headers.get("Authorization", "").split()
    if len(parts) != 2 or parts[0].lower() != "bearer" or not _TOKEN.fullmatch(parts[1]):
        return None
    return parts[1]


def bearer_token() -> str:
    """The bearer token; 401 if the header is missing or malformed."""
    token = header_token()
    if token is None:
        raise unauthorized(_("Send the game's token in an Authorization: Bearer header."))
    return token


def token_account(token: str) -> User | None:
    """The account of a personal token; None for a game's token; 401 if it is a personal token
    that is unknown or revoked."""
    if not account_service.looks_personal(token):
        return None
    # Only a request that writes notes the token's use: a GET never writes.
    user = account_service.user_for_token(token, note_use=request.method not in READS)
    if user is None:
        raise unauthorized(_("This personal API token is unknown or was revoked."), invalid=True)
    return user


def _club_access(game: Game, account: User | None, *, edit: bool) -> None:
    """403 unless the account's role in the game's club allows it (viewer: read; scorer: write)."""
    assert game.club_id is not None
    if account is None:
        raise refuse(
            403,
            _("This is a club game: use a club member's personal API token."),
        )
    access = club_game_access(club_service.role_in(account, game.club_id))
    if access is None:
        raise refuse(403, _("Only the club's members can open this game."))
    if edit and access != "edit":
        raise refuse(403, _("Recording scores needs a scorer or owner of the club."))


def game_for(game_id: int, *, edit: bool) -> Game:
    """The game, if the bearer token may read it (view or edit token) or score it (edit).

    A club game: a personal token whose account's club role allows it. A quick game: its tokens.
    Only the game's row is read: its snapshot has the rounds."""
    return _allowed(game_service.game_row(game_id), game_id, edit=edit)


def game_keys_for(game_id: int) -> Any:
    """As game_for to read, but only the game's keys as plain columns (id, version, tokens,
    club): a read needs no row object, its snapshot has the rest."""
    return _allowed(game_service.game_keys(game_id), game_id, edit=False)


def _allowed(game, game_id: int, *, edit: bool):
    raw = bearer_token()
    account = token_account(raw)
    if game is None:
        raise refuse(404, _("There is no game %(id)s.", id=game_id))
    if game.club_id is not None:
        _club_access(game, account, edit=edit)
        return game
    if account is not None:
        raise refuse(403, _("A personal API token opens club games only: use this game's token."))
    if not game_service.opens(raw, game, edit=edit):
        message = (
            _("Recording scores needs this game's edit token.")
            if edit
            else _("That token does not open this game.")
        )
        raise refuse(403, message)
    return game


def game_for_hands(game_id: int) -> Game:
    """The game, if the bearer token may send a player's hand or read a photo: its table token
    (a table link that is on), its edit token, or a club scorer's personal token; 403 for a
    view token (it only reads)."""
    raw = bearer_token()
    account = token_account(raw)
    game = game_service.game_row(game_id)
    if game is None:
        raise refuse(404, _("There is no game %(id)s.", id=game_id))
    if account is None and table_token_opens(game, raw):
        return game
    return _allowed(game, game_id, edit=True)


def scorer_reads(found: Any) -> bool:
    """True if the bearer token that read the game may score it (edit token, club scorer):
    its answer then carries the table link and the hands sent."""
    raw = header_token() or ""
    if found.club_id is not None:
        account = token_account(raw)
        return (
            account is not None
            and club_game_access(club_service.role_in(account, found.club_id)) == "edit"
        )
    return game_service.opens(raw, found, edit=True)


def table_of(found: Any) -> tuple[str | None, str | None]:
    """The game's table token and link, or (None, None) when its table link is off."""
    token = table_token_of(found)
    if token is None:
        return None, None
    return token, url_for("games.table", token=token, _external=True)


def stale_refusal(game_id: int, *, precondition: bool) -> ApiError:
    """412 (If-Match sent) or 409: someone else saved first; the body has the game as it is now."""
    game = game_service.game_row(game_id)
    assert game is not None  # games are never deleted
    return ApiError(
        412 if precondition else 409,
        serialise.stale(_("The game changed since you read it: nothing was saved."), game),
        etag=etag_for(game.etag, language=False),
    )


def expected_version(game: Game) -> int | None:
    """The version an If-Match header pins the save to (412 now if it is already stale)."""
    pinned = if_match(etag_for(game.etag, language=False))
    if pinned is None:
        return None
    if not pinned:
        raise stale_refusal(game.id, precondition=True)
    return game.version


def idempotency_key() -> str | None:
    """The client's Idempotency-Key for this write (400 if it is not 8-64 URL-safe characters):
    a repeat with the same key saves nothing and gets the first answer."""
    raw = request.headers.get("Idempotency-Key")
    if raw is None:
        return None
    key = write_key(raw)
    if key is None:
        raise refuse(400, _("Idempotency-Key must be 8 to 64 letters, digits, - or _."))
    return key


def saved_or_raise(outcome: game_service.SaveOutcome) -> None:
    """422 with the errors, or with the warnings a client must confirm, if nothing was saved."""
    if outcome.saved:
        return
    if outcome.needs_confirmation:
        raise ApiError(422, serialise.warnings(as_problems(outcome.check.warnings)))
    raise ApiError(422, serialise.errors(as_problems(outcome.check.errors)))


def openapi_link(operation_id: str, body: Any = None, **parameters: str) -> dict[str, Any]:
    """An OpenAPI link: where an answer's values lead next (stateful API testers follow them)."""
    link: dict[str, Any] = {"operationId": operation_id, "parameters": parameters}
    if body is not None:
        link["requestBody"] = body
    return link


# Runtime expressions: the answer's ETag pins the next write to the version just read or made.
ETAG = "$response.header.ETag"


TO_GAME = {"GetGame": openapi_link("game", game_id="$response.body#/id")}


# A game just read (or a round just deleted): record its next round, pinned to that version.
TO_NEXT_ROUND = {
    "RecordRound": openapi_link(
        "record_round",
        {"number": "$response.body#/next_round"},
        game_id="$response.body#/id",
        **{IF_MATCH_HEADER: ETAG},
    )
}


# A round just saved: read it, correct it (starting from what was sent), or take it back.
TO_ROUND = {
    "GetRound": openapi_link(
        "round", game_id="$request.path.game_id", number="$response.body#/number"
    ),
    "EditRound": openapi_link(
        "edit_round",
        "$request.body",
        game_id="$request.path.game_id",
        number="$response.body#/number",
        **{IF_MATCH_HEADER: ETAG},
    ),
    "DeleteRound": openapi_link(
        "delete_round",
        game_id="$request.path.game_id",
        number="$response.body#/number",
        **{IF_MATCH_HEADER: ETAG},
    ),
}


# A round just read: correct it or take it back, pinned to the version read.
TO_CHANGE = {
    name: openapi_link(
        target,
        game_id="$request.path.game_id",
        number="$response.body#/number",
        **{IF_MATCH_HEADER: ETAG},
    )
    for name, target in (("EditRound", "edit_round"), ("DeleteRound", "delete_round"))
}


# A round just corrected: take it back, pinned to the version the correction made.
TO_DELETE = {
    "DeleteRound": openapi_link(
        "delete_round",
        game_id="$request.path.game_id",
        number="$request.path.number",
        **{IF_MATCH_HEADER: ETAG},
    )
}
