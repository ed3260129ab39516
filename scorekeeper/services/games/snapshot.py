"""The one way to read a game: a snapshot of one committed version, kept per version.

What a game's pages, API answers and charts show (rounds, scores, standings, what comes next)
changes only when its version does (versions.py bumps it with every write). So each version is
read as plain rows and worked out by the core once, then kept in a small LRU: the only cache of
game data in the app. A page view of an unchanged game reads the game's own row and nothing
else of it.

A snapshot only ever shows committed rows: it is read through the request's session while the
session has not written to the game (every write moves the version: versions.py), else on a
read-only connection of its own (a write that is later rolled back is never remembered). It is
kept only if the game's version read after its rounds is the one read before them: no other
phone committed a change in between.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from blinker import Namespace
from flask import Flask, current_app
from sqlalchemy import Connection, Engine, Row, Select, bindparam, select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.infra.lru import Lru
from scorekeeper.models import Change, Club, Game, Hand, Penalty, Player, Round, etag_of
from scorekeeper.services.games import mapping, versions

# Snapshots kept per process (an 8-player, 13-round game's is a few kB).
SIZE = 512
# History lines of a game's late arrivals, and the rule word in them: "joined late (highest)".
JOINED_LATE = "joined late"
# Reading again when a commit lands between the first and last query: rare, so a few tries.
TRIES = 3
# The latest history lines a snapshot holds (the game page shows them; every change to a game,
# its history lines included, moves its version).
LATEST_CHANGES = 10
# Rendered parts of kept versions' pages (sheet, standings and charts: 10-40 kB of HTML each; a
# round sheet's hands up to ~150 kB), each with its gzip blocks beside it, by the part's ETag:
# every phone watching a game, and each reload of its page, gets the same. Whole answers made
# of them are kept here too (answers.py: a page per phone, language and encoding, ~15-100 kB).
PARTS = 256
# What a kept part is: its text, or what is made of it once (compression.py's blocks).
K = TypeVar("K")


@dataclass(frozen=True)
class Snapshot:
    """One committed version of a game as the core sees it, with what its sheet needs besides."""

    id: int
    version: int
    # Its share token: what tells it from another game that had or will have its id (its key,
    # models.game_key, goes into the ETag of every part and answer made of it).
    view_token: str
    setup: core.GameSetup
    results: tuple[core.RoundResult, ...]
    state: core.GameState
    # Each recorded round's number, and per hand (in seat order) whether it is a late arrival's
    # missed round, scored by one of `late_rules`.
    numbers: tuple[int, ...]
    late: tuple[tuple[bool, ...], ...]
    late_rules: tuple[core.LateRule, ...]
    # Each recorded round's own version (an edit form sends it back to catch a stale edit).
    round_versions: tuple[int, ...] = ()
    # Each player's seat number, in seat order (the seat a hand is stored under).
    seat_numbers: tuple[int, ...] = ()
    ended_early: bool = False
    # The latest history lines, newest first (rows with a Change's fields).
    latest_changes: tuple[Row[*tuple[Any, ...]], ...] = ()
    # Kept in the cache: read whole from one committed version.
    kept: bool = False

    @property
    def seat_of(self) -> dict[str, int]:
        """Each player's seat number, by name."""
        return dict(zip(self.setup.players, self.seat_numbers, strict=True))

    @property
    def any_late(self) -> bool:
        return any(any(flags) for flags in self.late)

    @property
    def etag(self) -> str:
        return etag_of(self.id, self.version, self.view_token)

    def result(self, number: int) -> core.RoundResult | None:
        """Round `number` as recorded, or None."""
        index = self._index(number)
        return None if index is None else self.results[index]

    def round_version(self, number: int) -> int | None:
        """Round `number`'s own version, or None."""
        index = self._index(number)
        return None if index is None else self.round_versions[index]

    def late_seats(self, number: int) -> frozenset[str]:
        """The late arrivals who missed round `number` (their hands follow from the others')."""
        index = self._index(number)
        if index is None:
            return frozenset()
        flags = self.late[index]
        hands = self.results[index].hands
        return frozenset(hand.player for hand, late in zip(hands, flags, strict=True) if late)

    def missed_seats(self, number: int) -> frozenset[str]:
        """Who missed round `number`, late or gone (their hands follow from the others')."""
        result = self.result(number)
        away = frozenset(hand.player for hand in result.hands if hand.away) if result else set()
        return self.late_seats(number) | away

    def _index(self, number: int) -> int | None:
        return self.numbers.index(number) if number in self.numbers else None


