"""A club's data in its owners' hands: export as JSON (lossless) or CSV, import the JSON.

The JSON document names rows by local references (roster `ref`, user `email`, seat numbers),
never by database ids, so exporting a club, importing it into an empty instance and exporting
it again gives the same document. docs/export.md describes the format.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from flask import current_app
from sqlalchemy import func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload
from werkzeug.security import generate_password_hash

from scorekeeper import core
from scorekeeper.devices import device_label
from scorekeeper.extensions import db
from scorekeeper.models import (
    ROLES,
    Change,
    Club,
    ClubNight,
    Game,
    Hand,
    Invite,
    Membership,
    Penalty,
    Player,
    RosterPlayer,
    Round,
    Season,
    User,
)

FORMAT = "scorekeeper-club"
VERSION = 1
# As the accounts pages ask (scorekeeper/accounts/forms.py).
MIN_PASSWORD = 10
MAX_PASSWORD = 500
# Integer columns are 32-bit on PostgreSQL: a bigger number is junk, not data.
_INT_RANGE = (-(2**31), 2**31 - 1)
_TOKEN_BATCH = 500

CSV_HEADER = (
    "club",
    "game_id",
    "game_date",
    "game_type",
    "round",
    "engine",
    "player",
    "roster_name",
    "pips",
    "tiles",
    "penalties",
    "penalty_detail",
    "score",
    "went_out",
    "blocked",
)


class ImportProblem(ValueError):
    """The document cannot be imported (bad shape, bad version, or clashes with this instance)."""


@dataclass
class ImportReport:
    """What an import created: the club, row counts, and accounts that need a password."""

    club: Club
    counts: dict[str, int]
    new_users: list[str] = field(default_factory=list)


# Export ------------------------------------------------------------------------------------


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
class _Refs:
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


def _club(club_id: int) -> Club:
    club = db.session.get(Club, club_id)
    if club is None:
        raise LookupError(f"There is no club with id {club_id}.")
    return club


def _games(club_id: int) -> list[Game]:
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


def _roster(club_id: int) -> list[RosterPlayer]:
    return list(
        db.session.execute(
            select(RosterPlayer).where(RosterPlayer.club_id == club_id).order_by(RosterPlayer.id)
        ).scalars()
    )


def export_club_json(club_id: int) -> dict[str, Any]:
    """Everything a club holds, as a JSON-ready dict; LookupError if there is no such club."""
    club = _club(club_id)
    memberships = db.session.execute(
        select(Membership, User)
        .join(User, User.id == Membership.user_id)
        .where(Membership.club_id == club_id)
        .order_by(Membership.id)
    ).all()
    invites: list[Invite] = _rows(Invite, club_id)
    seasons: list[Season] = _rows(Season, club_id)
    nights: list[ClubNight] = _rows(ClubNight, club_id)
    roster = _roster(club_id)
    games = _games(club_id)
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
    refs = _Refs(
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
            "rules": {
                "set_size": club.set_size,
                "blank_scoring": club.blank_scoring,
                "rounds": club.rounds,
                "order": club.order,
                "open_train_points": club.open_train_points,
                "strategic_error": club.strategic_error,
                "adjustments": club.adjustments,
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


def _game_json(game: Game, refs: _Refs, changes: Sequence[Change]) -> dict[str, Any]:
    return {
        "created_at": _iso(game.created_at),
        "updated_at": _iso(game.updated_at),
        "rules": {
            "game_type": game.game_type,
            "set_size": game.set_size,
            "blank_scoring": game.blank_scoring,
            "start_double": game.start_double,
            "rounds": game.rounds,
            "order": game.order,
            "hand_size": game.hand_size,
            "target": game.target,
            "open_train_points": game.open_train_points,
            "strategic_error": game.strategic_error,
            "adjustments": game.adjustments,
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


def _spreadsheet_safe(text: str) -> str:
    """Text a spreadsheet will not run as a formula (a name typed as '=1+1', say)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _penalty_detail(penalties: Iterable[Penalty]) -> str:
    return "; ".join(
        f"{p.kind} {p.points:+d}" + (f" ({p.reason})" if p.reason else "") for p in penalties
    )


