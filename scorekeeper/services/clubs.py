"""Club use cases: clubs and their members' roles, invites, the roster, and club games.

Each public function that changes something commits, or raises ClubError and changes nothing.
Messages are the rules core's Problems (marked with N_), so the web layer and the API translate
them the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import NoReturn

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from scorekeeper import core
from scorekeeper.core import N_
from scorekeeper.extensions import db
from scorekeeper.models import (
    ROLES,
    Club,
    Game,
    Invite,
    Membership,
    Player,
    RosterPlayer,
    User,
    utcnow,
)
from scorekeeper.services import games as game_service

# What each role may do; a higher role may do everything a lower one may.
RANK = {role: rank for rank, role in enumerate(ROLES)}
# Roles an owner can give; "owner" only moves by transfer, so a club always has exactly one.
GIVEN_ROLES = ("viewer", "scorer")
INVITE_DAYS = (1, 7, 30)
DEFAULT_INVITE_DAYS = 7
MAX_CLUB_NAME = 80
MAX_NAME = 40


class ClubError(core.RuleError):
    """What was asked of a club cannot be done; the problems say why, in a member's words."""


def _refuse(code: str, template: str, field: str | None = None, **params: object) -> NoReturn:
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
        house_rules=core.HouseRules(
            open_train_points=club.open_train_points,
            strategic_error=club.strategic_error,
            adjustments=club.adjustments,
        ),
    )


@dataclass
class ClubGame:
    """A line of a club's games list: the game, its status, and names as the roster has them."""

    game: Game
    finished: bool
    rounds_played: int
    players: list[str]
    winners: list[str] = field(default_factory=list)


def games_of_club(club: Club, limit: int = 200) -> list[ClubGame]:
    """The club's games, newest first, with status and winner (roster players by current name)."""
    games = db.session.execute(
        select(Game)
        .where(Game.club_id == club.id)
        .order_by(Game.created_at.desc(), Game.id.desc())
        .limit(limit)
        .options(selectinload(Game.players))
    ).scalars()
    current = roster_names(club)
    lines = []
    for game in games:
        snapshot = game_service.snapshot_of(game)
        state = snapshot.state
        name_of = {p.name: current.get(p.roster_player_id, p.name) for p in game.players}
        teams = {
            " & ".join(team): " & ".join(name_of[n] for n in team) for team in snapshot.setup.teams
        }
        lines.append(
            ClubGame(
                game=game,
                finished=state.finished,
                rounds_played=state.rounds_played,
                players=[name_of[p.name] for p in game.players],
                winners=[name_of.get(w) or teams.get(w, w) for w in state.winners],
            )
        )
    return lines


# Creating and setting up a club ----------------------------------------------------------------


def _club_name(raw: object) -> str:
    name = core.clean_name(raw)
    if not name:
        _refuse("club_name_empty", N_("Give the club a name."), "name")
    if len(name) > MAX_CLUB_NAME:
        _refuse(
            "club_name_long",
            N_("A club name can be at most %(max)s characters."),
            "name",
            max=MAX_CLUB_NAME,
        )
    return name


def create_club(user: User, name: str) -> Club:
    """A new club; its creator is the owner."""
    club = Club(name=_club_name(name))
    club.memberships.append(Membership(user_id=user.id, role="owner"))
    db.session.add(club)
    db.session.commit()
    return club


def update_club(club: Club, *, name: str, rules: core.GameRules, public: bool) -> None:
    """Rename the club, set its default rules (checked by the core) and its public page."""
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
    club.open_train_points = rules.house_rules.open_train_points
    club.strategic_error = rules.house_rules.strategic_error
    club.adjustments = rules.house_rules.adjustments
    club.public = public
    db.session.commit()


# Members ---------------------------------------------------------------------------------------


def membership(club: Club, user_id: int) -> Membership | None:
    """The user's membership of the club, or None."""
    return db.session.execute(
        select(Membership).where(Membership.club_id == club.id, Membership.user_id == user_id)
    ).scalar_one_or_none()


def _member(club: Club, user_id: int) -> Membership:
    found = membership(club, user_id)
    if found is None:
        _refuse("not_member", N_("That person is not a member of this club."), "user_id")
    return found


