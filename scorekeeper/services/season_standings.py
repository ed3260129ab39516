"""Season standings use cases: a season's table, its leaders' standing after each club night (what
the season chart draws), attendance and the season's games, summed in SQL from the players' final
figures.

The rules (placement points, ranking, qualification) are `scorekeeper.core.season`'s; this module
only sums what the database holds and hands the sums to the core. It changes nothing.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Row,
    SQLColumnExpression,
    String,
    and_,
    case,
    cast,
    func,
    select,
)

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Game, Player, RosterPlayer, Season
from scorekeeper.services.seasons import counts_in, points_table_of

GAMES_PER_PAGE = 20
# Seasons are about Mexican Train: a draw game's score is the other way round.
COUNTED_TYPE = core.GameType.MEXICAN_TRAIN.value


# Standings -------------------------------------------------------------------------------------


def night_key() -> ColumnElement[str]:
    """A club night's id, or the day a game outside any club night was played: one 'night'."""
    return func.coalesce(cast(Game.club_night_id, String), cast(Game.played_on, String))


def counted(season: Season) -> tuple[ColumnElement[bool], ...]:
    """The games a season's standings count: finished Mexican Train games of the season."""
    return (
        counts_in(season),
        Game.finished_at.is_not(None),
        Game.game_type == COUNTED_TYPE,
    )


@dataclass(frozen=True)
class Line:
    """One line of the standings: the core's SeasonLine and the roster entry it is about."""

    roster_id: int
    name: str
    line: core.SeasonLine


@dataclass(frozen=True)
class Summary:
    """What the explanation under the standings says the table was computed from."""

    games: int  # finished Mexican Train games of the season, counted
    nights: int  # club nights (or days) those games were played on
    guest_seats: int  # seats at counted games taken by guests (not on the roster)
    uncounted: int  # season games not counted: in play, draw games, partnership games


@dataclass(frozen=True)
class Standings:
    """A season's table, ranked by the core, with what it was computed from."""

    method: core.SeasonMethod
    table: tuple[int, ...] | None
    min_games: int
    lines: list[Line]
    summary: Summary


def _unique_names(names: dict[int, str]) -> dict[int, str]:
    """Roster id -> a name no other entry of the table has (the core keys players by name)."""
    seen = Counter(name.casefold() for name in names.values())
    return {
        roster_id: name if seen[name.casefold()] == 1 else f"{name} (#{roster_id})"
        for roster_id, name in names.items()
    }


@dataclass
class _Sums:
    games: int = 0
    wins: int = 0
    rounds: int = 0
    total: int = 0
    placements: Counter[tuple[int, int, int]] = field(default_factory=Counter)

    def add(self, other: _Sums) -> None:
        self.games += other.games
        self.wins += other.wins
        self.rounds += other.rounds
        self.total += other.total
        self.placements.update(other.placements)


def _placement_rows(season: Season, *, by_night: bool) -> Sequence[Row[*tuple[Any, ...]]]:
    """One grouped query: per roster player (and per night), per (players in the game, place,
    players sharing it): games, wins, rounds and total score over the season's counted games."""
    sizes = (
        select(Player.game_id.label("game_id"), func.count(Player.id).label("size"))
        .join(Game, Game.id == Player.game_id)
        .where(*counted(season))
        .group_by(Player.game_id)
        .subquery()
    )
    night = Game.played_on.label("day") if by_night else None
    keys: list[SQLColumnExpression[Any]] = [Player.roster_player_id, RosterPlayer.display_name]
    if night is not None:
        keys += [night, Game.club_night_id]
    keys += [sizes.c.size, Player.place, Player.place_shared]
    query = (
        select(
            *keys,
            func.count(Player.id),
            func.sum(case((Player.place == 1, 1), else_=0)),
            func.coalesce(func.sum(Player.rounds_played), 0),
            func.coalesce(func.sum(Player.total), 0),
        )
        .join(Game, Game.id == Player.game_id)
        .join(sizes, sizes.c.game_id == Player.game_id)
        .join(RosterPlayer, RosterPlayer.id == Player.roster_player_id)
        .where(*counted(season), Player.place.is_not(None))
        .group_by(*keys)
    )
    return db.session.execute(query).all()