def _current_names(roster: Sequence[RosterPlayer]) -> dict[int, str]:
    """Each roster entry's name now: a merged entry goes by the entry it was merged into."""
    by_id = {player.id: player for player in roster}
    names: dict[int, str] = {}
    for player in roster:
        current, seen = player, {player.id}
        while current.merged_into_id in by_id and current.merged_into_id not in seen:
            current = by_id[current.merged_into_id]
            seen.add(current.id)
        names[player.id] = current.display_name
    return names


def export_club_csv(club_id: int) -> str:
    """One row per player per round of every club game, with a header; LookupError if unknown."""
    club = _club(club_id)
    names = _current_names(_roster(club_id))
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    club_name = _spreadsheet_safe(club.name)
    for game in _games(club_id):
        seats = {player.seat: player for player in game.players}
        for row in game.round_rows:
            for hand in row.hands:
                player = seats.get(hand.seat)
                roster_id = player.roster_player_id if player else None
                writer.writerow(
                    (
                        club_name,
                        game.id,
                        game.created_at.date().isoformat(),
                        game.game_type,
                        row.number,
                        f"{row.engine}-{row.engine}" if row.engine is not None else "",
                        _spreadsheet_safe(player.name if player else ""),
                        _spreadsheet_safe(names.get(roster_id, "") if roster_id else ""),
                        hand.pips,
                        hand.tiles or "",
                        hand.penalty,
                        _penalty_detail(p for p in row.penalties if p.seat == hand.seat),
                        hand.score,
                        "yes" if hand.went_out else "no",
                        "yes" if row.blocked else "no",
                    )
                )
    return out.getvalue()


# Checking a document ---------------------------------------------------------------------

# A check takes a value and where it is ("games[0].rounds[2].hands[1].pips") and returns it
# converted (datetimes parsed), or raises ImportProblem saying what is wrong there.
Check = Callable[[object, str], Any]


def _normal(email: str) -> str:
    """An email as accounts are stored and found: trimmed, lower-case (services/accounts.py)."""
    return email.strip().lower()


def _problem(path: str, message: str) -> ImportProblem:
    return ImportProblem(f"{path}: {message}" if path else message)


def _text(limit: int, *, optional: bool = False, choices: Iterable[str] = ()) -> Check:
    allowed = tuple(choices)

    def check(value: object, path: str) -> str | None:
        if value is None and optional:
            return None
        if not isinstance(value, str):
            raise _problem(path, "expected text" + (" or null" if optional else ""))
        if len(value) > limit:
            raise _problem(path, f"longer than {limit} characters")
        if "\x00" in value:
            raise _problem(path, "holds a NUL character")
        if allowed and value not in allowed:
            raise _problem(path, f"{value!r} is not one of {', '.join(allowed)}")
        return value

    return check


def _token(value: object, path: str) -> str:
    text = _text(64)(value, path)
    if not text:
        raise _problem(path, "a token cannot be empty")
    return text


def _email(*, optional: bool = False) -> Check:
    def check(value: object, path: str) -> str | None:
        text = _text(254, optional=optional)(value, path)
        if text is not None and "@" not in text:
            raise _problem(path, f"{text!r} is not an email address")
        return text

    return check


def _number(*, optional: bool = False) -> Check:
    def check(value: object, path: str) -> int | None:
        if value is None and optional:
            return None
        # bool is an int in Python, but true is not a number of pips.
        if not isinstance(value, int) or isinstance(value, bool):
            raise _problem(path, "expected a whole number" + (" or null" if optional else ""))
        if not _INT_RANGE[0] <= value <= _INT_RANGE[1]:
            raise _problem(path, f"{value} is out of range")
        return value

    return check