def change_role(club: Club, user_id: int, role: str) -> Membership:
    """Make a member a viewer or a scorer (the owner's role changes only by a transfer)."""
    if role not in GIVEN_ROLES:
        _refuse("role_unknown", N_("A member can be a viewer or a scorer."), "role")
    member = _member(club, user_id)
    if member.role == "owner":
        _refuse(
            "owner_role",
            N_("The owner stays the owner until ownership is transferred to another member."),
            "role",
        )
    member.role = role
    db.session.commit()
    return member


def remove_member(club: Club, user_id: int) -> User:
    """Take a member out of the club (never the owner); their roster entry and games stay."""
    member = _member(club, user_id)
    if member.role == "owner":
        _refuse("remove_owner", N_("The owner cannot be removed from the club."))
    user = member.user
    db.session.delete(member)
    db.session.commit()
    return user


def transfer_ownership(club: Club, owner: User, to_user_id: int) -> User:
    """Make another member the owner; the old owner becomes a scorer."""
    current = _member(club, owner.id)
    if current.role != "owner":
        _refuse("not_owner", N_("Only the owner can transfer ownership."))
    if to_user_id == owner.id:
        _refuse("transfer_self", N_("Choose another member to become the owner."), "user_id")
    new_owner = _member(club, to_user_id)
    current.role = "scorer"
    new_owner.role = "owner"
    db.session.commit()
    return new_owner.user


def leave_club(club: Club, user: User) -> None:
    """The user leaves the club; the owner must transfer ownership first."""
    member = membership(club, user.id)
    if member is None:
        return
    if member.role == "owner":
        _refuse(
            "owner_leaves",
            N_(
                "You are the owner: transfer ownership to another member before you leave the club."
            ),
        )
    db.session.delete(member)
    db.session.commit()


# Invites ---------------------------------------------------------------------------------------


def create_invite(
    club: Club, by: User, role: str = "viewer", days: int = DEFAULT_INVITE_DAYS
) -> Invite:
    """A link anyone signed in can use to join the club with `role`, until it expires."""
    if role not in GIVEN_ROLES:
        _refuse("role_unknown", N_("A member can be a viewer or a scorer."), "role")
    if days not in INVITE_DAYS:
        _refuse("invite_days", N_("An invite lasts 1, 7 or 30 days."), "days")
    now = utcnow()
    invite = Invite(
        club_id=club.id,
        role=role,
        created_by=by.id,
        created_at=now,
        expires_at=now + timedelta(days=days),
    )
    db.session.add(invite)
    db.session.commit()
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


def revoke_invite(invite: Invite) -> None:
    """The link stops working now (revoking twice changes nothing)."""
    if invite.revoked_at is None:
        invite.revoked_at = utcnow()
        db.session.commit()


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
    or 'already' (a member keeps a role that is the same or higher)."""
    if invite_status(invite) != "open":
        _refuse("invite_closed", N_("This invite no longer works: ask the club for a new one."))
    club = db.session.get(Club, invite.club_id)
    member = membership(club, user.id)
    if member is not None:
        if RANK[invite.role] <= RANK[member.role]:
            return member, "already"
        member.role = invite.role
        db.session.commit()
        return member, "promoted"
    member = Membership(club_id=club.id, user_id=user.id, role=invite.role)
    db.session.add(member)
    try:
        db.session.commit()
    except IntegrityError:  # the same person opened the link twice at once: one join is enough
        db.session.rollback()
        return _member(club, user.id), "already"
    return member, "joined"


# Roster ----------------------------------------------------------------------------------------


def roster_of(club: Club) -> list[RosterPlayer]:
    """The club's roster (entries merged into another left out): active first, by name."""
    rows = db.session.execute(
        select(RosterPlayer).where(
            RosterPlayer.club_id == club.id, RosterPlayer.merged_into_id.is_(None)
        )
    ).scalars()
    return sorted(rows, key=lambda e: (e.archived, e.display_name.casefold(), e.id))