def committed() -> Connection:
    """A connection of its own that only reads what is committed (SQLite: a read snapshot that
    never waits for the request's own write lock; sqlite.py reads its `read_only` option)."""
    return db.engine.connect().execution_options(read_only=True)


# Sent (by the engine) with each light read's SQL: SQLAlchemy's own events do not see them
# (tests and bench/run.py count statements).
light_reads = Namespace().signal("scorekeeper.light-read")
# A light read's statement as its database's driver takes it: SQL, its compiled form, its rows.
_light: dict[tuple[int, str], tuple[str, Any, Any]] = {}


def light_read(
    statement: Select[*tuple[Any, ...]], params: dict[str, Any], engine: Engine | None = None
) -> Any | None:
    """The first row of one SELECT of committed rows, or None: what `committed()` reads, on a
    pooled connection of the driver's own, with no transaction of SQLAlchemy's around the one
    statement (SQLite: one statement is its own snapshot; PostgreSQL: read committed, rolled
    back as the pool takes the connection back). For the one small query of an answer made
    before Flask (a poll's ETag, a kept answer's name): SQLAlchemy's connection, transaction
    and result cost ~7x the query itself there. Its columns come back as the driver gives them
    (SQLite's booleans as 1 and 0), by name. `engine`: the app's (db.engine, read in an app
    context, unless given: polls.py keeps it, to answer without pushing one)."""
    engine = engine if engine is not None else db.engine
    key = (id(statement), engine.dialect.name)
    found = _light.get(key)
    if found is None:
        compiled = statement.compile(dialect=engine.dialect)
        row = namedtuple("LightRow", statement.selected_columns.keys())  # type: ignore[misc]
        found = _light[key] = (str(compiled), compiled, row)
    sql, compiled, row_type = found
    values = compiled.construct_params(params)
    positions = compiled.positiontup or []
    args = tuple(values[name] for name in positions) if compiled.positional else values
    dbapi_error = engine.dialect.loaded_dbapi.Error
    if light_reads.receivers:
        light_reads.send(engine, statement=sql)
    try:
        connection = engine.raw_connection()
        try:
            cursor = connection.cursor()
            try:
                cursor.execute(sql, args)
                first = cursor.fetchone()
            finally:
                cursor.close()
        finally:
            connection.close()
    except dbapi_error as error:
        raise DBAPIError.instance(sql, args, error, dbapi_error) from error
    return None if first is None else row_type(*first)


def snapshot_of(game: Any) -> Snapshot:
    """The game at its latest committed version: kept, or read and kept.

    `game`: anything with the game's id, view_token and version (its row, or a GameRef): a
    snapshot of that version is served from memory; a newer committed version may be read."""
    cache = _cache()
    found = cache.get(_key(game.id, game.view_token, game.version))
    if found is not None:
        return found
    if versions.new_version(game.id) is None:
        # This transaction has not written to the game (every write to its rows moves its
        # version), so what the session reads of it is committed: no second connection.
        # Its row, if the session already read it, spares a query; if the game moved on since,
        # it is read again with the rest.
        connection = db.session.connection()
        if _whole_row(game):
            snapshot = _read_and_keep(connection, game.id, cache, game)
            if snapshot.kept:
                return snapshot
        return _read_and_keep(connection, game.id, cache)
    with committed() as connection:
        for _try in range(TRIES - 1):
            snapshot = _read_and_keep(connection, game.id, cache)
            if snapshot.kept:
                return snapshot
            connection.rollback()
        return _read_and_keep(connection, game.id, cache)


