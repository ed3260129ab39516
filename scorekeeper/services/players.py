"""Player use cases: a roster entry's record, head-to-head between two entries, the club's
head-to-head matrix, and the months of average score per round that the player's chart shows.

Every figure is summed in SQL from the final figures the game services store on each seat when
a game finishes (Player.place, place_shared, total, rounds_played, zero_rounds): no round is
replayed. What counts: the club's finished games with at least one round played. The record,
the head-to-head and the matrix count Mexican Train games only (a draw-game total is points
won, higher is better: the two cannot share an average); draw games are counted apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from sqlalchemy import ColumnElement, and_, case, extract, func, select
from sqlalchemy.orm import aliased

from scorekeeper.extensions import db
from scorekeeper.models import Club, Game, Player, RosterPlayer

MEXICAN_TRAIN = "mexican_train"
LAST_GAMES = 10
LAST_MEETINGS = 10


# What the pages show --------------------------------------------------------------------------


@dataclass(frozen=True)
class GameLine:
    """One game of a player: when it was played, which game, their place and total, and who
    played."""

    game_id: int
    played_on: date
    played_at: datetime | None
    game_type: str
    set_size: int
    target: int
    place: int
    shared: bool
    total: int
    rounds: int
    players: list[str] = field(default_factory=list)

    @property
    def is_draw(self) -> bool:
        return self.game_type != MEXICAN_TRAIN


@dataclass(frozen=True)
class PlayerRecord:
    """A roster entry's Mexican Train record in the club (draw games counted apart)."""

    games: int = 0
    wins: int = 0
    shared_wins: int = 0
    total: int = 0
    rounds: int = 0
    zero_rounds: int = 0
    draw_games: int = 0
    draw_wins: int = 0
    best: GameLine | None = None
    worst: GameLine | None = None
    last: list[GameLine] = field(default_factory=list)

    @property
    def win_rate(self) -> float | None:
        """Wins (shared ones included) per Mexican Train game, 0..1."""
        return self.wins / self.games if self.games else None

    @property
    def average(self) -> float | None:
        """Average score per round: the sum of the totals over the sum of the rounds."""
        return self.total / self.rounds if self.rounds else None


@dataclass(frozen=True)
class MonthPoint:
    """One calendar month of a player's Mexican Train games (by the day each was played), and
    the running figures."""

    year: int
    month: int
    games: int
    total: int
    rounds: int
    running_total: int
    running_rounds: int

    @property
    def average(self) -> float:
        return self.total / self.rounds

    @property
    def running_average(self) -> float:
        return self.running_total / self.running_rounds


@dataclass(frozen=True)
class Meeting:
    """One Mexican Train game two players both played: each one's place and total."""

    game_id: int
    played_on: date
    played_at: datetime | None
    set_size: int
    place_a: int
    place_b: int
    total_a: int
    total_b: int


@dataclass(frozen=True)
class HeadToHead:
    """Two roster entries over the Mexican Train games they both played."""

    games: int = 0
    a_ahead: int = 0
    b_ahead: int = 0
    ties: int = 0
    total_a: int = 0
    total_b: int = 0
    draw_games: int = 0
    meetings: list[Meeting] = field(default_factory=list)

    @property
    def average_a(self) -> float | None:
        return self.total_a / self.games if self.games else None

    @property
    def average_b(self) -> float | None:
        return self.total_b / self.games if self.games else None


@dataclass(frozen=True)
class Matrix:
    """The club's active roster and, per ordered pair, (games the row finished ahead of the
    column, games the column finished ahead of the row) in Mexican Train games together."""

    entries: list[RosterPlayer]
    cells: dict[tuple[int, int], tuple[int, int]]

    def cell(self, row: int, column: int) -> tuple[int, int] | None:
        return self.cells.get((row, column))


# Roster ---------------------------------------------------------------------------------------


def roster_entries(club: Club) -> dict[int, RosterPlayer]:
    """Every roster entry of the club (archived and merged ones too), by id: one query."""
    rows = db.session.execute(select(RosterPlayer).where(RosterPlayer.club_id == club.id))
    return {entry.id: entry for entry in rows.scalars()}


def opponents(entries: dict[int, RosterPlayer], entry_id: int) -> list[RosterPlayer]:
    """The entries a player can be compared with: not merged, not themselves; active first."""
    return sorted(
        (e for e in entries.values() if e.merged_into_id is None and e.id != entry_id),
        key=lambda e: (e.archived, e.display_name.casefold(), e.id),
    )


