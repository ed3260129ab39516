"""Season use cases: a club's seasons, filing its games by date, moving a game, and the season's
standings, attendance and chart, summed in SQL from the players' final figures.

The rules (placement points, ranking, qualification) are `scorekeeper.core.season`'s; this module
only sums what the database holds and hands the sums to the core. Each public function that
changes something commits, or raises SeasonError and changes nothing.

Filing by date: a club game belongs to the latest-starting season whose dates include the day it
was created (UTC, as `services.games.create_game` files it). When a season is created or its dates
change, every club game (and club night) of the affected days is filed again by that rule if it
had no season or was where the date rule had put it; a game moved to a season by hand stays
there.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time
from fractions import Fraction
from typing import NoReturn

from sqlalchemy import String, and_, case, cast, func, or_, select, update

from scorekeeper import charts, core
from scorekeeper.core import N_
from scorekeeper.extensions import db
from scorekeeper.models import Club, ClubNight, Game, Player, RosterPlayer, Season
from scorekeeper.services.charts import SvgCache

METHODS = tuple(method.value for method in core.SeasonMethod)
MAX_NAME = 80
MAX_MIN_GAMES = 1000
MAX_TABLE_TEXT = 120
# How many players the chart follows (the leaders); more lines would not read.
CHART_PLAYERS = 6
GAMES_PER_PAGE = 20
# Seasons are about Mexican Train: a draw game's score is the other way round.
COUNTED_TYPE = core.GameType.MEXICAN_TRAIN.value
LRU_SIZE = 32
# How many season charts this process has rendered (tests read it).
RENDERS = 0

_lock = threading.Lock()
_CACHE = SvgCache(LRU_SIZE)
clear_memory = _CACHE.clear_memory


class SeasonError(core.RuleError):
    """What was asked of a season cannot be done; the problems say why, in a member's words."""


def _refuse(code: str, template: str, field: str | None = None, **params: object) -> NoReturn:
    raise SeasonError(core.Problem(code, template, params, field=field))


@dataclass(frozen=True)
class SeasonInput:
    """What an organiser typed for a season (None where nothing usable was typed)."""

    name: str
    starts_on: date | None
    ends_on: date | None
    method: str = core.SeasonMethod.PLACEMENT_POINTS.value
    min_games: int | None = 3
    points_table: str = ""
    set_size: int | None = None
    blank_scoring: str | None = None
    rounds: int | None = None


# Reading seasons -------------------------------------------------------------------------------


def seasons_of(club: Club) -> list[Season]:
    """The club's seasons, the latest-starting first."""
    return list(
        db.session.execute(
            select(Season)
            .where(Season.club_id == club.id)
            .order_by(Season.starts_on.desc(), Season.id.desc())
        ).scalars()
    )


def club_season(club: Club, season_id: int) -> Season | None:
    """One of the club's seasons, or None."""
    season = db.session.get(Season, season_id)
    return season if season is not None and season.club_id == club.id else None


def season_on(club: Club, day: date) -> Season | None:
    """The season a game played on `day` belongs to (the latest-starting one if they overlap)."""
    return db.session.execute(
        select(Season)
        .where(Season.club_id == club.id, Season.starts_on <= day, Season.ends_on >= day)
        .order_by(Season.starts_on.desc(), Season.id.desc())
        .limit(1)
    ).scalar_one_or_none()


def season_rules(club: Club, season: Season | None) -> core.GameRules:
    """The rules a game of this season starts from: the club's defaults, with the season's own
    set, blank scoring and rounds where it has them (for the club game and club night setups)."""
    return core.GameRules(
        set_size=season.set_size if season and season.set_size is not None else club.set_size,
        blank_scoring=core.BlankScoring(
            season.blank_scoring if season and season.blank_scoring else club.blank_scoring
        ),
        rounds=season.rounds if season and season.rounds is not None else club.rounds,
        order=core.Order(club.order),
        house_rules=core.HouseRules(
            open_train_points=club.open_train_points,
            strategic_error=club.strategic_error,
            adjustments=club.adjustments,
        ),
    )


def points_table_of(season: Season) -> tuple[int, ...] | None:
    """The season's placement table (None: one point per player finished ahead of)."""
    try:
        return core.parse_points_table(season.points_table)
    except core.RuleError:  # stored before it was checked (an import): the default applies
        return None


# Creating and changing seasons -----------------------------------------------------------------


