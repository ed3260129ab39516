"""The API's routes, one module for each thing a client does. They register on bp in the order
the OpenAPI document lists them: games and rounds first, then players' hands, photos, ratings
and seats."""

# isort: off
from scorekeeper.api.views import common, games, rounds, hands  # noqa: F401
from scorekeeper.api.views import photos, ratings, seats  # noqa: F401

# isort: on