def _counted(club: Club, seat: type[Player]) -> list[ColumnElement[bool]]:
    """The seats that count: the club's finished games, with at least one round played (a game
    ended before its first round would make everyone a winner with 0)."""
    return [
        Game.club_id == club.id,
        Game.finished_at.is_not(None),
        seat.place.is_not(None),
        seat.rounds_played > 0,
    ]


# A player's record ----------------------------------------------------------------------------


def player_record(club: Club, entry_id: int, names: dict[int, str]) -> PlayerRecord:
    """The entry's record in the club: totals in one aggregate, best and worst game, the last
    games (of either kind) with who played them. `names` maps roster ids to current names."""
    me = Player
    is_mt = Game.game_type == MEXICAN_TRAIN
    counted = [me.roster_player_id == entry_id, *_counted(club, me)]

    def when(condition: ColumnElement[bool], value: object = 1) -> ColumnElement[int]:
        return func.coalesce(func.sum(case((condition, value), else_=0)), 0)

    summary = db.session.execute(
        select(
            when(is_mt),
            when(and_(is_mt, me.place == 1)),
            when(and_(is_mt, me.place == 1, me.place_shared > 1)),
            when(is_mt, me.total),
            when(is_mt, me.rounds_played),
            when(is_mt, me.zero_rounds),
            when(~is_mt),
            when(and_(~is_mt, me.place == 1)),
        )
        .select_from(me)
        .join(Game, Game.id == me.game_id)
        .where(*counted)
    ).one()
    games, wins, shared_wins, total, rounds, zeros, draw_games, draw_wins = (
        int(v) for v in summary
    )

    columns = (
        Game.id,
        Game.played_on,
        Game.played_at,
        Game.game_type,
        Game.set_size,
        Game.target,
        me.place,
        me.place_shared,
        me.total,
        me.rounds_played,
    )

    def one(order: Sequence[ColumnElement[Any]]) -> GameLine | None:
        # Best and worst among games played to the end: a game the table ended early has
        # fewer rounds, so its total says little.
        row = db.session.execute(
            select(*columns)
            .join(Game, Game.id == me.game_id)
            .where(*counted, is_mt, Game.ended_early.is_(False))
            .order_by(*order)
            .limit(1)
        ).one_or_none()
        return _line(row) if row is not None else None

    best = worst = None
    if games:
        best = one((me.total.asc(), Game.played_on.desc(), Game.id.desc()))
        worst = one((me.total.desc(), Game.played_on.desc(), Game.id.desc()))

    recent = db.session.execute(
        select(*columns)
        .join(Game, Game.id == me.game_id)
        .where(*counted)
        .order_by(Game.played_on.desc(), Game.id.desc())
        .limit(LAST_GAMES)
    ).all()
    seats: dict[int, list[str]] = {}
    if recent:
        rows = db.session.execute(
            select(Player.game_id, Player.name, Player.roster_player_id)
            .where(Player.game_id.in_([row[0] for row in recent]))
            .order_by(Player.game_id, Player.seat)
        )
        for game_id, name, roster_id in rows:
            seats.setdefault(game_id, []).append(names.get(roster_id, name) if roster_id else name)
    last = [_line(row, seats.get(row[0], [])) for row in recent]
    return PlayerRecord(
        games=games,
        wins=wins,
        shared_wins=shared_wins,
        total=total,
        rounds=rounds,
        zero_rounds=zeros,
        draw_games=draw_games,
        draw_wins=draw_wins,
        best=best,
        worst=worst,
        last=last,
    )


def _line(row: Sequence[object], players: list[str] | None = None) -> GameLine:
    game_id, played_on, played_at, game_type, set_size, target, place, shared, total, rounds = row
    return GameLine(
        game_id=int(game_id),  # type: ignore[call-overload]
        played_on=played_on,  # type: ignore[arg-type]
        played_at=played_at,  # type: ignore[arg-type]
        game_type=str(game_type),
        set_size=int(set_size),  # type: ignore[call-overload]
        target=int(target),  # type: ignore[call-overload]
        place=int(place),  # type: ignore[call-overload]
        shared=(shared or 1) > 1,  # type: ignore[operator]
        total=int(total),  # type: ignore[call-overload]
        rounds=int(rounds),  # type: ignore[call-overload]
        players=players or [],
    )


