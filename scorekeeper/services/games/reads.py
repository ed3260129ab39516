"""Reading games: which game a page or link points to, who may do what with it, its history,
and the games a device knows. What a game's rounds add up to comes from its snapshot."""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, Row, and_, bindparam, select

from scorekeeper.extensions import db
from scorekeeper.models import Change, DeviceGame, Game, Player
from scorekeeper.services.games.snapshot import light_read

# A device's right to a game, joined to the game (None where the device never opened it).
_THIS_DEVICE = and_(DeviceGame.game_id == Game.id, DeviceGame.device == bindparam("device"))
# game_for_device's query, built once (it runs for every page of a game).
_GAME_FOR_DEVICE = (
    select(Game, DeviceGame.can_edit)
    .outerjoin(DeviceGame, _THIS_DEVICE)
    .where(Game.id == bindparam("game_id"))
)
# The game page's query: the game's columns as a plain row (a page that only reads needs no
# object in the session's identity map) and this device's right, in one statement.
_games, _device_games = Game.__table__, DeviceGame.__table__
_PAGE_FOR_DEVICE = (
    select(_games, _device_games.c.can_edit.label("device_can_edit"))
    .outerjoin(
        _device_games,
        and_(
            _device_games.c.game_id == _games.c.id,
            _device_games.c.device == bindparam("device"),
        ),
    )
    .where(_games.c.id == bindparam("game_id"))
)
# game_ref's queries: plain columns, no objects.
_REF = (
    select(Game.id, Game.version, Game.view_token, Game.club_id, DeviceGame.can_edit)
    .select_from(Game)
    .outerjoin(DeviceGame, _THIS_DEVICE)
)
_REF_FOR_DEVICE = _REF.where(Game.id == bindparam("game_id"))
_REF_BY_TOKEN = _REF.where(Game.view_token == bindparam("view_token"))


def _right(device: str | None, can_edit: bool | None) -> str | None:
    """'edit', 'view' or None, from a device's row for a game (None: it has none)."""
    if not device or can_edit is None:
        return None
    return "edit" if can_edit else "view"


# game_keys' query: what says who may read a game and which version it is at.
_KEYS = select(
    Game.id, Game.version, Game.view_token, Game.edit_token, Game.table_token, Game.club_id
).where(Game.id == bindparam("game_id"))


def game_keys(game_id: int, engine: Engine | None = None) -> Any:
    """The game's id, version, tokens and club as plain columns, without its row object, in
    one light query: enough to check a token and read the game's snapshot (the API's GET, and
    its answer kept before Flask)."""
    return light_read(_KEYS, {"game_id": game_id}, engine)


def opens(token: str, keys: Any, *, edit: bool) -> bool:
    """True if a bearer token is this quick game's own token that allows it: its edit token,
    or (to read, `edit` False) its view token too. Compared in constant time."""
    given = token.encode()
    tokens = [keys.edit_token] if edit else [keys.edit_token, keys.view_token]
    return any(hmac.compare_digest(given, known.encode()) for known in tokens)


def game_row(game_id: int) -> Game | None:
    """Only the game's own row (its snapshot has the rounds)."""
    return db.session.get(Game, game_id)


def game_for_device(game_id: int, device: str | None) -> tuple[Game | None, str | None]:
    """The game's row and what this device may do with it (as device_access), read together."""
    row = db.session.execute(
        _GAME_FOR_DEVICE, {"game_id": game_id, "device": device or ""}
    ).one_or_none()
    if row is None:
        return None, None
    game, can_edit = row
    return game, _right(device, can_edit)


def game_columns_for_device(game_id: int, device: str | None) -> tuple[Any, str | None]:
    """As game_for_device, with the game's columns as a plain row instead of its object (the
    game page's GET: every column, read-only)."""
    row = db.session.execute(
        _PAGE_FOR_DEVICE, {"game_id": game_id, "device": device or ""}
    ).one_or_none()
    if row is None:
        return None, None
    return row, _right(device, row.device_can_edit)


