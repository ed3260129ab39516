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
from dataclasses import dataclass, replace

from flask import current_app
from sqlalchemy import Row, bindparam, event, select
from sqlalchemy.orm import ORMExecuteState, Session

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.lru import Lru
from scorekeeper.models import Game, Hand, Penalty, Player, Round
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
    # Kept in the cache: certainly this version, so what is rendered from it may be kept too.
    kept: bool = False

    @property
    def any_late(self) -> bool:
        return any(any(flags) for flags in self.late)


def snapshot_of(game: Game) -> Snapshot:
    """The game as of its loaded version: from the cache, or read (as plain rows, in a fixed
    number of queries) and worked out by the core, and kept if certain."""
    key = _key(game)
    cache = _cache()
    found = cache.get(key)
    if found is not None:
        return found
    version = game.version
    players, rounds = _stored(game.id)
    names = {player.seat: player.name for player in players}
    setup = game_service.setup_of(game, players)
    results = tuple(game_service.result_of(game, row, names) for row in rounds)
    late_seats = {hand.seat for row in rounds for hand in row.hands if hand.late}
    snapshot = Snapshot(
        version=version,
        setup=setup,
        results=results,
        state=core.game_state(setup, list(results), ended_early=game.ended_early),
        numbers=tuple(row.number for row in rounds),
        late=tuple(tuple(hand.late for hand in row.hands) for row in rounds),
        late_rules=tuple(game_service.late_rules_used(game, late_seats, players)),
    )
    if not db.session.info.get(_WROTE) and _committed_version(game.id) == version:
        snapshot = replace(snapshot, kept=True)
        cache.put(key, snapshot)
    return snapshot


@dataclass(frozen=True)
class _StoredRound:
    """A round as stored, read as plain rows: what services.games.result_of reads of a Round."""

    number: int
    engine: int | None
    out_seat: int | None
    blocked: bool
    hands: list[Row]
    penalties: list[Row]


def _stored(game_id: int) -> tuple[list[Row], list[_StoredRound]]:
    """The game's seats and rounds (with hands and penalties) as plain rows, in seat, round and
    entry order: three queries, and no objects to build (a snapshot only reads them)."""
    params = {"game_id": game_id}
    players = list(db.session.execute(_PLAYERS, params))
    rounds: dict[int, _StoredRound] = {}
    for row in db.session.execute(_ROUNDS_AND_HANDS, params):
        stored = rounds.get(row.id)
        if stored is None:
            stored = rounds[row.id] = _StoredRound(
                row.number, row.engine, row.out_seat, row.blocked, [], []
            )
        stored.hands.append(row)
    for penalty in db.session.execute(_PENALTIES, params):
        rounds[penalty.round_id].penalties.append(penalty)
    return players, list(rounds.values())


_players, _rounds = Player.__table__.c, Round.__table__.c
_hands, _penalties = Hand.__table__.c, Penalty.__table__.c
_PLAYERS = (
    select(_players.seat, _players.name, _players.team)
    .where(_players.game_id == bindparam("game_id"))
    .order_by(_players.seat)
)
_ROUNDS_AND_HANDS = (
    select(
        _rounds.id,
        _rounds.number,
        _rounds.engine,
        _rounds.out_seat,
        _rounds.blocked,
        _hands.seat,
        _hands.pips,
        _hands.tiles,
        _hands.penalty,
        _hands.score,
        _hands.went_out,
        _hands.late,
    )
    .join_from(Round.__table__, Hand.__table__, _hands.round_id == _rounds.id)
    .where(_rounds.game_id == bindparam("game_id"))
    .order_by(_rounds.number, _hands.seat)
)
_PENALTIES = (
    select(
        _penalties.round_id, _penalties.seat, _penalties.kind, _penalties.points, _penalties.reason
    )  # fmt: skip
    .join_from(Penalty.__table__, Round.__table__, _penalties.round_id == _rounds.id)
    .where(_rounds.game_id == bindparam("game_id"))
    .order_by(_penalties.id)
)


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
