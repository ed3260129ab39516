"""Player pages: a roster entry's record and chart, head-to-head, the club's matrix."""

from flask import Blueprint

bp = Blueprint("players", __name__)

from scorekeeper.players import views  # noqa: E402, F401  (routes register on bp)
