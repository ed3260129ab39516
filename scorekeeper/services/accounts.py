"""Account use cases: loading the signed-in user (more in the accounts issue's services)."""

from __future__ import annotations

from scorekeeper.extensions import db
from scorekeeper.models import User


def load_user(session_id: str) -> User | None:
    """Flask-Login's loader: 'id:session_version'; a stale version (password changed) signs out."""
    user_id, _, version = session_id.partition(":")
    if not user_id.isdigit() or not version.isdigit():
        return None
    user = db.session.get(User, int(user_id))
    if user is None or user.session_version != int(version):
        return None
    return user
