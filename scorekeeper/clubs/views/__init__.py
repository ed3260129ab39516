"""The clubs blueprint's routes, one module for each thing a club organiser does (routes register
on bp)."""

from scorekeeper.clubs.views import admin, clubs, importing, moving  # noqa: F401
