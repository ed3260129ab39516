"""A club as a JSON document (lossless): what export_club_json writes and dumps prints.

The document names rows by local references (roster `ref`, user `email`, seat numbers),
never by database ids, so exporting a club, importing it into an empty instance and exporting
it again gives the same document. docs/export.md describes the format; import_schema.py checks it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from scorekeeper.extensions import db
from scorekeeper.models import (
    Change,
    Club,
    ClubNight,
    Game,
    Invite,
    Membership,
    RosterPlayer,
    Round,
    Season,
    User,
)
from scorekeeper.services.games.mapping import house_values_of
from scorekeeper.services.import_schema import FORMAT, VERSION
from scorekeeper.web.devices import device_label


def _iso(value: datetime | None) -> str | None:
    """A stored (naive UTC) datetime as ISO 8601 with a Z, microseconds always shown."""
    if value is None:
        return None
    if value.tzinfo is not None:
        value = value.astimezone(UTC).replace(tzinfo=None)
    return value.isoformat(timespec="microseconds") + "Z"


def _device(device: str | None) -> str | None:
    """A device as the history shows it: the raw value is a browser's cookie, a credential."""
    return None if device is None else device_label(device)


def _iso_day(value: date | None) -> str | None:
    return None if value is None else value.isoformat()


@dataclass(frozen=True)
class Refs:
    """Database ids and the file's local references, per kind of row a game points at
    (exporting: id -> ref; importing: ref -> new id)."""

    roster: Mapping[int, int]
    seasons: Mapping[int, int]
    nights: Mapping[int, int]

    @staticmethod
    def of(refs: Mapping[int, int], row_id: int | None) -> int | None:
        # A row of another club (should not happen) is not this club's data: no reference.
        return refs.get(row_id) if row_id is not None else None


def _rows(model: Any, club_id: int) -> list[Any]:
    """A club's rows of one table, in the order they were made."""
    query = select(model).where(model.club_id == club_id).order_by(model.id)
    return list(db.session.execute(query).scalars())


def load_club(club_id: int) -> Club:
    """The club, or LookupError saying there is none with this id."""
    club = db.session.get(Club, club_id)
    if club is None:
        raise LookupError(f"There is no club with id {club_id}.")
    return club


def club_games(club_id: int) -> list[Game]:
    """The club's games with their players, rounds, hands and penalties, oldest first."""
    return list(
        db.session.execute(
            select(Game)
            .where(Game.club_id == club_id)
            .order_by(Game.id)
            .options(
                selectinload(Game.players),
                selectinload(Game.round_rows).selectinload(Round.hands),
                selectinload(Game.round_rows).selectinload(Round.penalties),
            )
        ).scalars()
    )


def club_roster(club_id: int) -> list[RosterPlayer]:
    """The club's roster entries, in the order they were made."""
    return list(
        db.session.execute(
            select(RosterPlayer).where(RosterPlayer.club_id == club_id).order_by(RosterPlayer.id)
        ).scalars()
    )