def _rank(
    season: Season, sums: dict[int, _Sums], names: dict[int, str], *, min_games: int | None = None
) -> list[Line]:
    unique = _unique_names(names)
    players = [
        core.PlayerSeason(
            unique[roster_id],
            games=s.games,
            wins=s.wins,
            rounds=s.rounds,
            total_score=s.total,
            placements=dict(s.placements),
        )
        for roster_id, s in sums.items()
    ]
    lines = core.season_standings(
        players,
        core.SeasonMethod(season.method),
        min_games=season.min_games if min_games is None else min_games,
        table=points_table_of(season),
    )
    by_name = {name: roster_id for roster_id, name in unique.items()}
    return [Line(by_name[line.player], names[by_name[line.player]], line) for line in lines]


def _summary(season: Season) -> Summary:
    placed = and_(*counted(season), Player.place.is_not(None))
    row = db.session.execute(
        select(
            func.count(func.distinct(case((placed, Game.id)))),
            func.count(func.distinct(case((placed, night_key())))),
            func.count(func.distinct(Game.id)),
            func.coalesce(
                func.sum(case((and_(placed, Player.roster_player_id.is_(None)), 1), else_=0)),
                0,
            ),
        )
        .select_from(Game)
        .join(Player, Player.game_id == Game.id)
        .where(counts_in(season))
    ).one()
    games, nights, every, guests = row
    return Summary(games=games, nights=nights, guest_seats=guests, uncounted=every - games)


def standings(season: Season) -> Standings:
    """The season's standings: one grouped query sums each roster player's finished games, the
    core ranks them by the season's method. Guests (no roster entry) are left out."""
    sums: dict[int, _Sums] = {}
    names: dict[int, str] = {}
    for roster_id, name, size, place, shared, games, wins, rounds, total in _placement_rows(
        season, by_night=False
    ):
        names[roster_id] = name
        entry = sums.setdefault(roster_id, _Sums())
        entry.add(_Sums(games, wins, rounds, total, Counter({(size, place, shared): games})))
    return Standings(
        method=core.SeasonMethod(season.method),
        table=points_table_of(season),
        min_games=season.min_games,
        lines=_rank(season, sums, names),
        summary=_summary(season),
    )


@dataclass(frozen=True)
class Attendance:
    """How often a roster player came: club nights (or days) and games, finished or in play."""

    roster_id: int
    name: str
    nights: int
    games: int


def attendance(season: Season) -> list[Attendance]:
    """Each roster player's nights and games in the season, the most nights first."""
    rows = db.session.execute(
        select(
            RosterPlayer.id,  # the joined entry's: Player.roster_player_id, never NULL here
            RosterPlayer.display_name,
            func.count(func.distinct(night_key())),
            func.count(Player.id),
        )
        .join(Game, Game.id == Player.game_id)
        .join(RosterPlayer, RosterPlayer.id == Player.roster_player_id)
        .where(counts_in(season))
        .group_by(RosterPlayer.id, RosterPlayer.display_name)
    ).all()
    lines = [Attendance(*row) for row in rows]
    return sorted(lines, key=lambda a: (-a.nights, -a.games, a.name.casefold(), a.roster_id))


# The season's games ----------------------------------------------------------------------------


@dataclass(frozen=True)
class SeasonGame:
    """A line of the season's games list (players by their current roster name)."""

    game: Game
    players: list[str]
    winners: list[str]
    finished: bool
    counted: bool


@dataclass(frozen=True)
class GamesPage:
    """One page of the season's games, newest first."""

    lines: list[SeasonGame]
    page: int
    pages: int
    total: int


