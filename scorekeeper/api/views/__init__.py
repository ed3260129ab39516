"""The API's routes, one module for each thing a client does (routes register on bp)."""

from scorekeeper.api.views import games, photos, ratings, seats  # noqa: F401
