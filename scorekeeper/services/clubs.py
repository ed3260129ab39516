"""Club use cases: who may do what in a club (more in the clubs issue's services)."""

from __future__ import annotations

from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import ROLES, Membership, User

# What each role may do; a higher role may do everything a lower one may.
RANK = {role: rank for rank, role in enumerate(ROLES)}


def role_in(user: User | None, club_id: int) -> str | None:
    """The user's role in the club ('viewer', 'scorer', 'owner'), or None."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return db.session.execute(
        select(Membership.role).where(Membership.club_id == club_id, Membership.user_id == user.id)
    ).scalar_one_or_none()


def at_least(role: str | None, needed: str) -> bool:
    """True if `role` may do what `needed` may (viewer < scorer < owner)."""
    return role is not None and RANK[role] >= RANK[needed]
