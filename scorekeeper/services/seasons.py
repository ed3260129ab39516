"""Season use cases: a club's seasons, their rules, creating and changing them, filing the club's
games under them by date, and moving a game to another season by hand.

Each public function that changes something commits, or raises SeasonError and changes nothing.
The standings, attendance and games list of a season are `services.season_standings`'.

Filing by date: a club game belongs to the latest-starting season whose dates include the day it
was created (UTC, as `services.games.create_game` files it). When a season is created or its dates
change, every club game (and club night) of the affected days is filed again by that rule if it
had no season or was where the date rule had put it; a game moved to a season by hand stays
there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time
from typing import NoReturn

from sqlalchemy import or_, select, update

from scorekeeper import core
from scorekeeper.core import N_
from scorekeeper.extensions import db
from scorekeeper.models import Club, ClubNight, Game, Season

METHODS = tuple(method.value for method in core.SeasonMethod)
MAX_NAME = 80
MAX_MIN_GAMES = 1000
MAX_TABLE_TEXT = 120


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