def _checked(club: Club, data: SeasonInput) -> dict[str, object]:
    """The season's columns from what was typed, or SeasonError with every problem found."""
    problems: list[core.Problem] = []

    def refuse(code: str, template: str, field: str, **params: object) -> None:
        problems.append(core.Problem(code, template, params, field=field))

    name = core.clean_name(data.name)
    if not name:
        refuse("season_name_empty", N_("Give the season a name."), "name")
    elif len(name) > MAX_NAME:
        refuse(
            "season_name_long",
            N_("A season name can be at most %(max)s characters."),
            "name",
            max=MAX_NAME,
        )
    if data.starts_on is None:
        refuse("season_start", N_("Enter the first day of the season."), "starts_on")
    if data.ends_on is None:
        refuse("season_end", N_("Enter the last day of the season."), "ends_on")
    if data.starts_on and data.ends_on and data.ends_on < data.starts_on:
        refuse(
            "season_dates",
            N_("The season cannot end before it starts: check the last day."),
            "ends_on",
        )
    if data.method not in METHODS:
        refuse("season_method", N_("Choose how the standings are computed."), "method")
    if data.min_games is None or not 0 <= data.min_games <= MAX_MIN_GAMES:
        refuse(
            "season_min_games",
            N_("Enter a whole number of games from 0 to %(max)s."),
            "min_games",
            max=MAX_MIN_GAMES,
        )
    table_text = (data.points_table or "").strip()
    try:
        table = core.parse_points_table(table_text)
    except core.RuleError as error:
        problems.extend(error.problems)
    else:
        table_text = ", ".join(str(points) for points in table) if table else ""
        if len(table_text) > MAX_TABLE_TEXT:
            refuse(
                "season_table_long",
                N_("The placement table is too long: keep it under %(max)s characters."),
                "points_table",
                max=MAX_TABLE_TEXT,
            )
    if data.blank_scoring is not None and data.blank_scoring not in {
        option.value for option in core.BlankScoring
    }:
        refuse("season_blanks", N_("Choose how blanks count."), "blank_scoring")
    elif data.set_size is not None and data.set_size not in core.SUPPORTED_SETS:
        refuse("season_set", N_("Choose a domino set."), "set_size")
    else:
        try:
            # The core checks rules as part of a table: any valid number of players will do.
            core.new_game(
                ("1", "2", "3", "4"),
                core.GameRules(
                    set_size=data.set_size if data.set_size is not None else club.set_size,
                    blank_scoring=core.BlankScoring(data.blank_scoring or club.blank_scoring),
                    rounds=data.rounds if data.rounds is not None else club.rounds,
                    order=core.Order(club.order),
                ),
            )
        except core.RuleError as error:
            for problem in error.problems:
                where = {"set": "set_size"}.get(problem.field or "", problem.field)
                problems.append(
                    core.Problem(problem.code, problem.template, problem.params, field=where)
                )
    if problems:
        raise SeasonError(problems)
    return {
        "name": name,
        "starts_on": data.starts_on,
        "ends_on": data.ends_on,
        "method": data.method,
        "min_games": data.min_games,
        "points_table": table_text,
        "set_size": data.set_size,
        "blank_scoring": data.blank_scoring,
        "rounds": data.rounds,
    }


@dataclass
class Saved:
    """A season created or changed, and how many games its dates brought in or sent out."""

    season: Season
    filed: int = 0
    left: int = 0


def create_season(club: Club, data: SeasonInput) -> Saved:
    """A new season; the club's games played in its dates are filed under it (see the module)."""
    values = _checked(club, data)
    before = _season_dates(club.id)
    season = Season(club_id=club.id, **values)
    db.session.add(season)
    db.session.flush()
    moves = _refile(club.id, before, [(season.starts_on, season.ends_on)])
    db.session.commit()
    return _saved(season, moves)


def update_season(season: Season, data: SeasonInput) -> Saved:
    """Change a season; if its dates changed, the affected days' games are filed again."""
    club = db.session.get(Club, season.club_id)
    values = _checked(club, data)
    before = _season_dates(club.id)
    old = (season.starts_on, season.ends_on)
    for key, value in values.items():
        setattr(season, key, value)
    db.session.flush()
    moves: list[tuple[int | None, int | None]] = []
    if old != (season.starts_on, season.ends_on):
        moves = _refile(club.id, before, [old, (season.starts_on, season.ends_on)])
    db.session.commit()
    return _saved(season, moves)


def _saved(season: Season, moves: list[tuple[int | None, int | None]]) -> Saved:
    """Count the games that came into the season and those that left it."""
    filed = sum(1 for _old, new in moves if new == season.id)
    left = sum(1 for old, _new in moves if old == season.id)
    return Saved(season, filed, left)


SeasonDates = list[tuple[int, date, date]]


def _season_dates(club_id: int) -> SeasonDates:
    return [
        (row.id, row.starts_on, row.ends_on)
        for row in db.session.execute(
            select(Season.id, Season.starts_on, Season.ends_on).where(Season.club_id == club_id)
        )
    ]


