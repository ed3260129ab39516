"""The JSON API (version 1): games and their rounds for apps and scripts, with bearer tokens."""

from flask import Blueprint
from flask.blueprints import BlueprintSetupState
from werkzeug.routing import IntegerConverter

bp = Blueprint("api", __name__, url_prefix="/api/v1")

# Game ids and round numbers are stored as 32-bit integers (PostgreSQL INTEGER).
MAX_ID = 2**31 - 1
# 1 to 2147483647 written out as a pattern. Werkzeug checks a route's method before its
# converter's bounds, so an id that only fails `max` made DELETE answer 405 (the path "matched"
# the GET route); an id this pattern refuses matches no route at all and is a plain 404.
BOUNDED_ID = (
    r"(?:[1-9][0-9]{0,8}|1[0-9]{9}|20[0-9]{8}|21[0-3][0-9]{7}|214[0-6][0-9]{6}"
    r"|2147[0-3][0-9]{5}|21474[0-7][0-9]{4}|214748[0-2][0-9]{3}|2147483[0-5][0-9]{2}"
    r"|21474836[0-3][0-9]|214748364[0-7])"
)


class ApiIdConverter(IntegerConverter):
    """`<api_id:name>`: a whole number from 1 to MAX_ID, or no match (404)."""

    regex = BOUNDED_ID

    def __init__(self, map, *args, **kwargs):  # noqa: A002  (werkzeug's own parameter name)
        super().__init__(map, min=1, max=MAX_ID)


@bp.record_once
def _converter(state: BlueprintSetupState) -> None:
    # Recorded before the routes below, so it is registered before their rules are built.
    state.app.url_map.converters.setdefault("api_id", ApiIdConverter)


from scorekeeper.api import views  # noqa: E402, F401  (routes register on bp)