def export_club_json(club_id: int) -> dict[str, Any]:
    """Everything a club holds, as a JSON-ready dict; LookupError if there is no such club."""
    club = load_club(club_id)
    memberships = db.session.execute(
        select(Membership, User)
        .join(User, User.id == Membership.user_id)
        .where(Membership.club_id == club_id)
        .order_by(Membership.id)
    ).all()
    invites: list[Invite] = _rows(Invite, club_id)
    seasons: list[Season] = _rows(Season, club_id)
    nights: list[ClubNight] = _rows(ClubNight, club_id)
    roster = club_roster(club_id)
    games = club_games(club_id)
    changes: dict[int, list[Change]] = {}
    if games:
        game_ids = [game.id for game in games]
        query = select(Change).where(Change.game_id.in_(game_ids)).order_by(Change.id)
        for change in db.session.execute(query).scalars():
            changes.setdefault(change.game_id, []).append(change)

    # Everyone the club refers to: members, linked roster entries, invite authors.
    user_ids = {m.user_id for m, _ in memberships}
    user_ids |= {p.user_id for p in roster if p.user_id is not None}
    user_ids |= {i.created_by for i in invites if i.created_by is not None}
    users = {
        user.id: user
        for user in db.session.execute(select(User).where(User.id.in_(user_ids))).scalars()
    }
    email_of = {user_id: user.email for user_id, user in users.items()}
    refs = Refs(
        roster={row.id: ref for ref, row in enumerate(roster, 1)},
        seasons={row.id: ref for ref, row in enumerate(seasons, 1)},
        nights={row.id: ref for ref, row in enumerate(nights, 1)},
    )

    return {
        "format": FORMAT,
        "version": VERSION,
        "club": {
            "name": club.name,
            "created_at": _iso(club.created_at),
            "public": club.public,
            "public_token": club.public_token,
            "locale": club.locale,
            "rules": {
                "set_size": club.set_size,
                "blank_scoring": club.blank_scoring,
                "rounds": club.rounds,
                "order": club.order,
                **house_values_of(club),
                "late_rule": club.late_rule,
            },
        },
        "users": [
            {"email": user.email, "name": user.name}
            for user in sorted(users.values(), key=lambda u: (u.email.lower(), u.email))
        ],
        "members": [
            {"user": user.email, "role": m.role, "joined_at": _iso(m.joined_at)}
            for m, user in memberships
        ],
        "invites": [
            {
                "token": invite.token,
                "role": invite.role,
                "created_by": email_of.get(invite.created_by) if invite.created_by else None,
                "created_at": _iso(invite.created_at),
                "expires_at": _iso(invite.expires_at),
                "revoked_at": _iso(invite.revoked_at),
            }
            for invite in invites
        ],
        "roster": [
            {
                "ref": refs.roster[player.id],
                "display_name": player.display_name,
                "user": email_of.get(player.user_id) if player.user_id else None,
                "archived": player.archived,
                "merged_into": refs.of(refs.roster, player.merged_into_id),
                "created_at": _iso(player.created_at),
            }
            for player in roster
        ],
        "seasons": [
            {
                "ref": refs.seasons[season.id],
                "name": season.name,
                "starts_on": _iso_day(season.starts_on),
                "ends_on": _iso_day(season.ends_on),
                "method": season.method,
                "min_games": season.min_games,
                "points_table": season.points_table,
                "rules": {
                    "set_size": season.set_size,
                    "blank_scoring": season.blank_scoring,
                    "rounds": season.rounds,
                },
                "created_at": _iso(season.created_at),
            }
            for season in seasons
        ],
        "club_nights": [
            {
                "ref": refs.nights[night.id],
                "season": refs.of(refs.seasons, night.season_id),
                "name": night.name,
                "played_on": _iso_day(night.played_on),
                "created_at": _iso(night.created_at),
            }
            for night in nights
        ],
        "games": [_game_json(game, refs, changes.get(game.id, [])) for game in games],
    }


def _game_json(game: Game, refs: Refs, changes: Sequence[Change]) -> dict[str, Any]:
    return {
        "created_at": _iso(game.created_at),
        "updated_at": _iso(game.updated_at),
        "played_on": game.played_on.isoformat(),
        "played_at": _iso(game.played_at),
        "season_by_hand": game.season_by_hand,
        "rules": {
            "game_type": game.game_type,
            "set_size": game.set_size,
            "blank_scoring": game.blank_scoring,
            "start_double": game.start_double,
            "rounds": game.rounds,
            "order": game.order,
            "hand_size": game.hand_size,
            "target": game.target,
            **house_values_of(game),
        },
        "ended_early": game.ended_early,
        "finished_at": _iso(game.finished_at),
        "version": game.version,
        "edit_token": game.edit_token,
        "view_token": game.view_token,
        "created_by": _device(game.created_by),
        "season": refs.of(refs.seasons, game.season_id),
        "club_night": refs.of(refs.nights, game.club_night_id),
        "table_number": game.table_number,
        "players": [
            {
                "seat": player.seat,
                "name": player.name,
                "team": player.team,
                "roster": refs.of(refs.roster, player.roster_player_id),
                "joined_round": player.joined_round,
                "left_after": player.left_after,
                "place": player.place,
                "place_shared": player.place_shared,
                "total": player.total,
                "rounds_played": player.rounds_played,
                "zero_rounds": player.zero_rounds,
            }
            for player in game.players
        ],
        "rounds": [
            {
                "number": row.number,
                "engine": row.engine,
                "out_seat": row.out_seat,
                "blocked": row.blocked,
                "version": row.version,
                "created_at": _iso(row.created_at),
                "updated_at": _iso(row.updated_at),
                "hands": [
                    {
                        "seat": hand.seat,
                        "pips": hand.pips,
                        "tiles": hand.tiles,
                        "penalty": hand.penalty,
                        "score": hand.score,
                        "went_out": hand.went_out,
                        "late": hand.late,
                        "away": hand.away,
                    }
                    for hand in row.hands
                ],
                "penalties": [
                    {"seat": p.seat, "kind": p.kind, "points": p.points, "reason": p.reason}
                    for p in row.penalties
                ],
            }
            for row in game.round_rows
        ],
        "history": [
            {
                "at": _iso(change.at),
                "action": change.action,
                "round_number": change.round_number,
                "player": change.player,
                "old_value": change.old_value,
                "new_value": change.new_value,
                "device": _device(change.device),
            }
            for change in changes
        ],
    }


def dumps(document: Mapping[str, Any]) -> str:
    """The export as text: sorted keys, so two exports of the same club are byte-identical."""
    return json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
