"""A season's story: its highlights, read from the club's own games and changing nothing.

Each player's games, wins and zero rounds and the lowest game total come from the players'
final figures; the longest run of wins and the best round are the core's
(`core.longest_run`, `core.best_round`) on the games and round scores read here; a player's
race (their place after each night, season_standings') is read only by their race chart's own
request, never by the page; the rating gains are the ratings service's season changes.
Attendance per night counts every game of the season, as the attendance table does.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from sqlalchemy import and_, case, func, select

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Club, ClubNight, Game, Hand, Player, RosterPlayer, Round, Season
from scorekeeper.services import ratings as rating_service
from scorekeeper.services import season_standings
from scorekeeper.services.ratings import SeasonChange
from scorekeeper.services.season_standings import counted, night_key
from scorekeeper.services.seasons import counts_in

# The rating gains the story names (the table of every change stays on the season page).
GAINS = 3
# A hand's score and seat as one number (score * SEATS + seat), so that SQL's min() gives a
# round's lowest roster hand and, on a tie, its first seat. More than any table's seats.
SEATS = 1000


@dataclass(frozen=True)
class PlayerStory:
    """One roster player's season: counted games, wins, rounds scored 0, longest run of wins."""

    roster_id: int
    name: str
    games: int
    wins: int
    zero_rounds: int
    longest_run: int


@dataclass(frozen=True)
class LowestTotal:
    """The lowest total a roster player finished a counted game with."""

    roster_id: int
    name: str
    total: int
    rounds: int
    game_id: int
    played_on: date


@dataclass(frozen=True)
class BestRound:
    """The round a roster player scored furthest below the others at their table."""

    roster_id: int
    name: str
    score: int
    others: Fraction  # the others' average score that round
    number: int  # the round's number in its game
    game_id: int
    played_on: date


@dataclass(frozen=True)
class Run:
    """The season's longest run of wins, and who made it (every player with a run as long)."""

    length: int
    names: list[str]
    first: date  # the first and last day of the earliest such run
    last: date


@dataclass(frozen=True)
class Night:
    """Who came on one club night (or day of play): roster players, guests and games."""

    played_on: date
    name: str
    players: int
    guests: int
    games: int


@dataclass(frozen=True)
class Story:
    """The season's highlights, with what the race charts are drawn from."""

    players: dict[int, PlayerStory]  # by roster id
    rating_changes: list[SeasonChange]  # every roster player's, biggest rise first
    gains: list[SeasonChange]  # the biggest rises (GAINS at most, each above 0)
    lowest_total: LowestTotal | None
    best_round: BestRound | None
    longest_run: Run | None  # None until someone has won two games in a row
    nights: list[Night]
    version: str  # season_standings.data_version: the race charts' URLs carry it


def _day(value: date | str) -> date:
    return date.fromisoformat(value) if isinstance(value, str) else value  # SQLite: text


def _seats(season: Season) -> list[tuple[int, str, int, date, int, int, int, int]]:
    """Each roster player's seats at the season's counted games, in the order played:
    (roster id, name, game id, day, won, total, rounds, zero rounds)."""
    rows = db.session.execute(
        select(
            RosterPlayer.id,
            RosterPlayer.display_name,
            Game.id,
            Game.played_on,
            case((Player.place == 1, 1), else_=0),
            Player.total,
            Player.rounds_played,
            Player.zero_rounds,
        )
        .join(Game, Game.id == Player.game_id)
        .join(RosterPlayer, RosterPlayer.id == Player.roster_player_id)
        .where(*counted(season), Player.place.is_not(None))
        .order_by(Game.played_on, Game.finished_at, Game.id)
    ).all()
    return [
        (entry, name, game, _day(day), won, total or 0, rounds or 0, zeros or 0)
        for entry, name, game, day, won, total, rounds, zeros in rows
    ]