def _whole_row(game: Any) -> bool:
    """`game` holds every column of its row: its object, or the game page's plain row."""
    return isinstance(game, Game) or (isinstance(game, Row) and _COLUMNS <= set(game._fields))


def _read_and_keep(
    connection: Connection, game_id: int, cache: Lru[Snapshot], row: Any = None
) -> Snapshot:
    """Read the game's committed version on `connection` (`row`: its row, already read in the
    same transaction); keep it if no commit landed between the first query and the last (the
    version read again is the same)."""
    if row is None:
        row = connection.execute(_GAME, {"game_id": game_id}).one()
    snapshot = _read(connection, row)
    if _version(connection, game_id) == row.version:
        snapshot = replace(snapshot, kept=True)
        cache.put(_key(row.id, row.view_token, row.version), snapshot)
    return snapshot


def state_of(game: Any) -> core.GameState:
    """Where the game stands (next round, engine, opener, standings, finished): its snapshot's."""
    return snapshot_of(game).state


def _read(connection: Connection, game: Any) -> Snapshot:
    """Work one version of the game out from its rows (four queries, plus one for late
    arrivals' rules when the game has any)."""
    params = {"game_id": game.id}
    seats = list(connection.execute(_SEATS, params))
    rounds: dict[int, _StoredRound] = {}
    for row in connection.execute(_ROUNDS_AND_HANDS, params):
        stored = rounds.get(row.id)
        if stored is None:
            stored = rounds[row.id] = _StoredRound(
                row.number, row.version, row.engine, row.out_seat, row.blocked, [], []
            )
        stored.hands.append(row)
    for penalty in connection.execute(_PENALTIES, params):
        rounds[penalty.round_id].penalties.append(penalty)
    names = {seat.seat: seat.name for seat in seats}
    setup = mapping.setup_of(game, seats)
    results = tuple(mapping.result_of(stored, names) for stored in rounds.values())
    late_seats = {hand.seat for stored in rounds.values() for hand in stored.hands if hand.late}
    return Snapshot(
        id=game.id,
        version=game.version,
        view_token=game.view_token,
        setup=setup,
        results=results,
        state=core.game_state(setup, list(results), ended_early=game.ended_early),
        numbers=tuple(stored.number for stored in rounds.values()),
        late=tuple(tuple(hand.late for hand in stored.hands) for stored in rounds.values()),
        late_rules=_late_rules_used(connection, game, late_seats, names),
        round_versions=tuple(stored.version for stored in rounds.values()),
        seat_numbers=tuple(seat.seat for seat in seats),
        ended_early=game.ended_early,
        latest_changes=tuple(connection.execute(_LATEST_CHANGES, params)),
    )


@dataclass(frozen=True)
class _StoredRound:
    """A round as stored, read as plain rows (what mapping.result_of reads)."""

    number: int
    version: int
    engine: int | None
    out_seat: int | None
    blocked: bool
    hands: list[Row[*tuple[Any, ...]]]
    penalties: list[Row[*tuple[Any, ...]]]


def late_rules_recorded(connection: Connection | Session, game_id: int) -> dict[str, core.LateRule]:
    """The rule each late arrival's missed rounds are scored by, by player name: the club's
    rule when they joined, kept in the game's history (read on `connection`, or a session to
    see its own uncommitted rows)."""
    rules: dict[str, core.LateRule] = {}
    for player, value in connection.execute(_LATE_JOINS, {"game_id": game_id}):
        rule = mapping.late_rule_in(value)
        if player and rule is not None:
            rules[player] = rule
    return rules


def club_late_rule(connection: Connection, club_id: int | None) -> core.LateRule:
    """The club's late-arrival rule now (highest where there is no club or no valid rule)."""
    if club_id is None:
        return core.LateRule.HIGHEST
    rule = connection.execute(select(Club.late_rule).where(Club.id == club_id)).scalar()
    try:
        return core.LateRule(rule or "highest")
    except ValueError:
        return core.LateRule.HIGHEST


