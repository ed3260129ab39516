"""The games blueprint's routes, one module for each thing a table does (routes register on bp)."""

from scorekeeper.games.views import charts, pages, photos, seats  # noqa: F401