def active_roster(club: Club) -> list[RosterPlayer]:
    """The roster players offered for a new game (not archived), by name."""
    return [entry for entry in roster_of(club) if not entry.archived]


def roster_names(club: Club) -> dict[int, str]:
    """Every roster entry's current display name, by id (merged entries included)."""
    return dict(
        db.session.execute(
            select(RosterPlayer.id, RosterPlayer.display_name).where(
                RosterPlayer.club_id == club.id
            )
        ).all()
    )


def roster_entry(club: Club, entry_id: int) -> RosterPlayer | None:
    """One of the club's roster entries, or None."""
    entry = db.session.get(RosterPlayer, entry_id)
    return entry if entry is not None and entry.club_id == club.id else None


def games_played(club: Club) -> dict[int, int]:
    """How many of the club's games each roster entry played, by id."""
    return dict(
        db.session.execute(
            select(Player.roster_player_id, func.count(Player.id))
            .join(Game)
            .where(Game.club_id == club.id, Player.roster_player_id.is_not(None))
            .group_by(Player.roster_player_id)
        ).all()
    )


def linked_account(entry: RosterPlayer) -> User | None:
    """The account a roster entry is linked to, or None."""
    return db.session.get(User, entry.user_id) if entry.user_id is not None else None


def _valid_name(raw: object) -> str:
    """A roster name as stored, refused if empty or too long."""
    name = core.clean_name(raw)
    if not name:
        _refuse("roster_name_empty", N_("Type the player's name."), "display_name")
    if len(name) > MAX_NAME:
        _refuse(
            "roster_name_long",
            N_("A name can be at most %(max)s characters."),
            "display_name",
            max=MAX_NAME,
        )
    return name


def _free_name(club: Club, raw: object, *, other_than: int | None = None) -> str:
    """A valid roster name that no other active entry has (in any case)."""
    name = _valid_name(raw)
    for entry in active_roster(club):
        if entry.id != other_than and entry.display_name.casefold() == name.casefold():
            _refuse(
                "roster_name_taken",
                N_("%(name)s is already on the roster: choose another name."),
                "display_name",
                name=entry.display_name,
            )
    return name


def _linked_account(
    club: Club, user_id: int | None, *, other_than: int | None = None
) -> int | None:
    """A member's account to link to a roster entry, refused if not a member or linked already."""
    if user_id is None:
        return None
    member = membership(club, user_id)
    if member is None:
        _refuse("link_not_member", N_("Only a member's account can be linked."), "user_id")
    for entry in roster_of(club):
        if entry.user_id == user_id and entry.id != other_than:
            _refuse(
                "link_taken",
                N_("%(user)s's account is already linked to %(name)s."),
                "user_id",
                user=member.user.name,
                name=entry.display_name,
            )
    return user_id


def add_roster_player(club: Club, display_name: str, user_id: int | None = None) -> RosterPlayer:
    """Put a player on the club's roster, optionally linked to a member's account."""
    entry = RosterPlayer(
        club_id=club.id,
        display_name=_free_name(club, display_name),
        user_id=_linked_account(club, user_id),
    )
    db.session.add(entry)
    db.session.commit()
    return entry


def update_roster_player(entry: RosterPlayer, display_name: str, user_id: int | None) -> None:
    """Rename an entry and set its linked account; past games keep pointing to it."""
    club = entry.club
    # An archived name blocks nobody: it is checked against the active roster when unarchived.
    if entry.archived:
        name = _valid_name(display_name)
    else:
        name = _free_name(club, display_name, other_than=entry.id)
    if user_id != entry.user_id:  # a link kept as it was stays, even if that person left
        entry.user_id = _linked_account(club, user_id, other_than=entry.id)
    entry.display_name = name
    db.session.commit()


def archive_roster_player(entry: RosterPlayer) -> None:
    """The player left: no longer offered for new games; their games stay."""
    entry.archived = True
    db.session.commit()


def unarchive_roster_player(entry: RosterPlayer) -> None:
    """The player is back (refused if an active entry has taken the name meanwhile)."""
    if entry.merged_into_id is not None:
        _refuse("unarchive_merged", N_("This entry was merged into another and stays archived."))
    _free_name(entry.club, entry.display_name, other_than=entry.id)
    entry.archived = False
    db.session.commit()


