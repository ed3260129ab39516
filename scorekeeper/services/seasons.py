"""Season use cases: a club's seasons, their rules, creating and changing them, which games each
season counts, and moving a game to one season by hand.

Each public function that changes something commits, or raises SeasonError and changes nothing.
The standings, attendance and games list of a season are `services.season_standings`'.

Which games a season counts (docs/decisions.md): every club game played on a day its dates
cover (`Game.played_on`), so seasons may overlap (a club keeps a "wins" and a "points" table
over the same nights and each counts every game) unless the game was moved to a season by hand:
then that season only. A game is also filed under one season (`Game.season_id`: the
latest-starting season covering its day), which gives a club night's rules; when a season is
created or its dates change, the games of the affected days are filed again, except those
moved by hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import NoReturn

from sqlalchemy import ColumnElement, and_, or_, select, update

from scorekeeper import core
from scorekeeper.core import N_
from scorekeeper.extensions import db
from scorekeeper.models import Club, ClubNight, Game, Season
from scorekeeper.services.games.mapping import house_rules_of
from scorekeeper.services.unit import unit_of_work

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


def counts_in(season: Season) -> ColumnElement[bool]:
    """SQL condition: a game this season counts (its dates cover the day the game was played,
    or the game was moved to it by hand; a game moved by hand counts in that season only)."""
    return or_(
        and_(Game.season_by_hand.is_(True), Game.season_id == season.id),
        and_(
            Game.season_by_hand.is_(False),
            Game.club_id == season.club_id,
            Game.played_on >= season.starts_on,
            Game.played_on <= season.ends_on,
        ),
    )


def seasons_counting(game: Game, seasons: Sequence[Season]) -> list[Season]:
    """Of `seasons`, those that count this game (counts_in, in Python: for a list of games)."""
    if game.season_by_hand:
        return [season for season in seasons if season.id == game.season_id]
    return [
        season
        for season in seasons
        if season.club_id == game.club_id and season.starts_on <= game.played_on <= season.ends_on
    ]


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
        house_rules=house_rules_of(club),
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


@unit_of_work()
def create_season(club: Club, data: SeasonInput) -> Saved:
    """A new season: it counts the club's games played in its dates (see the module)."""
    values = _checked(club, data)
    before = _season_dates(club.id)
    season = Season(club_id=club.id, **values)
    db.session.add(season)
    db.session.flush()
    _refile(club.id, before, [(season.starts_on, season.ends_on)])
    return Saved(season, filed=len(_counted_ids(season)))


@unit_of_work()
def update_season(season: Season, data: SeasonInput) -> Saved:
    """Change a season; if its dates changed, the affected days' games are filed again."""
    club = db.session.get_one(Club, season.club_id)
    values = _checked(club, data)
    before = _season_dates(club.id)
    counted = _counted_ids(season)
    old = (season.starts_on, season.ends_on)
    for key, value in values.items():
        setattr(season, key, value)
    db.session.flush()
    if old != (season.starts_on, season.ends_on):
        _refile(club.id, before, [old, (season.starts_on, season.ends_on)])
    now = _counted_ids(season)
    return Saved(season, filed=len(now - counted), left=len(counted - now))


def _counted_ids(season: Season) -> set[int]:
    """The ids of the games the season counts, with its dates as they are now."""
    return set(db.session.scalars(select(Game.id).where(counts_in(season))))


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


def _refile(
    club_id: int, before: SeasonDates, spans: Sequence[tuple[date, date]]
) -> list[tuple[int | None, int | None]]:
    """File again the club's games (and club nights) played on these days, except the games
    moved by hand; returns each moved game's (old season, new season)."""
    after = _season_dates(club_id)
    games = db.session.execute(
        select(Game.id, Game.season_id, Game.played_on).where(
            Game.club_id == club_id,
            Game.season_by_hand.is_(False),
            or_(*(Game.played_on.between(start, end) for start, end in spans)),
        )
    ).all()
    moves: dict[int | None, list[int]] = {}
    changed: list[tuple[int | None, int | None]] = []
    for game_id, season_id, day in games:
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


@unit_of_work()
def move_game(club: Club, game_id: int, to: Season) -> Game:
    """File one of the club's games under one of its seasons by hand: from then on it counts in
    that season only (not in the other seasons covering its day), even if dates change later."""
    game = db.session.get(Game, game_id)
    if game is None or game.club_id != club.id:
        _refuse("move_unknown_game", N_("That game is not one of the club's games."))
    if to.club_id != club.id:
        _refuse("move_unknown_season", N_("Choose one of the club's seasons."), "season_id")
    game.season_id = to.id
    game.season_by_hand = True  # through the game's object: its version moves
    return game
