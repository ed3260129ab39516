"""Reading a game for its pages, its API answer and its charts: one snapshot per game version.

What those show (rounds, scores, standings, what comes next) changes only when the game's
version does: every write bumps it in the same transaction. So each version is read and worked
out once, then kept in a small in-process LRU; a page view of an unchanged game reads the game's
own row and nothing else of its rounds.

A snapshot is kept only when it is certainly the version it is filed under:
- the session has written nothing that is not committed yet (a write that is later rolled
  back must never be remembered), and
- the game's version read again after its rounds is the one read before them (no other phone
  committed a round in between: each read sees only committed rows).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from flask import current_app
from sqlalchemy import event, select
from sqlalchemy.orm import ORMExecuteState, Session

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.lru import Lru
from scorekeeper.models import Game
from scorekeeper.services import games as game_service

# Snapshots kept per process (an 8-player, 13-round game's is a few kB).
SIZE = 512
# session.info flag: this session wrote something that is not committed yet.
_WROTE = "scorekeeper_uncommitted_writes"


@dataclass(frozen=True)
class Snapshot:
    """One version of a game as the core sees it, with what its sheet needs besides."""

    version: int
    setup: core.GameSetup
    results: tuple[core.RoundResult, ...]
    state: core.GameState
    # Each recorded round's number, and per hand (in seat order) whether it is a late arrival's
    # missed round, scored by one of `late_rules`.
    numbers: tuple[int, ...]
    late: tuple[tuple[bool, ...], ...]
    late_rules: tuple[core.LateRule, ...]

    @property
    def any_late(self) -> bool:
        return any(any(flags) for flags in self.late)


def snapshot_of(game: Game) -> Snapshot:
    """The game as of its loaded version: from the cache, or read (in a fixed number of queries:
    players, rounds, hands, penalties) and worked out by the core, and kept if certain."""
    key = _key(game)
    cache = _cache()
    found = cache.get(key)
    if found is not None:
        return found
    version = game.version
    game_service.load_game(game.id)  # fills the rows of `game` itself (same identity)
    results = tuple(game_service.results_of(game))
    snapshot = Snapshot(
        version=version,
        setup=game_service.setup_of(game),
        results=results,
        state=game_service.state_of(game, list(results)),
        numbers=tuple(row.number for row in game.round_rows),
        late=tuple(tuple(hand.late for hand in row.hands) for row in game.round_rows),
        late_rules=tuple(game_service.late_rules_used(game)),
    )
    if not db.session.info.get(_WROTE) and _committed_version(game.id) == version:
        cache.put(key, snapshot)
    return snapshot


def _key(game: Game) -> Hashable:
    # A recreated database reuses ids and versions, never share tokens.
    return (game.id, game.view_token, game.version, game.ended_early)


def _committed_version(game_id: int) -> int | None:
    return db.session.execute(select(Game.version).where(Game.id == game_id)).scalar_one_or_none()


def _cache() -> Lru[Snapshot]:
    """The app's snapshots (each app its own: a test's fresh database never sees another's)."""
    return current_app.extensions.setdefault("scorekeeper_snapshots", Lru(SIZE))


def forget_all() -> None:
    """Drop every kept snapshot (tests and benchmarks use it to time a first read)."""
    _cache().clear()


# Knowing whether a session holds writes that are not committed yet ------------------------------


@event.listens_for(Session, "after_flush")
def _after_flush(session: Session, _context: object) -> None:
    session.info[_WROTE] = True


@event.listens_for(Session, "do_orm_execute")
def _on_execute(state: ORMExecuteState) -> None:
    if state.is_insert or state.is_update or state.is_delete:
        state.session.info[_WROTE] = True


@event.listens_for(Session, "after_commit")
@event.listens_for(Session, "after_rollback")
def _after_transaction(session: Session) -> None:
    session.info.pop(_WROTE, None)