def _best_round(season: Season) -> BestRound | None:
    """Each round of the season's counted games as the core's best_round takes it, summed in
    SQL (a season holds ten thousand hands; one grouped query reads a row a round): its total
    and count of hands played (not a late arrival's or a leaver's missed round, not a
    partnership), and its lowest-scoring roster hand, the first by seat on a tie (only the
    lowest can be a round's best: core.RoundScores)."""
    lowest = func.min(case((Player.roster_player_id.is_not(None), Hand.score * SEATS + Hand.seat)))
    rows = db.session.execute(
        select(
            Round.game_id,
            Round.number,
            Game.played_on,
            func.sum(Hand.score),
            func.count(Hand.id),
            lowest,
        )
        .join(Round, Round.id == Hand.round_id)
        .join(Game, Game.id == Round.game_id)
        .join(Player, and_(Player.game_id == Round.game_id, Player.seat == Hand.seat))
        .where(
            *counted(season),
            Player.place.is_not(None),
            Player.team.is_(None),
            Hand.late.is_(False),
            Hand.away.is_(False),
        )
        .group_by(Round.id, Round.game_id, Round.number, Game.played_on, Game.finished_at)
        .order_by(Game.played_on, Game.finished_at, Round.game_id, Round.number)
    ).all()
    # A round without a roster hand has no best; the others keep their order (ties: earliest).
    kept = [row for row in rows if row[5] is not None]
    best = core.best_round(
        [
            core.RoundScores(total, played, [((game_id, code % SEATS), code // SEATS)])
            for game_id, _number, _day_played, total, played, code in kept
        ]
    )
    if best is None:
        return None
    (game_id, seat), (_game, number, day, *_sums) = best.player, kept[best.index]
    entry, name = db.session.execute(
        select(RosterPlayer.id, RosterPlayer.display_name)
        .join(Player, Player.roster_player_id == RosterPlayer.id)
        .where(Player.game_id == game_id, Player.seat == seat)
    ).one()
    return BestRound(entry, name, best.score, best.others, number, game_id, _day(day))


def _nights(season: Season) -> list[Night]:
    """Per club night (or day of play), every game of the season, finished or in play."""
    rows = db.session.execute(
        select(
            func.min(Game.played_on),
            func.max(func.coalesce(ClubNight.name, "")),
            func.count(func.distinct(Player.roster_player_id)),
            func.count(
                func.distinct(case((Player.roster_player_id.is_(None), func.lower(Player.name))))
            ),
            func.count(func.distinct(Game.id)),
        )
        .join(Game, Game.id == Player.game_id)
        .outerjoin(ClubNight, ClubNight.id == Game.club_night_id)
        .where(counts_in(season))
        .group_by(night_key())
    ).all()
    nights = [
        Night(_day(day), name or "", players, guests, games)
        for day, name, players, guests, games in rows
    ]
    return sorted(nights, key=lambda night: (night.played_on, night.name))


def story(season: Season, club: Club, standings: season_standings.Standings) -> Story:
    """The season's story, for the season page and its print (`standings` is the season's
    table, already read: its players are the story's)."""
    seats = _seats(season)
    won: dict[int, list[bool]] = {}
    days: dict[int, list[date]] = {}
    sums: dict[int, list[int]] = {}
    lowest: LowestTotal | None = None
    for entry, name, game_id, day, win, total, rounds, zeros in seats:
        won.setdefault(entry, []).append(bool(win))
        days.setdefault(entry, []).append(day)
        games, wins, zero_rounds = sums.setdefault(entry, [0, 0, 0])
        sums[entry] = [games + 1, wins + win, zero_rounds + zeros]
        if lowest is None or total < lowest.total:
            lowest = LowestTotal(entry, name, total, rounds, game_id, day)
    players: dict[int, PlayerStory] = {}
    runs: dict[int, tuple[int, int]] = {}
    for line in standings.lines:
        entry = line.roster_id
        games, wins, zero_rounds = sums.get(entry, [0, 0, 0])
        runs[entry] = core.longest_run(won.get(entry, []))
        players[entry] = PlayerStory(
            entry,
            line.name,
            games,
            wins,
            zero_rounds,
            runs[entry][0],
        )
    changes = rating_service.season_changes(club, season.starts_on, season.ends_on)
    return Story(
        players=players,
        rating_changes=changes,
        gains=[change for change in changes if change.change > 0][:GAINS],
        lowest_total=lowest,
        best_round=_best_round(season),
        longest_run=_longest(runs, days, players),
        nights=_nights(season),
        version=season_standings.data_version(season),
    )


def _longest(
    runs: dict[int, tuple[int, int]], days: dict[int, list[date]], players: dict[int, PlayerStory]
) -> Run | None:
    """The longest run of wins of the season (two wins at least) and everyone who made one as
    long; its days are those of the earliest."""
    length = max((run for run, _start in runs.values()), default=0)
    if length < 2:
        return None
    holders = [entry for entry, (run, _start) in runs.items() if run == length]
    spans = {
        entry: (days[entry][runs[entry][1]], days[entry][runs[entry][1] + length - 1])
        for entry in holders
    }
    first = min(holders, key=lambda entry: (spans[entry], entry))
    return Run(length, [players[entry].name for entry in holders], *spans[first])


@dataclass(frozen=True)
class Race:
    """What one player's race chart draws."""

    name: str
    places: list[int | None]
    nights: int
    ranked: int


def race(season: Season, roster_id: int) -> Race | None:
    """One roster player's place after each night of the season (None: not in the season)."""
    races = season_standings.places_by_night(season)
    places = races.places.get(roster_id)
    if places is None:
        return None
    name = db.session.execute(
        select(RosterPlayer.display_name).where(RosterPlayer.id == roster_id)
    ).scalar_one()
    return Race(name, places, len(races.nights), races.ranked)
