"""Seasons: a club's seasons, their standings, chart, attendance, games and print view."""

from flask import Blueprint

bp = Blueprint("seasons", __name__)

from scorekeeper.seasons import views  # noqa: E402, F401  (routes register on bp)