def _by_date(seasons: SeasonDates, day: date) -> int | None:
    """The date rule, as services.games.season_on applies it: latest start, then latest id."""
    best = max(
        ((start, season_id) for season_id, start, end in seasons if start <= day <= end),
        default=None,
    )
    return best[1] if best else None


def _day_range(spans: Iterable[tuple[date, date]]) -> list:
    """SQL conditions: a created_at within one of these spans of whole days."""
    return [
        Game.created_at.between(datetime.combine(start, time.min), datetime.combine(end, time.max))
        for start, end in spans
    ]


def _refile(
    club_id: int, before: SeasonDates, spans: Sequence[tuple[date, date]]
) -> list[tuple[int | None, int | None]]:
    """File again the club's games (and club nights) of these days that followed the date rule
    (or had no season); returns each moved game's (old season, new season)."""
    after = _season_dates(club_id)
    games = db.session.execute(
        select(Game.id, Game.season_id, Game.created_at).where(
            Game.club_id == club_id, or_(*_day_range(spans))
        )
    ).all()
    moves: dict[int | None, list[int]] = {}
    changed: list[tuple[int | None, int | None]] = []
    for game_id, season_id, created_at in games:
        day = created_at.date()
        if season_id is None or season_id == _by_date(before, day):
            target = _by_date(after, day)
            if target != season_id:
                moves.setdefault(target, []).append(game_id)
                changed.append((season_id, target))
    for target, ids in moves.items():
        for game in db.session.scalars(select(Game).where(Game.id.in_(ids))):
            game.season_id = target  # each game moves to a new version
    nights = db.session.execute(
        select(ClubNight.id, ClubNight.season_id, ClubNight.played_on).where(
            ClubNight.club_id == club_id,
            or_(*(ClubNight.played_on.between(start, end) for start, end in spans)),
        )
    ).all()
    for night_id, season_id, played_on in nights:
        if season_id is None or season_id == _by_date(before, played_on):
            target = _by_date(after, played_on)
            if target != season_id:
                db.session.execute(
                    update(ClubNight).where(ClubNight.id == night_id).values(season_id=target)
                )
    return changed


def move_game(club: Club, game_id: int, to: Season) -> Game:
    """File one of the club's games under another of its seasons (by hand: it stays there even
    if season dates change later)."""
    game = db.session.get(Game, game_id)
    if game is None or game.club_id != club.id:
        _refuse("move_unknown_game", N_("That game is not one of the club's games."))
    if to.club_id != club.id:
        _refuse("move_unknown_season", N_("Choose one of the club's seasons."), "season_id")
    game.season_id = to.id
    db.session.commit()
    return game


# Standings -------------------------------------------------------------------------------------


def _night_key():
    """A club night's id, or the day a game outside any club night was created: one 'night'."""
    return func.coalesce(cast(Game.club_night_id, String), cast(func.date(Game.created_at), String))


def _counted(season_id: int):
    """The games a season's standings count: finished Mexican Train games of the season."""
    return (
        Game.season_id == season_id,
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
    placements: Counter = field(default_factory=Counter)

    def add(self, other: _Sums) -> None:
        self.games += other.games
        self.wins += other.wins
        self.rounds += other.rounds
        self.total += other.total
        self.placements.update(other.placements)


def _placement_rows(season_id: int, *, by_night: bool):
    """One grouped query: per roster player (and per night), per (players in the game, place,
    players sharing it): games, wins, rounds and total score over the season's counted games."""
    sizes = (
        select(Player.game_id.label("game_id"), func.count(Player.id).label("size"))
        .join(Game, Game.id == Player.game_id)
        .where(*_counted(season_id))
        .group_by(Player.game_id)
        .subquery()
    )
    night = (
        func.coalesce(ClubNight.played_on, func.date(Game.created_at)).label("day")
        if by_night
        else None
    )
    keys = [Player.roster_player_id, RosterPlayer.display_name]
    if by_night:
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
        .where(*_counted(season_id), Player.place.is_not(None))
        .group_by(*keys)
    )
    if by_night:
        query = query.outerjoin(ClubNight, ClubNight.id == Game.club_night_id)
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


def _summary(season_id: int) -> Summary:
    counted = and_(*_counted(season_id), Player.place.is_not(None))
    row = db.session.execute(
        select(
            func.count(func.distinct(case((counted, Game.id)))),
            func.count(func.distinct(case((counted, _night_key())))),
            func.count(func.distinct(Game.id)),
            func.coalesce(
                func.sum(case((and_(counted, Player.roster_player_id.is_(None)), 1), else_=0)),
                0,
            ),
        )
        .select_from(Game)
        .join(Player, Player.game_id == Game.id)
        .where(Game.season_id == season_id)
    ).one()
    games, nights, every, guests = row
    return Summary(games=games, nights=nights, guest_seats=guests, uncounted=every - games)