@dataclass(frozen=True)
class GameRef:
    """Which game and version, and whose: enough to serve a cached image of it (its charts
    and QR code), read without the game's row object."""

    id: int
    version: int
    view_token: str
    club_id: int | None


def game_ref(
    *,
    device: str | None = None,
    game_id: int | None = None,
    view_token: str | None = None,
    engine: Engine | None = None,
) -> tuple[GameRef | None, str | None]:
    """The game with this id or this share token, and what `device` may do with it (as
    device_access), in one light query outside the session (on `engine`: see light_read)."""
    if game_id is not None:
        query, params = _REF_FOR_DEVICE, {"game_id": game_id, "device": device or ""}
    else:
        query, params = _REF_BY_TOKEN, {"view_token": view_token or "", "device": device or ""}
    row = light_read(query, params, engine)
    if row is None:
        return None, None
    return GameRef(row.id, row.version, row.view_token, row.club_id), _right(device, row.can_edit)


def game_by_token(token: str, *, edit: bool) -> Game | None:
    """The game row a share link (view) or edit link points to."""
    column = Game.edit_token if edit else Game.view_token
    return db.session.execute(select(Game).where(column == token)).scalar_one_or_none()


def game_by_table_token(token: str) -> Game | None:
    """The game row a table link points to (the players' phones send their hands with it)."""
    return db.session.execute(select(Game).where(Game.table_token == token)).scalar_one_or_none()


def device_access(device: str | None, game: Game | GameRef) -> str | None:
    """'edit', 'view' or None: what this device may do with the game."""
    if not device:
        return None
    can_edit = db.session.execute(
        select(DeviceGame.can_edit).where(
            DeviceGame.device == device, DeviceGame.game_id == game.id
        )
    ).scalar_one_or_none()
    return _right(device, can_edit)


def history_of(game: Game, limit: int = 200) -> list[Row[*tuple[Any, ...]]]:
    """The game's history, newest first: plain rows with a Change's fields (to read, not edit)."""
    return list(db.session.execute(_HISTORY, {"game_id": game.id, "limit": limit}))


_HISTORY = (
    select(Change.__table__)
    .where(Change.__table__.c.game_id == bindparam("game_id"))
    .order_by(Change.__table__.c.id.desc())
    .limit(bindparam("limit"))
)


@dataclass(frozen=True)
class DeviceGameLine:
    """One game of a device's list: who plays, what, when it last changed, and this device's
    right (read as plain columns: the home page lists up to 50)."""

    id: int
    players: tuple[str, ...]
    game_type: str
    set_size: int
    target: int
    updated_at: datetime
    finished: bool
    can_edit: bool


def games_of_device(device: str | None, limit: int = 50) -> list[DeviceGameLine]:
    """The games this device created or opened, newest first, with its edit right."""
    if not device:
        return []
    games, devices = Game.__table__.c, DeviceGame.__table__.c
    rows = db.session.execute(
        select(
            games.id,
            games.game_type,
            games.set_size,
            games.target,
            games.updated_at,
            games.finished_at,
            devices.can_edit,
        )
        .join_from(Game.__table__, DeviceGame.__table__, devices.game_id == games.id)
        .where(devices.device == device)
        .order_by(games.updated_at.desc(), games.id.desc())
        .limit(limit)
    ).all()
    names: dict[int, list[str]] = {row.id: [] for row in rows}
    if names:
        seats = Player.__table__.c
        for game_id, name in db.session.execute(
            select(seats.game_id, seats.name)
            .where(seats.game_id.in_(list(names)))
            .order_by(seats.game_id, seats.seat)
        ):
            names[game_id].append(name)
    return [
        DeviceGameLine(
            row.id,
            tuple(names[row.id]),
            row.game_type,
            row.set_size,
            row.target,
            row.updated_at,
            row.finished_at is not None,
            bool(row.can_edit),
        )
        for row in rows
    ]
