"""The API's club ratings: GET /clubs/{club_id}/ratings with a member's personal token."""

from __future__ import annotations

from flask import Response
from flask_babel import gettext as _

from scorekeeper.api import bp, schemas
from scorekeeper.api.contract import Answer, operation
from scorekeeper.api.views.common import header_token, refuse, token_account, unauthorized
from scorekeeper.services import clubs as club_service
from scorekeeper.services import ratings as rating_service
from scorekeeper.web.etags import ETAG_HEADER, IF_NONE_MATCH_HEADER, conditional, etag_for
from scorekeeper.web.responses import json_response

CLUB = "<id:club_id>"


@bp.get(f"/clubs/{CLUB}/ratings")
@operation(
    "Read a club's ratings",
    {
        200: Answer(
            "The club's rated players, best rating first.", (schemas.Ratings,), (ETAG_HEADER,)
        ),
        304: Answer("Not changed since the ETag sent in If-None-Match.", headers=(ETAG_HEADER,)),
        401: Answer(
            "No Authorization: Bearer header, a malformed one, or a personal token that is "
            "unknown or revoked.",
            (schemas.Error,),
            ("WWW-Authenticate",),
        ),
        403: Answer("Not a personal API token (a game's token).", (schemas.Error,)),
        404: Answer("No such club, or the token's account is not a member.", (schemas.Error,)),
    },
    security=({"personalToken": []},),
    parameters=(IF_NONE_MATCH_HEADER,),
)
def club_ratings(club_id: int) -> Response:
    """Every rated player of the club: openskill's mu and sigma, unrounded, and the rating."""
    token = header_token()
    if token is None:
        raise unauthorized(_("Send a personal API token in an Authorization: Bearer header."))
    account = token_account(token)
    if account is None:
        raise refuse(403, _("A club's ratings are read with a member's personal API token."))
    club = club_service.get_club(club_id)
    if club is None or club_service.role_in(account, club_id) is None:
        raise refuse(404, _("There is no club %(id)s among this account's clubs.", id=club_id))
    rated = rating_service.ratings_at(club)
    etag = etag_for(rated.mark, language=False, api="ratings", names=rated.names)
    return conditional(etag, lambda: _answer(rated.lines()))


def _answer(lines: list[rating_service.RatingLine]) -> Response:
    body = schemas.Ratings(
        [
            schemas.Rating(
                player=line.name,
                player_id=line.entry_id,
                mu=line.mu,
                sigma=line.sigma,
                rating=line.rating,
                games=line.games,
                provisional=line.provisional,
            )
            for line in lines
        ]
    )
    return json_response(body)
