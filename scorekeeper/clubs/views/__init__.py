"""The clubs blueprint's routes, one module for each thing a club organiser does (routes register
on bp)."""

from scorekeeper.clubs.views import (  # noqa: F401
    admin,
    clubs,
    games,
    guests,
    importing,
    invites,
    members,
    moving,
    roster,
)