def merge_roster_players(keep: RosterPlayer, drop: RosterPlayer) -> int:
    """`drop` is the same person as `keep`: its games move to `keep`, and it is archived.

    Refused when both played in the same game (then they are two people). Returns how many
    seats moved."""
    if keep.id == drop.id or keep.club_id != drop.club_id:
        _refuse("merge_same", N_("Choose two different players to merge."), "drop")
    if keep.merged_into_id is not None or drop.merged_into_id is not None:
        _refuse("merge_merged", N_("That entry was already merged into another."), "drop")
    shared = db.session.execute(
        select(Game.created_at)
        .join(Player)
        .where(Player.roster_player_id == keep.id)
        .where(Game.id.in_(select(Player.game_id).where(Player.roster_player_id == drop.id)))
        .limit(1)
    ).scalar_one_or_none()
    if shared is not None:
        _refuse(
            "merge_same_game",
            N_(
                "%(keep)s and %(drop)s played in the same game, so they are two different "
                "people: they cannot be merged."
            ),
            "drop",
            keep=keep.display_name,
            drop=drop.display_name,
        )
    seats = db.session.scalars(select(Player).where(Player.roster_player_id == drop.id)).all()
    for seat in seats:  # each of their games moves to a new version
        seat.roster_player_id = keep.id
    moved = len(seats)
    # Entries merged into `drop` earlier now point to `keep`: one step to the person, always.
    db.session.execute(
        update(RosterPlayer)
        .where(RosterPlayer.merged_into_id == drop.id)
        .values(merged_into_id=keep.id)
    )
    if keep.user_id is None:
        keep.user_id = drop.user_id
    drop.user_id = None
    drop.archived = True
    drop.merged_into_id = keep.id
    db.session.commit()
    return moved


# Club games ------------------------------------------------------------------------------------


def create_club_game(
    club: Club,
    players: Sequence[str],
    rules: core.GameRules,
    teams: Sequence[Sequence[str]] = (),
    *,
    device: str | None = None,
) -> Game:
    """A club game: a name matching an active roster player (any case) is that player, spelt as
    the roster has it; any other name is a guest. Raises core.RuleError like create_game."""
    by_name = {entry.display_name.casefold(): entry for entry in active_roster(club)}
    names: list[str] = []
    roster_ids: list[int | None] = []
    for raw in players:
        name = core.clean_name(raw)
        entry = by_name.get(name.casefold())
        names.append(entry.display_name if entry is not None else name)
        roster_ids.append(entry.id if entry is not None else None)
    spelt = {name.casefold(): name for name in names}
    teams = [[spelt.get(core.clean_name(m).casefold(), m) for m in team] for team in teams]
    return game_service.create_game(
        names, rules, teams, device=device, club_id=club.id, roster_ids=roster_ids
    )


@dataclass
class MovedGame:
    """A quick game moved into a club: which players matched the roster, which were added."""

    game: Game
    matched: list[str]
    added: list[str]


def move_game_to_club(game: Game, club: Club) -> MovedGame:
    """Make a quick game a club game. Each player is matched to a roster entry by name (any
    case; an active entry first, else an archived one); the others become new roster entries."""
    if game.club_id is not None:
        _refuse("game_in_club", N_("This game already belongs to a club."))
    by_name: dict[str, RosterPlayer] = {}
    for entry in sorted(roster_of(club), key=lambda e: (e.archived, -e.id)):
        by_name.setdefault(entry.display_name.casefold(), entry)
    matched: list[str] = []
    added: list[str] = []
    for player in game.players:
        entry = by_name.get(player.name.casefold())
        if entry is None:
            entry = RosterPlayer(club_id=club.id, display_name=player.name[:MAX_NAME])
            db.session.add(entry)
            db.session.flush()
            by_name[player.name.casefold()] = entry
            added.append(player.name)
        else:
            matched.append(player.name)
        player.roster_player_id = entry.id
    game.club_id = club.id  # who may see it changed: the game moves to a new version
    db.session.commit()
    return MovedGame(game, matched, added)
