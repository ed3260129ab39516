"""The games blueprint's routes, one module for each thing a table does (routes register on bp)."""

from scorekeeper.games.views import (  # noqa: F401
    charts,
    endings,
    links,
    pages,
    photos,
    rounds,
    seats,
    setup,
    table,
)
