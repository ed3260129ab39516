"""Deleting what was made by mistake: a season, a club night (with its tables' games), a whole
club; and the club's history, which says who deleted what.

Rows are deleted children first, never left to the database's ON DELETE CASCADE: SQLite
enforces foreign keys only when asked, and this way both databases lose exactly the same
rows. Nothing outside what is deleted changes: other clubs, quick games and accounts stay.
Each public function that deletes commits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from flask import current_app
from sqlalchemy import delete, func, select, update

from scorekeeper.core import N_
from scorekeeper.extensions import db
from scorekeeper.models import (
    Change,
    Club,
    ClubEvent,
    ClubNight,
    DeviceGame,
    Game,
    Invite,
    KeptRatings,
    Membership,
    RosterPlayer,
    Round,
    RoundWrite,
    Season,
    User,
)
from scorekeeper.services.clubs import refuse
from scorekeeper.services.unit import unit_of_work

HISTORY_LIMIT = 200
DETAIL_MAX = 200


@dataclass(frozen=True)
class Weight:
    """What goes with a club night: its games and the rounds recorded in them."""

    games: int
    rounds: int


# The club's history -----------------------------------------------------------------------------


def _record(club: Club, user: User, action: str, detail: str) -> None:
    db.session.add(
        ClubEvent(
            club_id=club.id,
            user_id=user.id,
            user_name=user.name[:80],
            action=action,
            detail=detail[:DETAIL_MAX],
        )
    )


def history_of(club: Club, limit: int = HISTORY_LIMIT) -> list[ClubEvent]:
    """The club's history, newest first."""
    return list(
        db.session.execute(
            select(ClubEvent)
            .where(ClubEvent.club_id == club.id)
            .order_by(ClubEvent.at.desc(), ClubEvent.id.desc())
            .limit(limit)
        ).scalars()
    )


# Games ------------------------------------------------------------------------------------------


def _delete_games(game_ids: Sequence[int]) -> None:
    """Delete these games with everything that hangs off them. Through their objects (the
    seats, rounds, hands and penalties go by the ORM's cascade), as versions.py asks of every
    write to a game's rows; their history lines first, in a flush of their own, since no
    relationship tells the ORM to order them before the games."""
    if not game_ids:
        return
    for change in db.session.execute(select(Change).where(Change.game_id.in_(game_ids))).scalars():
        db.session.delete(change)
    db.session.flush()
    db.session.execute(delete(DeviceGame).where(DeviceGame.game_id.in_(game_ids)))
    db.session.execute(delete(RoundWrite).where(RoundWrite.game_id.in_(game_ids)))
    for game in db.session.execute(select(Game).where(Game.id.in_(game_ids))).scalars():
        db.session.delete(game)
    db.session.flush()


# A season --------------------------------------------------------------------------------------


@unit_of_work()
def delete_season(club: Club, season: Season, by: User) -> None:
    """Delete the season; its games and club nights stay, filed under no season (or, by date,
    under another season that covers them: the standings read games by date)."""
    name = season.name
    filed = select(Game).where(Game.season_id == season.id)
    for game in db.session.execute(filed).scalars():  # each game's version moves
        game.season_id = None
        game.season_by_hand = False
    db.session.execute(
        update(ClubNight).where(ClubNight.season_id == season.id).values(season_id=None),
        execution_options={"synchronize_session": False},
    )
    db.session.execute(delete(Season).where(Season.id == season.id))
    _record(club, by, "season_deleted", name)


# A club night ----------------------------------------------------------------------------------


def _night_game_ids(night: ClubNight) -> list[int]:
    return list(db.session.execute(select(Game.id).where(Game.club_night_id == night.id)).scalars())


def weight_of(night: ClubNight) -> Weight:
    """How many games the night's tables played, and how many rounds they recorded."""
    game_ids = _night_game_ids(night)
    rounds = db.session.execute(
        select(func.count(Round.id)).where(Round.game_id.in_(game_ids))
    ).scalar_one()
    return Weight(len(game_ids), rounds)


@unit_of_work()
def delete_night(club: Club, night: ClubNight, by: User, label: str) -> Weight:
    """Delete the club night and its tables' games; returns what went with it. `label` names
    the night in the club's history (its name or date, as the page shows it)."""
    weight = weight_of(night)
    _delete_games(_night_game_ids(night))
    db.session.execute(delete(ClubNight).where(ClubNight.id == night.id))
    _record(club, by, "night_deleted", label)
    return weight


# A whole club -----------------------------------------------------------------------------------


def delete_club(club: Club, owner: User, typed_name: str) -> str:
    """Delete the club and everything it holds (members' accounts stay); `typed_name` must be
    the club's name, as a second step. Returns the name. The club's own history goes with it,
    so the deletion is written to the app's log."""
    if typed_name.strip() != club.name.strip():
        refuse(
            "delete_name",
            N_("Type the club's name exactly as it is shown to delete it."),
            "name",
        )
    club_id, name = club.id, club.name
    with unit_of_work():
        _delete_games(
            list(db.session.execute(select(Game.id).where(Game.club_id == club_id)).scalars())
        )
        for model in (ClubEvent, ClubNight, Season, Invite, Membership, KeptRatings):
            db.session.execute(delete(model).where(model.club_id == club_id))
        db.session.execute(
            update(RosterPlayer).where(RosterPlayer.club_id == club_id).values(merged_into_id=None),
            execution_options={"synchronize_session": False},
        )
        db.session.execute(delete(RosterPlayer).where(RosterPlayer.club_id == club_id))
        db.session.execute(delete(Club).where(Club.id == club_id))
    db.session.expire_all()
    current_app.logger.warning(
        "Club %s (%r) and all its records deleted by account %s (%s)",
        club_id,
        name,
        owner.id,
        owner.email,
    )
    return name