def _late_rules_used(
    connection: Connection, game: Row[*tuple[Any, ...]], late_seats: set[int], names: dict[int, str]
) -> tuple[core.LateRule, ...]:
    """The rules the late hands were scored by (for the sheet's legend), in rule order."""
    if not late_seats:
        return ()
    recorded = late_rules_recorded(connection, game.id)
    used = {
        recorded.get(names[seat]) or club_late_rule(connection, game.club_id) for seat in late_seats
    }
    return tuple(rule for rule in core.LateRule if rule in used)


def _key(game_id: int, view_token: str, version: int) -> tuple[int, str, int]:
    # An id and version can be another game's (a deleted game's id handed out again before
    # migration 0013, a recreated database), never a share token: every game gets a new one.
    return (game_id, view_token, version)


def _version(connection: Connection, game_id: int) -> int | None:
    return connection.execute(_VERSION, {"game_id": game_id}).scalar_one_or_none()


def kept_part(snapshot: Snapshot, etag: str, render: Callable[[], K]) -> K:
    """A part of this version's pages as `render` makes it, kept while the version is: under
    the game (its id and share token: another game with its id misses), the version and `etag`,
    the part's ETag (etags.py: all the part shows, its language, the reader's access). A
    snapshot not kept (read across a commit) keeps none."""
    if not snapshot.kept:
        return render()
    parts = _parts()
    key = (snapshot.id, snapshot.view_token, snapshot.version, etag)
    found = parts.get(key)
    if found is None:
        found = render()
        parts.put(key, found)
    return found


def kept_answer(name: str, app: Flask | None = None) -> Any | None:
    """A whole answer of a version's page kept under its name (answers.py: the version and
    all the answer shows), beside the parts it is made of; None if none is kept. `app`: the
    current one unless given (answers.py asks before any app context is pushed)."""
    return _parts(app).get(("answer", name))


def keep_answer(name: str, answer: Any) -> None:
    """Keep a whole answer under its name (see kept_answer)."""
    _parts().put(("answer", name), answer)


def _parts(app: Flask | None = None) -> Lru[Any]:
    """The app's kept parts and whole answers of versions."""
    extensions = (app or current_app).extensions
    parts: Lru[Any] = extensions.setdefault("scorekeeper_parts", Lru(PARTS))
    return parts


def _cache() -> Lru[Snapshot]:
    """The app's snapshots (each app its own: a test's fresh database never sees another's)."""
    cache: Lru[Snapshot] = current_app.extensions.setdefault("scorekeeper_snapshots", Lru(SIZE))
    return cache


_games, _seats = Game.__table__.c, Player.__table__.c
_rounds, _hands, _penalties = Round.__table__.c, Hand.__table__.c, Penalty.__table__.c
_changes = Change.__table__.c
_GAME = select(Game.__table__).where(_games.id == bindparam("game_id"))
_COLUMNS = frozenset(_games.keys())
_VERSION = select(_games.version).where(_games.id == bindparam("game_id"))
_SEATS = (
    select(_seats.seat, _seats.name, _seats.team, _seats.left_after)
    .where(_seats.game_id == bindparam("game_id"))
    .order_by(_seats.seat)
)
_ROUNDS_AND_HANDS = (
    select(
        _rounds.id,
        _rounds.number,
        _rounds.version,
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
        _hands.away,
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
_LATEST_CHANGES = (
    select(Change.__table__)
    .where(_changes.game_id == bindparam("game_id"))
    .order_by(_changes.id.desc())
    .limit(LATEST_CHANGES)
)
_LATE_JOINS = (
    select(_changes.player, _changes.new_value)
    .where(_changes.game_id == bindparam("game_id"), _changes.action == JOINED_LATE)
    .order_by(_changes.id)
)