def season_games(season: Season, page: int = 1, per_page: int = GAMES_PER_PAGE) -> GamesPage:
    """A page of the season's games, newest first, in three queries whatever the page holds."""
    paged = db.paginate(
        select(Game).where(counts_in(season)).order_by(Game.played_on.desc(), Game.id.desc()),
        page=max(1, page),
        per_page=per_page,
        error_out=False,
        count=True,
    )
    games = list(paged.items)
    seats: dict[int, list[tuple[str, int | None]]] = {game.id: [] for game in games}
    if games:
        rows = db.session.execute(
            select(Player.game_id, Player.name, RosterPlayer.display_name, Player.place)
            .outerjoin(RosterPlayer, RosterPlayer.id == Player.roster_player_id)
            .where(Player.game_id.in_(list(seats)))
            .order_by(Player.game_id, Player.seat)
        ).all()
        for game_id, name, roster_name, place in rows:
            seats[game_id].append((roster_name or name, place))
    lines = []
    for game in games:
        finished = game.finished_at is not None
        placed = [place for _, place in seats[game.id]]
        lines.append(
            SeasonGame(
                game=game,
                players=[name for name, _ in seats[game.id]],
                winners=[name for name, place in seats[game.id] if place == 1],
                finished=finished,
                counted=finished
                and game.game_type == COUNTED_TYPE
                and all(p is not None for p in placed),
            )
        )
    total = paged.total or 0
    return GamesPage(lines, paged.page, max(1, paged.pages), total)


# The standings night by night -----------------------------------------------------------------


@dataclass(frozen=True)
class NightByNight:
    """The leaders' cumulative figure after each club night (what the season chart draws)."""

    names: list[str]
    nights: list[date]
    series: dict[str, list[float | None]]
    higher_is_better: bool


@dataclass(frozen=True)
class PlacesByNight:
    """Every ranked player's place after each club night (the season story's race charts)."""

    nights: list[date]
    places: dict[int, list[int | None]]  # roster id -> place after each night (None: unranked)
    ranked: int  # the most players ranked after any night: the charts' common scale


def _sums_by_night(
    season: Season,
) -> tuple[dict[tuple[date, int], dict[int, _Sums]], dict[int, str]]:
    """Each club night's (day, night id) placement sums per roster player, from one grouped
    query, and the players' names."""
    per_night: dict[tuple[date, int], dict[int, _Sums]] = {}
    names: dict[int, str] = {}
    for (
        roster_id,
        name,
        day,
        night_id,
        size,
        place,
        shared,
        games,
        wins,
        rounds,
        total,
    ) in _placement_rows(season, by_night=True):
        if isinstance(day, str):  # SQLite's date() answers text
            day = date.fromisoformat(day)
        names[roster_id] = name
        sums = per_night.setdefault((day, night_id or 0), {}).setdefault(roster_id, _Sums())
        sums.add(_Sums(games, wins, rounds, total, Counter({(size, place, shared): games})))
    return per_night, names


def places_by_night(season: Season) -> PlacesByNight:
    """Each roster player's place in the standings after each club night: the core ranks the
    running sums of every night so far (one grouped query; a night's placements add up)."""
    per_night, _names = _sums_by_night(season)
    method = core.SeasonMethod(season.method)
    table = points_table_of(season)
    running: dict[int, _Sums] = {}
    places: dict[int, list[int | None]] = {}
    ranked = 0
    for index, key in enumerate(sorted(per_night)):
        for roster_id, sums in per_night[key].items():
            running.setdefault(roster_id, _Sums()).add(sums)
            places.setdefault(roster_id, [None] * index)
        lines = core.season_standings(
            [
                core.PlayerSeason(
                    str(roster_id),
                    games=sums.games,
                    wins=sums.wins,
                    rounds=sums.rounds,
                    total_score=sums.total,
                    placements=dict(sums.placements),
                )
                for roster_id, sums in running.items()
            ],
            method,
            min_games=season.min_games,
            table=table,
        )
        for line in lines:
            places[int(line.player)].append(line.place)
        ranked = max(ranked, sum(1 for line in lines if line.place is not None))
    return PlacesByNight([day for day, _night in sorted(per_night)], places, ranked)


