"""Club use cases: clubs, their settings, their members' roles and invites.

The roster is services.roster; the club's games are services.club_games.

Each public function that changes something commits, or raises ClubError and changes nothing.
Messages are the rules core's Problems (marked with N_), so the web layer and the API translate
them the same way.
"""

from __future__ import annotations

from datetime import timedelta
from typing import NoReturn

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from scorekeeper import core
from scorekeeper.core import N_
from scorekeeper.extensions import db
from scorekeeper.models import ROLES, Club, Invite, Membership, User, utcnow
from scorekeeper.services.games.mapping import house_rules_of, set_house_rules
from scorekeeper.services.unit import unit_of_work

# What each role may do; a higher role may do everything a lower one may.
RANK = {role: rank for rank, role in enumerate(ROLES)}
# Roles an owner can give; "owner" only moves by transfer, so a club always has exactly one.
GIVEN_ROLES = ("viewer", "scorer")
INVITE_DAYS = (1, 7, 30)
DEFAULT_INVITE_DAYS = 7
MAX_CLUB_NAME = 80


class ClubError(core.RuleError):
    """What was asked of a club cannot be done; the problems say why, in a member's words."""


def refuse(code: str, template: str, field: str | None = None, **params: object) -> NoReturn:
    """Raise ClubError with one problem (services.roster and services.club_games use it too)."""
    raise ClubError(core.Problem(code, template, params, field=field))


# Roles -----------------------------------------------------------------------------------------


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


# Reading clubs ---------------------------------------------------------------------------------


def get_club(club_id: int) -> Club | None:
    """The club with this id, or None."""
    return db.session.get(Club, club_id)


def club_locale(club_id: int | None) -> str | None:
    """The default language of a club's public and print pages (None: no club, or none set)."""
    if club_id is None:
        return None
    return db.session.execute(select(Club.locale).where(Club.id == club_id)).scalar_one_or_none()


def public_club(public_token: str) -> Club | None:
    """The club whose public page this token opens, or None (unknown, or the page is off)."""
    club = db.session.execute(
        select(Club).where(Club.public_token == public_token)
    ).scalar_one_or_none()
    return club if club is not None and club.public else None


def clubs_of(user: User) -> list[tuple[Club, str]]:
    """The user's clubs with their role in each, by name."""
    rows = db.session.execute(
        select(Club, Membership.role).join(Membership).where(Membership.user_id == user.id)
    ).all()
    return sorted(((club, role) for club, role in rows), key=lambda row: row[0].name.casefold())


def clubs_to_move_into(user: User) -> list[Club]:
    """The clubs where the user may add games (scorer or owner), by name."""
    return [club for club, role in clubs_of(user) if at_least(role, "scorer")]


def members_of(club: Club) -> list[Membership]:
    """The club's members: the owner first, then scorers, then viewers, each by name."""
    rows = db.session.execute(
        select(Membership)
        .where(Membership.club_id == club.id)
        .options(selectinload(Membership.user))
    ).scalars()
    return sorted(rows, key=lambda m: (-RANK[m.role], m.user.name.casefold(), m.user_id))


def default_rules(club: Club) -> core.GameRules:
    """The club's default rules, to prefill a club game's setup."""
    return core.GameRules(
        set_size=club.set_size,
        blank_scoring=core.BlankScoring(club.blank_scoring),
        rounds=club.rounds,
        order=core.Order(club.order),
        house_rules=house_rules_of(club),
    )


# Creating and setting up a club ----------------------------------------------------------------


def checked_name(
    raw: object, most: int, field: str, empty: tuple[str, str], too_long: tuple[str, str]
) -> str:
    """A name as stored, refused with the (code, message) `empty` or `too_long` problem."""
    name = core.clean_name(raw)
    if not name:
        refuse(*empty, field)
    if len(name) > most:
        refuse(*too_long, field, max=most)
    return name


def _club_name(raw: object) -> str:
    return checked_name(
        raw,
        MAX_CLUB_NAME,
        "name",
        ("club_name_empty", N_("Give the club a name.")),
        ("club_name_long", N_("A club name can be at most %(max)s characters.")),
    )


@unit_of_work()
def create_club(user: User, name: str) -> Club:
    """A new club; its creator is the owner."""
    club = Club(name=_club_name(name))
    club.memberships.append(Membership(user_id=user.id, role="owner"))
    db.session.add(club)
    return club


@unit_of_work()
def update_club(
    club: Club,
    *,
    name: str,
    rules: core.GameRules,
    public: bool,
    locale: str | None = None,
    table_links: bool | None = None,
) -> None:
    """Rename the club, set its default rules (checked by the core), its public page, the
    language of its public and print pages (None: each visitor's own) and whether its games
    have table links (None: as they were)."""
    clean = _club_name(name)
    try:
        # The core checks rules as part of a table: any valid number of players will do.
        core.new_game(("1", "2", "3", "4"), rules)
    except core.RuleError as error:
        raise ClubError(error.problems) from None
    club.name = clean
    club.set_size = rules.set_size
    club.blank_scoring = core.BlankScoring(rules.blank_scoring).value
    club.rounds = rules.rounds
    club.order = core.Order(rules.order).value
    set_house_rules(club, rules.house_rules)
    club.public = public
    club.locale = locale or None
    if table_links is not None:
        club.table_links = table_links


# Members ---------------------------------------------------------------------------------------


def membership(club: Club, user_id: int) -> Membership | None:
    """The user's membership of the club, or None."""
    return db.session.execute(
        select(Membership).where(Membership.club_id == club.id, Membership.user_id == user_id)
    ).scalar_one_or_none()


