"""Accounts: sign up, sign in and out, change password, personal API tokens."""

from flask import Blueprint

bp = Blueprint("accounts", __name__)

from scorekeeper.accounts import views  # noqa: E402, F401  (routes register on bp)
