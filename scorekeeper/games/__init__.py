"""Game night: set up a game, record rounds, share it, chart it, print it."""

from flask import Blueprint

bp = Blueprint("games", __name__)

from scorekeeper.games import views  # noqa: E402, F401  (routes register on bp)