def _flag(value: object, path: str) -> bool:
    if not isinstance(value, bool):
        raise _problem(path, "expected true or false")
    return value


def _when(*, optional: bool = False) -> Check:
    def check(value: object, path: str) -> datetime | None:
        if value is None and optional:
            return None
        if not isinstance(value, str):
            raise _problem(path, "expected an ISO 8601 date and time")
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError:
            raise _problem(path, f"{value!r} is not an ISO 8601 date and time") from None
        if parsed.tzinfo is not None:
            parsed = parsed.astimezone(UTC).replace(tzinfo=None)
        return parsed

    return check


def _day(value: object, path: str) -> date:
    if not isinstance(value, str):
        raise _problem(path, "expected an ISO 8601 date")
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise _problem(path, f"{value!r} is not an ISO 8601 date (YYYY-MM-DD)") from None


def _record(fields: Mapping[str, Check]) -> Check:
    """An object with exactly these keys: an unknown key would be silently lost, so it is junk."""

    def check(value: object, path: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise _problem(path, "expected an object")
        missing = [key for key in fields if key not in value]
        if missing:
            raise _problem(path, f"missing {', '.join(missing)}")
        unknown = sorted(str(key) for key in value if key not in fields)
        if unknown:
            raise _problem(path, f"unknown field {', '.join(unknown)}")
        prefix = f"{path}." if path else ""
        return {key: checker(value[key], prefix + key) for key, checker in fields.items()}

    return check


def _list(item: Check) -> Check:
    def check(value: object, path: str) -> list[Any]:
        if not isinstance(value, list):
            raise _problem(path, "expected a list")
        return [item(element, f"{path}[{index}]") for index, element in enumerate(value)]

    return check


_GAME_TYPES = [kind.value for kind in core.GameType]
_BLANKS = [kind.value for kind in core.BlankScoring]
_ORDERS = [kind.value for kind in core.Order]
_PENALTIES = [kind.value for kind in core.PenaltyKind]
_LATE_RULES = [rule.value for rule in core.LateRule]
_METHODS = [method.value for method in core.SeasonMethod]

_DOCUMENT = _record(
    {
        "format": _text(40, choices=[FORMAT]),
        "version": _number(),
        "club": _record(
            {
                "name": _text(80),
                "created_at": _when(),
                "public": _flag,
                "public_token": _token,
                "rules": _record(
                    {
                        "set_size": _number(),
                        "blank_scoring": _text(20, choices=_BLANKS),
                        "rounds": _number(optional=True),
                        "order": _text(12, choices=_ORDERS),
                        "open_train_points": _number(),
                        "strategic_error": _flag,
                        "adjustments": _flag,
                        "late_rule": _text(10, choices=_LATE_RULES),
                    }
                ),
            }
        ),
        "users": _list(_record({"email": _email(), "name": _text(80)})),
        "members": _list(
            _record({"user": _email(), "role": _text(10, choices=ROLES), "joined_at": _when()})
        ),
        "invites": _list(
            _record(
                {
                    "token": _token,
                    "role": _text(10, choices=ROLES),
                    "created_by": _email(optional=True),
                    "created_at": _when(),
                    "expires_at": _when(),
                    "revoked_at": _when(optional=True),
                }
            )
        ),
        "roster": _list(
            _record(
                {
                    "ref": _number(),
                    "display_name": _text(40),
                    "user": _email(optional=True),
                    "archived": _flag,
                    "merged_into": _number(optional=True),
                    "created_at": _when(),
                }
            )
        ),
        "seasons": _list(
            _record(
                {
                    "ref": _number(),
                    "name": _text(80),
                    "starts_on": _day,
                    "ends_on": _day,
                    "method": _text(20, choices=_METHODS),
                    "min_games": _number(),
                    "points_table": _text(120),
                    "rules": _record(
                        {
                            "set_size": _number(optional=True),
                            "blank_scoring": _text(20, optional=True, choices=_BLANKS),
                            "rounds": _number(optional=True),
                        }
                    ),
                    "created_at": _when(),
                }
            )
        ),
        "club_nights": _list(
            _record(
                {
                    "ref": _number(),
                    "season": _number(optional=True),
                    "name": _text(80),
                    "played_on": _day,
                    "created_at": _when(),
                }
            )
        ),
        "games": _list(
            _record(
                {
                    "created_at": _when(),
                    "updated_at": _when(),
                    "rules": _record(
                        {
                            "game_type": _text(20, choices=_GAME_TYPES),
                            "set_size": _number(),
                            "blank_scoring": _text(20, choices=_BLANKS),
                            "start_double": _number(optional=True),
                            "rounds": _number(optional=True),
                            "order": _text(12, choices=_ORDERS),
                            "hand_size": _number(optional=True),
                            "target": _number(),
                            "open_train_points": _number(),
                            "strategic_error": _flag,
                            "adjustments": _flag,
                        }
                    ),
                    "ended_early": _flag,
                    "finished_at": _when(optional=True),
                    "version": _number(),
                    "edit_token": _token,
                    "view_token": _token,
                    "created_by": _text(64, optional=True),
                    "season": _number(optional=True),
                    "club_night": _number(optional=True),
                    "table_number": _number(optional=True),
                    "players": _list(
                        _record(
                            {
                                "seat": _number(),
                                "name": _text(40),
                                "team": _number(optional=True),
                                "roster": _number(optional=True),
                                "joined_round": _number(),
                                "place": _number(optional=True),
                                "place_shared": _number(optional=True),
                                "total": _number(optional=True),
                                "rounds_played": _number(optional=True),
                                "zero_rounds": _number(optional=True),
                            }
                        )
                    ),
                    "rounds": _list(
                        _record(
                            {
                                "number": _number(),
                                "engine": _number(optional=True),
                                "out_seat": _number(optional=True),
                                "blocked": _flag,
                                "version": _number(),
                                "created_at": _when(),
                                "updated_at": _when(),
                                "hands": _list(
                                    _record(
                                        {
                                            "seat": _number(),
                                            "pips": _number(),
                                            "tiles": _text(10_000, optional=True),
                                            "penalty": _number(),
                                            "score": _number(),
                                            "went_out": _flag,
                                            "late": _flag,
                                        }
                                    )
                                ),
                                "penalties": _list(
                                    _record(
                                        {
                                            "seat": _number(),
                                            "kind": _text(20, choices=_PENALTIES),
                                            "points": _number(),
                                            "reason": _text(200),
                                        }
                                    )
                                ),
                            }
                        )
                    ),
                    "history": _list(
                        _record(
                            {
                                "at": _when(),
                                "action": _text(20),
                                "round_number": _number(optional=True),
                                "player": _text(40, optional=True),
                                "old_value": _text(400, optional=True),
                                "new_value": _text(400, optional=True),
                                "device": _text(64, optional=True),
                            }
                        )
                    ),
                }
            )
        ),
    }
)


def _unique(values: Iterable[Any], path: str, what: str) -> None:
    seen: set[Any] = set()
    for value in values:
        if value in seen:
            raise _problem(path, f"{what} {value!r} appears twice")
        seen.add(value)


def _check_references(doc: Mapping[str, Any]) -> None:
    """Every reference points at something in the document, and nothing is there twice."""
    emails = {_normal(user["email"]) for user in doc["users"]}
    _unique((_normal(user["email"]) for user in doc["users"]), "users", "email")

    def known_user(email: str | None, path: str) -> None:
        if email is not None and _normal(email) not in emails:
            raise _problem(path, f"{email!r} is not in users")

    for index, member in enumerate(doc["members"]):
        known_user(member["user"], f"members[{index}].user")
    _unique((_normal(m["user"]) for m in doc["members"]), "members", "user")
    for index, invite in enumerate(doc["invites"]):
        known_user(invite["created_by"], f"invites[{index}].created_by")

    refs = {player["ref"] for player in doc["roster"]}
    _unique((player["ref"] for player in doc["roster"]), "roster", "ref")
    for index, player in enumerate(doc["roster"]):
        path = f"roster[{index}]"
        known_user(player["user"], f"{path}.user")
        merged = player["merged_into"]
        if merged is not None and (merged not in refs or merged == player["ref"]):
            raise _problem(f"{path}.merged_into", f"{merged} is not another roster ref")

    seasons = {season["ref"] for season in doc["seasons"]}
    _unique((season["ref"] for season in doc["seasons"]), "seasons", "ref")
    nights = {night["ref"] for night in doc["club_nights"]}
    _unique((night["ref"] for night in doc["club_nights"]), "club_nights", "ref")
    for index, night in enumerate(doc["club_nights"]):
        if night["season"] is not None and night["season"] not in seasons:
            raise _problem(f"club_nights[{index}].season", f"{night['season']} is not a ref")

    for g, game in enumerate(doc["games"]):
        path = f"games[{g}]"
        if game["season"] is not None and game["season"] not in seasons:
            raise _problem(f"{path}.season", f"{game['season']} is not a season ref")
        if game["club_night"] is not None and game["club_night"] not in nights:
            raise _problem(f"{path}.club_night", f"{game['club_night']} is not a club night ref")
        seats = {player["seat"] for player in game["players"]}
        _unique((p["seat"] for p in game["players"]), f"{path}.players", "seat")
        for p, player in enumerate(game["players"]):
            if player["roster"] is not None and player["roster"] not in refs:
                raise _problem(f"{path}.players[{p}].roster", f"{player['roster']} is not a ref")
        _unique((r["number"] for r in game["rounds"]), f"{path}.rounds", "number")
        for r, row in enumerate(game["rounds"]):
            where = f"{path}.rounds[{r}]"
            if row["out_seat"] is not None and row["out_seat"] not in seats:
                raise _problem(f"{where}.out_seat", f"no player sits at seat {row['out_seat']}")
            _unique((h["seat"] for h in row["hands"]), f"{where}.hands", "seat")
            for part in ("hands", "penalties"):
                for i, item in enumerate(row[part]):
                    if item["seat"] not in seats:
                        raise _problem(f"{where}.{part}[{i}].seat", "no player sits there")

    tokens = [doc["club"]["public_token"]]
    tokens += [invite["token"] for invite in doc["invites"]]
    tokens += [t for game in doc["games"] for t in (game["edit_token"], game["view_token"])]
    _unique(tokens, "", "token")


def check_document(data: object) -> dict[str, Any]:
    """The document, checked and with datetimes parsed; ImportProblem says what is wrong."""
    if not isinstance(data, dict):
        raise ImportProblem("Not a club export: expected a JSON object.")
    if data.get("format") != FORMAT:
        raise ImportProblem(f"Not a club export: format should be {FORMAT!r}.")
    if data.get("version") != VERSION:
        raise ImportProblem(
            f"Unsupported export version {data.get('version')!r}: this instance reads "
            f"version {VERSION}."
        )
    doc = _DOCUMENT(data, "")
    _check_references(doc)
    return doc


def count_rows(doc: Mapping[str, Any]) -> dict[str, int]:
    """How many of each thing a (checked) document holds, for the import's summary."""
    games = doc["games"]
    return {
        "members": len(doc["members"]),
        "invites": len(doc["invites"]),
        "roster": len(doc["roster"]),
        "seasons": len(doc["seasons"]),
        "club_nights": len(doc["club_nights"]),
        "games": len(games),
        "rounds": sum(len(game["rounds"]) for game in games),
        "history": sum(len(game["history"]) for game in games),
    }


# Import ------------------------------------------------------------------------------------


def _taken_tokens(doc: Mapping[str, Any]) -> list[str]:
    """Which of the document's tokens this instance already uses (links must stay unique)."""
    taken: list[str] = []
    club_token = doc["club"]["public_token"]
    if db.session.execute(select(Club.id).where(Club.public_token == club_token)).first():
        taken.append(f"the club's public page token {club_token!r}")
    invite_tokens = [invite["token"] for invite in doc["invites"]]
    game_tokens = [t for game in doc["games"] for t in (game["edit_token"], game["view_token"])]
    for start in range(0, len(invite_tokens), _TOKEN_BATCH):
        batch = invite_tokens[start : start + _TOKEN_BATCH]
        query = select(Invite.token).where(Invite.token.in_(batch))
        taken += [f"invite token {t!r}" for t in db.session.execute(query).scalars()]
    for start in range(0, len(game_tokens), _TOKEN_BATCH):
        batch = game_tokens[start : start + _TOKEN_BATCH]
        query = select(Game.edit_token, Game.view_token).where(
            or_(Game.edit_token.in_(batch), Game.view_token.in_(batch))
        )
        for edit, view in db.session.execute(query).all():
            taken += [f"game token {t!r}" for t in (edit, view) if t in batch]
    return taken


def _users(doc: Mapping[str, Any]) -> tuple[dict[str, User], list[str]]:
    """The document's users by lower-cased email: existing accounts, or new ones (no password)."""
    by_email: dict[str, User] = {}
    created: list[str] = []
    for entry in doc["users"]:
        email = _normal(entry["email"])
        user = db.session.execute(
            select(User).where(func.lower(User.email) == email)
        ).scalar_one_or_none()
        if user is None:
            user = User(email=email, name=entry["name"], password_hash=None)
            db.session.add(user)
            created.append(email)
        by_email[email] = user
    return by_email, created


def _import_game(doc_game: Mapping[str, Any], club: Club, refs: _Refs) -> Game:
    """One game with its players, rounds, hands, penalties and history (flushed, not committed)."""
    rules = doc_game["rules"]
    game = Game(
        club_id=club.id,
        created_at=doc_game["created_at"],
        updated_at=doc_game["updated_at"],
        ended_early=doc_game["ended_early"],
        finished_at=doc_game["finished_at"],
        version=doc_game["version"],
        edit_token=doc_game["edit_token"],
        view_token=doc_game["view_token"],
        created_by=doc_game["created_by"],
        season_id=refs.of(refs.seasons, doc_game["season"]),
        club_night_id=refs.of(refs.nights, doc_game["club_night"]),
        table_number=doc_game["table_number"],
        **rules,
    )
    game.players = [
        Player(
            **{key: value for key, value in p.items() if key != "roster"},
            roster_player_id=refs.of(refs.roster, p["roster"]),
        )
        for p in doc_game["players"]
    ]
    game.round_rows = [
        Round(
            number=r["number"],
            engine=r["engine"],
            out_seat=r["out_seat"],
            blocked=r["blocked"],
            version=r["version"],
            created_at=r["created_at"],
            updated_at=r["updated_at"],
            hands=[Hand(**hand) for hand in r["hands"]],
            penalties=[Penalty(**penalty) for penalty in r["penalties"]],
        )
        for r in doc_game["rounds"]
    ]
    db.session.add(game)
    db.session.flush()
    db.session.add_all(Change(game_id=game.id, **change) for change in doc_game["history"])
    return game


def import_club(data: object) -> ImportReport:
    """Import a club export as a new club, all or nothing; ImportProblem if it cannot be."""
    doc = check_document(data)
    taken = _taken_tokens(doc)
    if taken:
        raise ImportProblem(
            "This instance already uses "
            + ", ".join(taken[:3])
            + (f" and {len(taken) - 3} more" if len(taken) > 3 else "")
            + ": was this club imported here before? Nothing was imported."
        )
    try:
        users, created = _users(doc)
        source = doc["club"]
        club = Club(
            name=source["name"],
            created_at=source["created_at"],
            public=source["public"],
            public_token=source["public_token"],
            **source["rules"],
        )
        db.session.add(club)
        db.session.flush()
        db.session.add_all(
            Membership(
                club_id=club.id,
                user_id=users[_normal(m["user"])].id,
                role=m["role"],
                joined_at=m["joined_at"],
            )
            for m in doc["members"]
        )
        db.session.add_all(
            Invite(
                club_id=club.id,
                token=i["token"],
                role=i["role"],
                created_by=users[_normal(i["created_by"])].id if i["created_by"] else None,
                created_at=i["created_at"],
                expires_at=i["expires_at"],
                revoked_at=i["revoked_at"],
            )
            for i in doc["invites"]
        )
        seasons = {
            entry["ref"]: Season(
                club_id=club.id,
                name=entry["name"],
                starts_on=entry["starts_on"],
                ends_on=entry["ends_on"],
                method=entry["method"],
                min_games=entry["min_games"],
                points_table=entry["points_table"],
                created_at=entry["created_at"],
                **entry["rules"],
            )
            for entry in doc["seasons"]
        }
        db.session.add_all(seasons.values())
        db.session.flush()
        nights = {
            entry["ref"]: ClubNight(
                club_id=club.id,
                season_id=seasons[entry["season"]].id if entry["season"] is not None else None,
                name=entry["name"],
                played_on=entry["played_on"],
                created_at=entry["created_at"],
            )
            for entry in doc["club_nights"]
        }
        db.session.add_all(nights.values())
        roster: dict[int, RosterPlayer] = {}
        for entry in doc["roster"]:
            user = users[_normal(entry["user"])] if entry["user"] else None
            roster[entry["ref"]] = RosterPlayer(
                club_id=club.id,
                display_name=entry["display_name"],
                user_id=user.id if user else None,
                archived=entry["archived"],
                created_at=entry["created_at"],
            )
        db.session.add_all(roster.values())
        db.session.flush()
        for entry in doc["roster"]:
            if entry["merged_into"] is not None:
                roster[entry["ref"]].merged_into_id = roster[entry["merged_into"]].id
        refs = _Refs(
            roster={ref: row.id for ref, row in roster.items()},
            seasons={ref: row.id for ref, row in seasons.items()},
            nights={ref: row.id for ref, row in nights.items()},
        )
        for doc_game in doc["games"]:
            _import_game(doc_game, club, refs)
        db.session.commit()
    except IntegrityError as error:
        # A token or account made by someone else while this import ran.
        db.session.rollback()
        raise ImportProblem(f"The import clashes with this instance's data: {error.orig}") from None
    except BaseException:
        db.session.rollback()
        raise
    return ImportReport(club, count_rows(doc), created)


def import_club_json(data: dict[str, Any]) -> Club:
    """Import a club export (the dict of export_club_json) as a new club; ValueError if junk."""
    return import_club(data).club


# Accounts made by an import --------------------------------------------------------------


def set_password(email: str, password: str) -> User:
    """Give an account a new password (imported accounts have none) and sign out its sessions."""
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ValueError(f"A password needs {MIN_PASSWORD} to {MAX_PASSWORD} characters.")
    user = db.session.execute(
        select(User).where(func.lower(User.email) == _normal(email))
    ).scalar_one_or_none()
    if user is None:
        raise LookupError(f"There is no account with the email {email!r}.")
    # The same hashing as the accounts pages, so the password opens the account there.
    method = current_app.config.get("PASSWORD_HASH_METHOD", "scrypt")
    user.password_hash = generate_password_hash(password, method=method)
    user.session_version += 1
    db.session.commit()
    return user