def monthly_averages(club: Club, entry_id: int) -> list[MonthPoint]:
    """The entry's Mexican Train games month by month (the month each was played: a club
    night entered a year later is in the night's month): games, total, rounds, and the running
    figures since their first game. One grouped query."""
    year = extract("year", Game.played_on)
    month = extract("month", Game.played_on)
    rows = db.session.execute(
        select(year, month, func.count(), func.sum(Player.total), func.sum(Player.rounds_played))
        .select_from(Player)
        .join(Game, Game.id == Player.game_id)
        .where(
            Player.roster_player_id == entry_id,
            Game.game_type == MEXICAN_TRAIN,
            *_counted(club, Player),
        )
        .group_by(year, month)
        .order_by(year, month)
    ).all()
    points: list[MonthPoint] = []
    running_total = running_rounds = 0
    for y, m, games, total, rounds in rows:
        total, rounds = total or 0, rounds or 0  # SUM is NULL only over NULLs: never here
        running_total += int(total)
        running_rounds += int(rounds)
        points.append(
            MonthPoint(
                int(y), int(m), int(games), int(total), int(rounds), running_total, running_rounds
            )
        )
    return points


# Head-to-head ---------------------------------------------------------------------------------


def head_to_head(club: Club, a_id: int, b_id: int) -> HeadToHead:
    """Entries a and b over the Mexican Train games both played: who finished ahead (a lower
    place), ties (the same place), their totals, draw games together, and the last meetings."""
    a, b = aliased(Player), aliased(Player)
    is_mt = Game.game_type == MEXICAN_TRAIN
    pair = (
        select()
        .select_from(a)
        .join(b, and_(b.game_id == a.game_id, b.roster_player_id == b_id))
        .join(Game, Game.id == a.game_id)
        .where(
            a.roster_player_id == a_id,
            *_counted(club, a),
            b.place.is_not(None),
            b.rounds_played > 0,
        )
    )

    def when(condition: ColumnElement[bool], value: object = 1) -> ColumnElement[int]:
        return func.coalesce(func.sum(case((condition, value), else_=0)), 0)

    summary = db.session.execute(
        pair.add_columns(
            when(is_mt),
            when(and_(is_mt, a.place < b.place)),
            when(and_(is_mt, b.place < a.place)),
            when(and_(is_mt, a.place == b.place)),
            when(is_mt, a.total),
            when(is_mt, b.total),
            when(~is_mt),
        )
    ).one()
    games, a_ahead, b_ahead, ties, total_a, total_b, draw_games = (int(v) for v in summary)
    meetings: list[Meeting] = []
    if games:
        rows = db.session.execute(
            pair.add_columns(
                Game.id,
                Game.played_on,
                Game.played_at,
                Game.set_size,
                a.place,
                b.place,
                a.total,
                b.total,
            )
            .where(is_mt)
            .order_by(Game.played_on.desc(), Game.id.desc())
            .limit(LAST_MEETINGS)
        ).all()
        meetings = [Meeting(*row) for row in rows]
    return HeadToHead(games, a_ahead, b_ahead, ties, total_a, total_b, draw_games, meetings)


def head_to_head_matrix(club: Club, entries: dict[int, RosterPlayer]) -> Matrix:
    """Every pair of roster entries at once: one grouped self-join over the club's Mexican
    Train seats. Rows and columns are the active roster (not archived, not merged), by name."""
    a, b = aliased(Player), aliased(Player)
    rows = db.session.execute(
        select(
            a.roster_player_id,
            b.roster_player_id,
            func.sum(case((a.place < b.place, 1), else_=0)),
            func.sum(case((b.place < a.place, 1), else_=0)),
        )
        .select_from(a)
        .join(
            b,
            and_(
                b.game_id == a.game_id,
                b.roster_player_id.is_not(None),
                b.roster_player_id != a.roster_player_id,
            ),
        )
        .join(Game, Game.id == a.game_id)
        .where(
            a.roster_player_id.is_not(None),
            Game.game_type == MEXICAN_TRAIN,
            *_counted(club, a),
            b.place.is_not(None),
            b.rounds_played > 0,
        )
        .group_by(a.roster_player_id, b.roster_player_id)
    ).all()
    active = sorted(
        (e for e in entries.values() if not e.archived and e.merged_into_id is None),
        key=lambda e: (e.display_name.casefold(), e.id),
    )
    cells = {(int(r), int(c)): (int(won), int(lost)) for r, c, won, lost in rows}
    return Matrix(active, cells)
