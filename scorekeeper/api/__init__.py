"""The JSON API (version 1): games and their rounds for apps and scripts, with bearer tokens."""

from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api/v1")

from scorekeeper.api import views  # noqa: E402, F401  (routes register on bp)
