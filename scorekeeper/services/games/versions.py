"""The one place a game's version moves: any write to what a game's pages show bumps it.

Every page, API answer and chart of a game is keyed by its version (ETags, the snapshot cache,
chart files), so a write that forgot to bump it would serve stale pages with every test green.
No service bumps it by hand: before each flush of the app's session, every game whose own row,
seats, rounds, hands, penalties or history lines are added, changed or deleted moves to its next
version, in the same transaction, before the flush writes anything else (so every write to a
game takes the game row first: one lock order on PostgreSQL).

A caller that read version N and must not overwrite anyone's change since (the API's If-Match,
or a page's stale check) says so with `expect`; the bump then fails with StaleGame if the game
is no longer at N.
"""

from __future__ import annotations

from itertools import chain
from typing import Any, cast

from sqlalchemy import Table, event, update
from sqlalchemy.orm import ORMExecuteState, Session
from sqlalchemy.orm.attributes import set_committed_value

from scorekeeper.extensions import db
from scorekeeper.models import Change, Game, Hand, Penalty, Player, Round, utcnow

# session.info keys, for the transaction under way: the versions callers expect, the versions it
# moved games to, and the games it created (version 1 is their first: nobody saw an earlier one).
_EXPECTED = "scorekeeper_expected_versions"
_BUMPED = "scorekeeper_new_versions"
_CREATED = "scorekeeper_created_games"


class StaleGame(Exception):
    """The game changed since the page (or API client) read it: nothing was saved."""

    def __init__(self, game: Any, round_number: int | None = None):
        self.game = game
        self.round_number = round_number
        super().__init__(f"game {getattr(game, 'id', game)} changed (round {round_number})")


def expect(game: Game, version: int | None) -> None:
    """The next write to `game` in this session must find it at `version` (None: any)."""
    if version is not None:
        db.session.info.setdefault(_EXPECTED, {})[game.id] = version


def new_version(game_id: int) -> int | None:
    """The version this transaction moved the game to (None if it did not), until it ends."""
    bumped: dict[int, int] = db.session.info.get(_BUMPED, {})
    return bumped.get(game_id)


def _game_id(session: Session, obj: object) -> int | None:
    """The game a changed row belongs to (None: not a game's row, or a game not stored yet)."""
    if isinstance(obj, Game):
        return obj.id if obj not in session.new and session.is_modified(obj) else None
    if isinstance(obj, Hand | Penalty):
        obj = obj.round if obj.round is not None else session.get(Round, obj.round_id)
        if obj is None:
            return None
    if isinstance(obj, Round | Player):
        return obj.game_id if obj.game_id is not None else getattr(obj.game, "id", None)
    if isinstance(obj, Change):
        return obj.game_id
    return None


@event.listens_for(db.session, "before_flush")
def _bump_changed_games(session: Session, _context: object, _instances: object) -> None:
    created: list[Game] = session.info.setdefault(_CREATED, [])
    created.extend(obj for obj in session.new if isinstance(obj, Game))
    deleted_games = {obj.id for obj in session.deleted if isinstance(obj, Game)}
    ids = (_game_id(session, obj) for obj in chain(session.new, session.dirty, session.deleted))
    changed = {game_id for game_id in ids if game_id is not None}
    changed -= deleted_games | {game.id for game in created}
    changed -= set(session.info.get(_BUMPED, {}))  # one new version a transaction
    expected: dict[int, int] = session.info.get(_EXPECTED, {})
    bumped: dict[int, int] = session.info.setdefault(_BUMPED, {})
    now = utcnow()
    for game_id in sorted(changed):  # one order across games too
        condition = [Game.id == game_id]
        if game_id in expected:
            condition.append(Game.version == expected.pop(game_id))
        version = (
            session.connection()
            .execute(
                update(cast(Table, Game.__table__))  # a declared class's table is a Table
                .where(*condition)
                .values(version=Game.version + 1, updated_at=now)
                .returning(Game.version)
            )
            .scalar_one_or_none()
        )
        if version is None:
            raise StaleGame(game_id)
        bumped[game_id] = version
        game = session.identity_map.get(session.identity_key(Game, game_id))
        if game is not None:
            set_committed_value(game, "version", version)
            set_committed_value(game, "updated_at", now)


@event.listens_for(db.session, "after_commit")
@event.listens_for(db.session, "after_rollback")
def _forget_transaction(session: Session) -> None:
    for key in (_EXPECTED, _CREATED, _BUMPED):
        session.info.pop(key, None)


# Tables whose rows are a game's: a bulk UPDATE or DELETE of them would skip the bump above.
_GAME_TABLES = frozenset(
    model.__tablename__ for model in (Game, Player, Round, Hand, Penalty, Change)
)


@event.listens_for(db.session, "do_orm_execute")
def _refuse_bulk_game_writes(state: ORMExecuteState) -> None:
    table: Any = getattr(state.statement, "table", None)  # a Table for UPDATE and DELETE
    if (state.is_update or state.is_delete) and getattr(table, "name", None) in _GAME_TABLES:
        raise RuntimeError(
            f"bulk {'UPDATE' if state.is_update else 'DELETE'} of {table.name}: change a game's "
            "rows through their objects, so that the game's version moves (versions.py)"
        )
