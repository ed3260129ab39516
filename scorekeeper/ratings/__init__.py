"""Club ratings: the Ratings page, how ratings work, a player's rating chart, the ratings CSV."""

from flask import Blueprint

bp = Blueprint("ratings", __name__)

from scorekeeper.ratings import views  # noqa: E402, F401  (routes register on bp)
