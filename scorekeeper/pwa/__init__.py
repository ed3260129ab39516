"""The installable app: the web app manifest, the service worker at the root and /favicon.ico."""

from flask import Blueprint

bp = Blueprint("pwa", __name__)

from scorekeeper.pwa import views  # noqa: E402, F401  (routes register on bp)
