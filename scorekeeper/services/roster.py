"""Roster use cases: a club's players (members or not): add, rename, link, archive, merge.

Each public function that changes something commits, or raises ClubError and changes nothing.
"""

from __future__ import annotations

from sqlalchemy import func, select, update

from scorekeeper.core import N_
from scorekeeper.extensions import db
from scorekeeper.models import Club, Game, Player, RosterPlayer, User
from scorekeeper.services import clubs as club_service
from scorekeeper.services.clubs import checked_name, refuse
from scorekeeper.services.unit import unit_of_work

MAX_NAME = 40


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
    rows = db.session.execute(
        select(Player.roster_player_id, func.count(Player.id))
        .join(Game)
        .where(Game.club_id == club.id, Player.roster_player_id.is_not(None))
        .group_by(Player.roster_player_id)
    ).all()
    return {entry_id: count for entry_id, count in rows if entry_id is not None}


def linked_account(entry: RosterPlayer) -> User | None:
    """The account a roster entry is linked to, or None."""
    return db.session.get(User, entry.user_id) if entry.user_id is not None else None


def _valid_name(raw: object) -> str:
    """A roster name as stored, refused if empty or too long."""
    return checked_name(
        raw,
        MAX_NAME,
        "display_name",
        ("roster_name_empty", N_("Type the player's name.")),
        ("roster_name_long", N_("A name can be at most %(max)s characters.")),
    )


def _free_name(club: Club, raw: object, *, other_than: int | None = None) -> str:
    """A valid roster name that no other active entry has (in any case)."""
    name = _valid_name(raw)
    for entry in active_roster(club):
        if entry.id != other_than and entry.display_name.casefold() == name.casefold():
            refuse(
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
    member = club_service.membership(club, user_id)
    if member is None:
        refuse("link_not_member", N_("Only a member's account can be linked."), "user_id")
    for entry in roster_of(club):
        if entry.user_id == user_id and entry.id != other_than:
            refuse(
                "link_taken",
                N_("%(user)s's account is already linked to %(name)s."),
                "user_id",
                user=member.user.name,
                name=entry.display_name,
            )
    return user_id


@unit_of_work()
def add_roster_player(club: Club, display_name: str, user_id: int | None = None) -> RosterPlayer:
    """Put a player on the club's roster, optionally linked to a member's account."""
    entry = RosterPlayer(
        club_id=club.id,
        display_name=_free_name(club, display_name),
        user_id=_linked_account(club, user_id),
    )
    db.session.add(entry)
    return entry


@unit_of_work()
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


@unit_of_work()
def archive_roster_player(entry: RosterPlayer) -> None:
    """The player left: no longer offered for new games; their games stay."""
    entry.archived = True


@unit_of_work()
def unarchive_roster_player(entry: RosterPlayer) -> None:
    """The player is back (refused if an active entry has taken the name meanwhile)."""
    if entry.merged_into_id is not None:
        refuse("unarchive_merged", N_("This entry was merged into another and stays archived."))
    _free_name(entry.club, entry.display_name, other_than=entry.id)
    entry.archived = False


@unit_of_work()
def merge_roster_players(keep: RosterPlayer, drop: RosterPlayer) -> int:
    """`drop` is the same person as `keep`: its games move to `keep`, and it is archived.

    Refused when both played in the same game (then they are two people). Returns how many
    seats moved."""
    if keep.id == drop.id or keep.club_id != drop.club_id:
        refuse("merge_same", N_("Choose two different players to merge."), "drop")
    if keep.merged_into_id is not None or drop.merged_into_id is not None:
        refuse("merge_merged", N_("That entry was already merged into another."), "drop")
    shared = db.session.execute(
        select(Game.created_at)
        .join(Player)
        .where(Player.roster_player_id == keep.id)
        .where(Game.id.in_(select(Player.game_id).where(Player.roster_player_id == drop.id)))
        .limit(1)
    ).scalar_one_or_none()
    if shared is not None:
        refuse(
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
    return moved
