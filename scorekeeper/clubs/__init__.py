"""Clubs: members and roles, invite links, the roster, club games, the public page."""

from flask import Blueprint

bp = Blueprint("clubs", __name__)

from scorekeeper.clubs import views  # noqa: E402, F401  (routes register on bp)