def _member(club: Club, user_id: int) -> Membership:
    found = membership(club, user_id)
    if found is None:
        refuse("not_member", N_("That person is not a member of this club."), "user_id")
    return found


@unit_of_work()
def change_role(club: Club, user_id: int, role: str) -> Membership:
    """Make a member a viewer or a scorer (the owner's role changes only by a transfer)."""
    if role not in GIVEN_ROLES:
        refuse("role_unknown", N_("A member can be a viewer or a scorer."), "role")
    member = _member(club, user_id)
    if member.role == "owner":
        refuse(
            "owner_role",
            N_("The owner stays the owner until ownership is transferred to another member."),
            "role",
        )
    member.role = role
    return member


@unit_of_work()
def remove_member(club: Club, user_id: int) -> User:
    """Take a member out of the club (never the owner); their roster entry and games stay."""
    member = _member(club, user_id)
    if member.role == "owner":
        refuse("remove_owner", N_("The owner cannot be removed from the club."))
    user = member.user
    db.session.delete(member)
    return user


@unit_of_work()
def transfer_ownership(club: Club, owner: User, to_user_id: int) -> User:
    """Make another member the owner; the old owner becomes a scorer."""
    current = _member(club, owner.id)
    if current.role != "owner":
        refuse("not_owner", N_("Only the owner can transfer ownership."))
    if to_user_id == owner.id:
        refuse("transfer_self", N_("Choose another member to become the owner."), "user_id")
    new_owner = _member(club, to_user_id)
    if new_owner.user.email_verified_at is None:
        refuse(
            "transfer_unverified",
            N_(
                "%(name)s has not confirmed their email address yet: a club only goes to a "
                "confirmed address. They can ask for a new link on their account page."
            ),
            "user_id",
            name=new_owner.user.name,
        )
    current.role = "scorer"
    new_owner.role = "owner"
    return new_owner.user


@unit_of_work()
def leave_club(club: Club, user: User) -> None:
    """The user leaves the club; the owner must transfer ownership first."""
    member = membership(club, user.id)
    if member is None:
        return
    if member.role == "owner":
        refuse(
            "owner_leaves",
            N_(
                "You are the owner: transfer ownership to another member before you leave the club."
            ),
        )
    db.session.delete(member)


# Invites ---------------------------------------------------------------------------------------


@unit_of_work()
def create_invite(
    club: Club, by: User, role: str = "viewer", days: int = DEFAULT_INVITE_DAYS
) -> Invite:
    """A link anyone signed in can use to join the club with `role`, until it expires."""
    if role not in GIVEN_ROLES:
        refuse("role_unknown", N_("A member can be a viewer or a scorer."), "role")
    if days not in INVITE_DAYS:
        refuse("invite_days", N_("An invite lasts 1, 7 or 30 days."), "days")
    now = utcnow()
    invite = Invite(
        club_id=club.id,
        role=role,
        created_by=by.id,
        created_at=now,
        expires_at=now + timedelta(days=days),
    )
    db.session.add(invite)
    return invite


def open_invites(club: Club) -> list[Invite]:
    """The club's invites that still work, newest first."""
    return list(
        db.session.execute(
            select(Invite)
            .where(
                Invite.club_id == club.id,
                Invite.revoked_at.is_(None),
                Invite.expires_at > utcnow(),
            )
            .order_by(Invite.created_at.desc(), Invite.id.desc())
        ).scalars()
    )


def club_invite(club: Club, invite_id: int) -> Invite | None:
    """One of the club's invites, or None."""
    invite = db.session.get(Invite, invite_id)
    return invite if invite is not None and invite.club_id == club.id else None


@unit_of_work()
def revoke_invite(invite: Invite) -> None:
    """The link stops working now (revoking twice changes nothing)."""
    if invite.revoked_at is None:
        invite.revoked_at = utcnow()


def invite_by_token(token: str) -> Invite | None:
    """The invite this link carries, or None."""
    return db.session.execute(select(Invite).where(Invite.token == token)).scalar_one_or_none()


def invite_status(invite: Invite) -> str:
    """'open', 'revoked' or 'expired'."""
    if invite.revoked_at is not None:
        return "revoked"
    if invite.expires_at <= utcnow():
        return "expired"
    return "open"


def accept_invite(invite: Invite, user: User) -> tuple[Membership, str]:
    """Join the club with the invite's role: 'joined', 'promoted' (a viewer invited as scorer)
    or 'already' (a member keeps a role that is the same or higher). The user's email address
    must be confirmed, so an invite forwarded to a mistyped account cannot be used."""
    if invite_status(invite) != "open":
        refuse("invite_closed", N_("This invite no longer works: ask the club for a new one."))
    if user.email_verified_at is None:
        refuse(
            "email_unverified",
            N_(
                "Confirm your email address first: follow the link we mailed you (your account "
                "page sends it again), then open this invite again."
            ),
        )
    club = db.session.get_one(Club, invite.club_id)
    member = membership(club, user.id)
    if member is not None:
        if RANK[invite.role] <= RANK[member.role]:
            return member, "already"
        with unit_of_work():
            member.role = invite.role
        return member, "promoted"
    member = Membership(club_id=club.id, user_id=user.id, role=invite.role)
    try:
        with unit_of_work():
            db.session.add(member)
    except IntegrityError:  # the same person opened the link twice at once: one join is enough
        return _member(club, user.id), "already"
    return member, "joined"