def standings(season: Season) -> Standings:
    """The season's standings: one grouped query sums each roster player's finished games, the
    core ranks them by the season's method. Guests (no roster entry) are left out."""
    sums: dict[int, _Sums] = {}
    names: dict[int, str] = {}
    for roster_id, name, size, place, shared, games, wins, rounds, total in _placement_rows(
        season.id, by_night=False
    ):
        names[roster_id] = name
        entry = sums.setdefault(roster_id, _Sums())
        entry.add(_Sums(games, wins, rounds, total, Counter({(size, place, shared): games})))
    return Standings(
        method=core.SeasonMethod(season.method),
        table=points_table_of(season),
        min_games=season.min_games,
        lines=_rank(season, sums, names),
        summary=_summary(season.id),
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
            Player.roster_player_id,
            RosterPlayer.display_name,
            func.count(func.distinct(_night_key())),
            func.count(Player.id),
        )
        .join(Game, Game.id == Player.game_id)
        .join(RosterPlayer, RosterPlayer.id == Player.roster_player_id)
        .where(Game.season_id == season.id)
        .group_by(Player.roster_player_id, RosterPlayer.display_name)
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
        select(Game)
        .where(Game.season_id == season.id)
        .order_by(Game.created_at.desc(), Game.id.desc()),
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


# The chart -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChartText:
    """The words on the season chart; the view passes them translated."""

    title: str = "Season standings, night by night"
    xlabel: str = "Club night"
    ylabel: str = "Points"


@dataclass(frozen=True)
class ChartData:
    """What the season chart draws: the leaders' cumulative figure after each night."""

    names: list[str]
    nights: list[date]
    series: dict[str, list[float | None]]
    higher_is_better: bool


def chart_data(season: Season, players: int = CHART_PLAYERS) -> ChartData:
    """The leaders' standing after each club night: cumulative placement points, cumulative
    wins, or running average per round (by the season's method), from one grouped query."""
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
    ) in _placement_rows(season.id, by_night=True):
        if isinstance(day, str):  # SQLite's date() answers text
            day = date.fromisoformat(day)
        names[roster_id] = name
        night = per_night.setdefault((day, night_id or 0), {})
        sums = night.setdefault(roster_id, _Sums())
        sums.add(_Sums(games, wins, rounds, total, Counter({(size, place, shared): games})))
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
    return ChartData(
        names=[unique[roster_id] for roster_id in leaders],
        nights=[day for day, _night in sorted(per_night)],
        series={unique[roster_id]: series[roster_id] for roster_id in leaders},
        higher_is_better=method is not core.SeasonMethod.AVERAGE,
    )


def _number(value: float) -> str:
    return str(round(value)) if value == int(value) else f"{value:.2f}".rstrip("0")


def data_version(season: Season) -> str:
    """A fingerprint of everything the season's chart is drawn from, in two small queries:
    its rules, and per night its counted games' ids and versions (a round recorded or edited
    bumps a game's version) and the roster entries at them (a merge moves seats), and the
    roster's names (a rename). The chart is cached under it."""
    day = func.coalesce(ClubNight.played_on, func.date(Game.created_at))
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
        .outerjoin(ClubNight, ClubNight.id == Game.club_night_id)
        .where(*_counted(season.id))
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


def chart_svg(
    season: Season, text: ChartText, label_of: Callable[[date], str] = date.isoformat
) -> tuple[bytes, str]:
    """The season chart's SVG and its ETag: drawn once per season data version (see
    data_version), language and wording, then served from memory or instance/charts.
    `label_of` writes a night's date under its tick."""
    probe = label_of(date(2001, 12, 31))  # the date format of the request's language
    key = hashlib.blake2b(
        repr((data_version(season), text, probe)).encode("utf-8"), digest_size=10
    ).hexdigest()

    def draw() -> bytes:
        data = chart_data(season)
        legend = [
            _number(values[-1]) if values and values[-1] is not None else "–"
            for values in (data.series[name] for name in data.names)
        ]
        labels = [label_of(day) for day in data.nights]
        return _render(data, labels, legend, text)

    # This season's other charts go: its data moved on.
    mine = re.compile(rf"season-{season.id}-[0-9a-f]+\.svg$")
    return _CACHE.get(f"season-{season.id}-{key}.svg", mine.match, draw)


def _render(data: ChartData, labels: list[str], legend: list[str], text: ChartText) -> bytes:
    global RENDERS
    svg = charts.season_chart(
        data.names,
        labels,
        data.series,
        legend,
        higher_is_better=data.higher_is_better,
        title=text.title,
        xlabel=text.xlabel,
        ylabel=text.ylabel,
    )
    with _lock:
        RENDERS += 1
    return svg
