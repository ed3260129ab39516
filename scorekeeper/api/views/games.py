"""API routes for games: the OpenAPI document, create a game, read a game."""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, jsonify, url_for
from flask_babel import gettext as _

from scorekeeper import core
from scorekeeper.access import may_score
from scorekeeper.api import bp, schemas, serialise
from scorekeeper.api.contract import (
    BAD_BODY,
    FORBIDDEN,
    GAME_SECURITY,
    INVALID_BODY,
    NOT_FOUND,
    UNAUTHORIZED,
    WRITES,
    Answer,
    Invalid,
    document,
    field_error,
    operation,
    read,
)
from scorekeeper.api.views.common import (
    API_DEVICE,
    GAME,
    TO_GAME,
    TO_NEXT_ROUND,
    ApiError,
    as_problems,
    game_keys_for,
    header_token,
    refuse,
    scorer_reads,
    table_of,
    token_account,
    unauthorized,
    with_game,
)
from scorekeeper.models import Game, User, etag_of
from scorekeeper.services import accounts as account_service
from scorekeeper.services import club_games as club_game_service
from scorekeeper.services import clubs as club_service
from scorekeeper.services import games as game_service
from scorekeeper.web import limits
from scorekeeper.web.etags import ETAG_HEADER, IF_NONE_MATCH_HEADER, conditional, etag_for, tagged
from scorekeeper.web.responses import json_response, kept_text


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
            (ETAG_HEADER, "Location"),
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
            raise refuse(
                403,
                _("Only the club's scorers and owners can create its games."),
            )
    if wanted.played_on is not None and game_service.in_the_future(wanted.played_on):
        message = _("A game cannot be played in the future: check the date.")
        raise Invalid([field_error("played_on", message, code="played_in_future")])
    try:
        game = _created(wanted)
    except core.RuleError as error:
        raise ApiError(422, serialise.errors(as_problems(error.problems))) from None
    warning = core.set_warning(game_service.snapshot_of(game).setup)
    body = serialise.created(
        game,
        url_for("games.claim", token=game.edit_token, _external=True),
        url_for("games.share", token=game.view_token, _external=True),
        as_problems([warning] if warning else []),
        *table_of(game),
    )
    location = url_for("api.game", game_id=game.id, _external=True)
    return with_game(body, game, 201, {"Location": location})


def _created(wanted: schemas.NewGame) -> Game:
    """A quick game, or a club game through the one service the club's form uses too (its
    roster players by id or name, the other names guests)."""
    if wanted.club_id is not None:
        club = club_service.get_club(wanted.club_id)
        assert club is not None  # the creator's role in it was checked
        return club_game_service.create_club_game(
            club,
            wanted.seated(),
            wanted.to_rules(),
            wanted.teams,
            device=API_DEVICE,
            played_on=wanted.played_on,
        )
    names = [player for player in wanted.players if isinstance(player, str)]
    if len(names) < len(wanted.players):
        message = _("Roster players by id are for club games: send club_id, or names only.")
        raise Invalid([field_error("players", message, code="roster_id_without_club")])
    return game_service.create_game(
        names, wanted.to_rules(), wanted.teams, device=API_DEVICE, played_on=wanted.played_on
    )


def _club_creator() -> User:
    """The account creating a club game: a personal token is required (401 without one)."""
    token = header_token()
    if token is None or not account_service.looks_personal(token):
        raise unauthorized(
            _("A club game is created with a personal API token: send it as Bearer token.")
        )
    account = token_account(token)
    assert account is not None
    return account


@bp.get(f"/games/{GAME}")
@operation(
    "Read a game: rounds, standings, what comes next",
    {
        200: Answer(
            "The game.",
            (schemas.Game,),
            (ETAG_HEADER,),
            TO_NEXT_ROUND,
        ),
        304: Answer(
            "Not changed since the ETag sent in If-None-Match (never to a scorer's token: the "
            "hands players send move without the game's version).",
            headers=(ETAG_HEADER,),
        ),
        401: UNAUTHORIZED,
        403: FORBIDDEN,
        404: NOT_FOUND,
    },
    security=GAME_SECURITY,
    parameters=(IF_NONE_MATCH_HEADER,),
)
def game(game_id: int) -> Response:
    """The game's players, options, rounds and standings (view or edit token; club: viewer)."""
    found = game_keys_for(game_id)
    etag = etag_for(etag_of(found.id, found.version, found.view_token), language=False)
    if scorer_reads(found):
        # A scorer's answer also lists the hands sent, which move without the game's version:
        # it is always written afresh (never 304, never kept: answers.py leaves edit tokens to
        # Flask), and carries the game's ETag all the same, for If-Match on the next save.
        return tagged(json_response(serialise.scorer_game(found, *table_of(found))), etag)
    return conditional(etag, lambda: _kept_game(found, etag))


def _kept_game(found: Any, etag: str) -> Response:
    """The game's JSON (GET), written and gzipped once per version, kept with its snapshot
    under the answer's ETag (every phone and client reading one version gets the same bytes)."""
    snapshot = game_service.snapshot_of(found)
    if snapshot.version != found.version:  # the keys were read before a newer commit
        return with_game(serialise.game(found), found, etag=etag)

    def write() -> str:
        return json_response(serialise.game(found)).get_data(as_text=True)

    body = kept_text(snapshot, etag_for(etag, language=False, part="api"), write)
    mimetype = current_app.json.mimetype  # type: ignore[attr-defined]
    return tagged(current_app.response_class(body, mimetype=mimetype), etag)