def leaders_by_night(season: Season, players: int) -> NightByNight:
    """The leaders' standing after each club night: cumulative placement points, cumulative
    wins, or running average per round (by the season's method), from one grouped query."""
    per_night, names = _sums_by_night(season)
    method = core.SeasonMethod(season.method)
    totals: dict[int, _Sums] = {}
    for night in per_night.values():
        for roster_id, sums in night.items():
            totals.setdefault(roster_id, _Sums()).add(sums)
    leaders = [line.roster_id for line in _rank(season, totals, names)][:players]
    # The leaders' figures after each night, from the core. A player's points, wins and average
    # do not depend on the others, and points add up night by night: so each night the core is
    # given the leaders' running sums with that night's placements only (a few small lines).
    table = points_table_of(season)
    running: dict[int, _Sums] = {}
    points: dict[int, Fraction] = {}
    series: dict[int, list[float | None]] = {roster_id: [] for roster_id in leaders}
    for key in sorted(per_night):
        tonight = per_night[key]
        for roster_id in leaders:
            if roster_id in tonight:
                sums = tonight[roster_id]
                running.setdefault(roster_id, _Sums()).add(
                    _Sums(sums.games, sums.wins, sums.rounds, sums.total)
                )
        lines = core.season_standings(
            [
                core.PlayerSeason(
                    str(roster_id),
                    games=sums.games,
                    wins=sums.wins,
                    rounds=sums.rounds,
                    total_score=sums.total,
                    placements=dict(tonight[roster_id].placements) if roster_id in tonight else {},
                )
                for roster_id, sums in running.items()
            ],
            method,
            min_games=0,
            table=table,
        )
        after = {int(line.player): line for line in lines}
        for roster_id in leaders:
            line = after.get(roster_id)
            if line is None:
                series[roster_id].append(None)
            elif method is core.SeasonMethod.GAMES_WON:
                series[roster_id].append(float(line.wins))
            elif method is core.SeasonMethod.PLACEMENT_POINTS:
                points[roster_id] = points.get(roster_id, Fraction(0)) + line.points
                series[roster_id].append(float(points[roster_id]))
            else:
                series[roster_id].append(float(line.average) if line.average is not None else None)

    unique = _unique_names({roster_id: names[roster_id] for roster_id in leaders})
    return NightByNight(
        names=[unique[roster_id] for roster_id in leaders],
        nights=[day for day, _night in sorted(per_night)],
        series={unique[roster_id]: series[roster_id] for roster_id in leaders},
        higher_is_better=method is not core.SeasonMethod.AVERAGE,
    )


def data_version(season: Season) -> str:
    """A fingerprint of everything the season's chart is drawn from, in two small queries:
    its rules, and per night its counted games' ids and versions (a round recorded or edited
    bumps a game's version) and the roster entries at them (a merge moves seats), and the
    roster's names (a rename). The season chart is cached under it."""
    day = Game.played_on
    nights = db.session.execute(
        select(
            Game.club_night_id,
            day,
            func.count(Player.id),
            func.sum(Game.id),
            func.sum(Game.version),
            func.sum(func.coalesce(Player.roster_player_id, 0)),
        )
        .join(Game, Game.id == Player.game_id)
        .where(*counted(season))
        .group_by(Game.club_night_id, day)
        .order_by(day, Game.club_night_id)
    ).all()
    names = db.session.execute(
        select(RosterPlayer.id, RosterPlayer.display_name)
        .where(RosterPlayer.club_id == season.club_id)
        .order_by(RosterPlayer.id)
    ).all()
    rules = (season.method, season.min_games, season.points_table)
    data = repr((rules, [tuple(row) for row in nights], [tuple(row) for row in names]))
    return hashlib.blake2b(data.encode("utf-8"), digest_size=10).hexdigest()
