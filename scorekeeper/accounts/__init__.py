"""Accounts: sign up, sign in and out, passwords (changed or reset by mail), the email address
and its confirmation, personal API tokens."""

from flask import Blueprint

bp = Blueprint("accounts", __name__)

from scorekeeper.accounts import links, views  # noqa: E402, F401  (routes register on bp)
