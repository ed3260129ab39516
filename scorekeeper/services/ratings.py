"""Club ratings: openskill's Plackett-Luce model (library defaults) replayed over every finished
club game, in the order the games were played (played_on, then the game's id).

Ratings are derived data: a replay of the club's finished games from their stored final places
(Player.place), kept in the database under the club's ratings mark (`ratings_mark`: what the
replay reads, cheaply; services/ratings_kept.py) and replayed again only when the mark moves, so
after any change to a game (a round corrected, a game deleted or reopened, a night deleted, a
merge, a club imported) they are what a replay from scratch gives (bench/README.md, "Ratings
kept"). A game counts when it finished with at least one round played. Tied places share a
rank; in a partnership game each team is one team (its place from the core's team standings);
late arrivals and players who left are rated like anyone at the table. A guest (no roster
entry) plays as a newcomer every time: nothing says two guests of one name are one person.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date

from sqlalchemy import BigInteger, ColumnElement, and_, cast, func, or_, select

from scorekeeper.extensions import db
from scorekeeper.models import Club, ClubNight, Game, Player, RosterPlayer
from scorekeeper.services import games as game_service
from scorekeeper.services import ratings_kept
from scorekeeper.services.export_csv import spreadsheet_safe

# The model lives in rating_replay.py; the service's callers also know these names from here.
from scorekeeper.services.rating_replay import BASE as BASE
from scorekeeper.services.rating_replay import (
    MODEL,
    Match,
    Replay,
    Step,
    replay,
    replay_json,
    replay_of_json,
)
from scorekeeper.services.rating_replay import SCALE as SCALE
from scorekeeper.services.rating_replay import rate_in_place as rate_in_place
from scorekeeper.services.rating_replay import scaled as scaled
from scorekeeper.services.rating_replay import skill as skill

PROVISIONAL_GAMES = 5
# A newcomer's two numbers on the rating's scale (How ratings work): skill and doubt (40 sigma).
NEWCOMER_SKILL = skill(MODEL.mu)
NEWCOMER_DOUBT = round(SCALE * MODEL.sigma)


# The club's matches ----------------------------------------------------------------------------


def club_matches(club_id: int, entries: dict[int, RosterPlayer] | None = None) -> list[Match]:
    """The club's finished games with a round played, as matches, in the order played.

    Two queries of plain numbers (the games, then their seats in the same order), plus the
    core's team standings for partnership games, whose team places the seats do not store."""
    merged: dict[int, int | None]
    if entries is not None:  # the caller has the roster already: no query for merges
        merged = {e.id: e.merged_into_id for e in entries.values() if e.merged_into_id is not None}
    else:
        rows = db.session.execute(
            select(RosterPlayer.id, RosterPlayer.merged_into_id).where(
                RosterPlayer.club_id == club_id, RosterPlayer.merged_into_id.is_not(None)
            )
        ).all()
        merged = {int(entry_id): into for entry_id, into in rows}
    seat_counts = (Player.place.is_not(None), Player.rounds_played > 0)
    game_counts = (Game.club_id == club_id, Game.finished_at.is_not(None))
    order = (Game.played_on, Game.id)
    # Through the session's connection, not the ORM: plain rows, a third of the cost.
    connection = db.session.connection()
    games = connection.execute(
        select(Game.id, Game.played_on, Game.club_night_id)
        .where(*game_counts)
        .where(select(Player.id).where(Player.game_id == Game.id, *seat_counts).exists())
        .order_by(*order)
    ).all()
    seats = connection.execute(
        select(Player.game_id, Player.roster_player_id, Player.team, Player.place)
        .join(Game, Game.id == Player.game_id)
        .where(*game_counts, *seat_counts)
        .order_by(*order, Player.seat)
    ).all()
    matches: list[Match] = []
    partnerships: list[int] = []
    position = 0
    for game_id, played_on, night_id in games:
        teams: list[tuple[int | None, ...]] = []
        ranks: list[int] = []
        partners = False
        while position < len(seats) and seats[position][0] == game_id:
            _game, roster_id, team, place = seats[position]
            if roster_id in merged:
                roster_id = _person(merged, roster_id)
            teams.append((roster_id,))
            ranks.append(int(place or 0))  # never None here (the query asks for it)
            partners = partners or team is not None
            position += 1
        if partners:
            partnerships.append(len(matches))
        matches.append(Match(game_id, played_on, night_id, tuple(teams), tuple(ranks)))
    for index in partnerships:
        matches[index] = _partnership(matches[index], merged)
    return matches


def _person(merged: dict[int, int | None], roster_id: int | None) -> int | None:
    """The roster entry a seat is now (an entry merged into another is that other)."""
    for _hop in range(5):
        if roster_id not in merged:
            break
        roster_id = merged[roster_id]
    return roster_id


def _partnership(match: Match, merged: dict[int, int | None]) -> Match:
    """A partnership game's match: each team one team, ranked by the core's team standings."""
    game = db.session.get(Game, match.game_id)
    assert game is not None
    snapshot = game_service.snapshot_of(game)
    places = {line.name: line.place for line in snapshot.state.team_standings}
    by_name = {
        player.name: _person(merged, player.roster_player_id)
        for player in game.players
        if player.place is not None
    }
    teams: list[tuple[int | None, ...]] = []
    ranks: list[int] = []
    for pair in snapshot.setup.teams:
        place = places.get(snapshot.setup.team_name(pair))
        if place is None or any(name not in by_name for name in pair):
            continue
        teams.append(tuple(by_name[name] for name in pair))
        ranks.append(place)
    return replace(match, teams=tuple(teams), ranks=tuple(ranks))


def club_replay(
    club: Club, entries: dict[int, RosterPlayer] | None = None, only: int | None = None
) -> Replay:
    """The club's ratings as a replay from scratch of its finished games gives them: the kept
    one if it was made at today's mark, else replayed and kept (`entries`: every roster entry
    of the club, if the caller has read them; `only`: a roster entry whose ratings alone are
    wanted, see replay_of_json)."""
    mark = mark_text(club)
    found = ratings_kept.read(club.id, mark, "replay")
    return replay_of_json(found[0], only) if found else _replay_and_keep(club, mark, entries)[1]


# A figure: a rated player's (roster id, mu, sigma, games, change since the last night).
Figure = tuple[int, float, float, int, int | None]


def kept_figures(club: Club, mark: str) -> list[Figure]:
    """Each rated player's figures at `mark` (the club's mark now): kept, or replayed and kept."""
    found = ratings_kept.read(club.id, mark, "lines")
    if found:
        return [cast_figure(figure) for figure in json.loads(found[0])]
    return _replay_and_keep(club, mark)[0]


def cast_figure(figure: list[object]) -> Figure:
    """A figure as JSON gives it back (a list), checked and typed."""
    entry_id, mu, sigma, games, change = figure
    assert isinstance(entry_id, int) and isinstance(mu, float) and isinstance(sigma, float)
    assert isinstance(games, int) and (change is None or isinstance(change, int))
    return entry_id, mu, sigma, games, change


def _replay_and_keep(
    club: Club, mark: str, entries: dict[int, RosterPlayer] | None = None
) -> tuple[list[Figure], Replay]:
    """Replay the club's games from scratch and keep the result under `mark`, read before the
    games (a game changed meanwhile moves the mark: the next view replays again). A thread
    that waited for another's replay of the club finds it kept."""
    if not ratings_kept.may_store():  # a write under way: replay for it alone, wait for nobody
        replayed = replay(club_matches(club.id, entries))
        ratings_kept.REPLAYS[club.id] += 1
        return rating_figures(club, replayed), replayed
    with ratings_kept.turn(club.id):
        found = ratings_kept.read(club.id, mark, "lines", "replay")
        if found:
            lines, kept = found
            return [cast_figure(figure) for figure in json.loads(lines)], replay_of_json(kept)
        replayed = replay(club_matches(club.id, entries))
        ratings_kept.REPLAYS[club.id] += 1
        figures = rating_figures(club, replayed)
        ratings_kept.store(club.id, mark, json.dumps(figures), replay_json(replayed))
        return figures, replayed


# What the pages show ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RatingLine:
    """A rated player on the club's Ratings page (and in its API answer and CSV)."""

    rank: int
    entry_id: int
    name: str
    mu: float
    sigma: float
    games: int
    change: int | None

    @property
    def rating(self) -> int:
        return scaled(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


def last_night_day(club: Club, replayed: Replay) -> date | None:
    """The day of the club's latest night with a rated game: changes are counted from it."""
    rated = {match.night_id for match in replayed.matches if match.night_id is not None}
    if not rated:
        return None
    return db.session.execute(
        select(ClubNight.played_on)
        .where(ClubNight.club_id == club.id, ClubNight.id.in_(rated))
        .order_by(ClubNight.played_on.desc())
        .limit(1)
    ).scalar_one_or_none()


def rating_figures(club: Club, replayed: Replay) -> list[Figure]:
    """Each rated roster player's figures; the change is what the rating moved since the start
    of the club's last night (None if they have not played since)."""
    since = last_night_day(club, replayed)
    figures: list[Figure] = []
    newcomer = scaled(MODEL.mu, MODEL.sigma)
    for entry_id in replayed.trail:
        mu, sigma = replayed.current(entry_id)
        change = None
        last = replayed.last_played(entry_id)
        if since is not None and last is not None and last >= since:
            before = replayed.rating_on(entry_id, since, before=True)
            change = scaled(mu, sigma) - (before if before is not None else newcomer)
        figures.append((entry_id, mu, sigma, replayed.games(entry_id), change))
    return figures


def rating_lines(figures: Sequence[Figure], entries: dict[int, RosterPlayer]) -> list[RatingLine]:
    """Each rated roster player (not merged away) with their name, best rating first."""
    lines: list[tuple[int, str, RatingLine]] = []
    for entry_id, mu, sigma, games, change in figures:
        entry = entries.get(entry_id)
        if entry is None or entry.merged_into_id is not None:
            continue
        line = RatingLine(0, entry_id, entry.display_name, mu, sigma, games, change)
        lines.append((-line.rating, entry.display_name.casefold(), line))
    lines.sort(key=lambda item: (item[0], item[1], item[2].entry_id))
    ranked: list[RatingLine] = []
    for index, (_key, _name, line) in enumerate(lines):
        same = ranked and ranked[-1].rating == line.rating
        rank = ranked[-1].rank if same else index + 1
        ranked.append(RatingLine(rank, *_fields(line)))
    return ranked


def _fields(line: RatingLine) -> tuple[int, str, float, float, int, int | None]:
    return line.entry_id, line.name, line.mu, line.sigma, line.games, line.change


@dataclass(frozen=True)
class RatingsAt:
    """The club's ratings now, named before any is read: the mark and the roster's names are
    everything the Ratings page, CSV and API show besides the club (their ETags)."""

    club: Club
    mark: str
    entries: dict[int, RosterPlayer]

    @property
    def names(self) -> tuple[tuple[int, str, int | None], ...]:
        return tuple((e.id, e.display_name, e.merged_into_id) for e in self.entries.values())

    def lines(self) -> list[RatingLine]:
        """The rated players, best first, from the kept replay (replayed if the mark moved)."""
        return rating_lines(kept_figures(self.club, self.mark), self.entries)


def ratings_at(club: Club) -> RatingsAt:
    """The club's ratings now: their mark and roster (two light queries), lines when asked."""
    return RatingsAt(club, mark_text(club), _entries(club))


def club_ratings(club: Club) -> list[RatingLine]:
    """The club's Ratings page, API answer and CSV: from the kept replay."""
    return ratings_at(club).lines()


def _entries(club: Club) -> dict[int, RosterPlayer]:
    rows = db.session.execute(select(RosterPlayer).where(RosterPlayer.club_id == club.id))
    return {entry.id: entry for entry in rows.scalars()}


@dataclass(frozen=True)
class PlayerRating:
    """A roster player's rating now, their history, and the games that moved it most."""

    rating: int
    mu: float
    sigma: float
    steps: list[Step]
    best: Step | None
    worst: Step | None

    @property
    def games(self) -> int:
        return len(self.steps)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


def player_rating(
    club: Club, entry_id: int, entries: dict[int, RosterPlayer] | None = None
) -> PlayerRating:
    """One player's rating and history from a replay of the club's games."""
    replayed = club_replay(club, entries, only=entry_id)
    steps = replayed.steps(entry_id)
    mu, sigma = replayed.current(entry_id)
    best = max(steps, key=lambda s: (s.change, s.played_on, s.game_id), default=None)
    worst = min(steps, key=lambda s: (s.change, s.played_on, s.game_id), default=None)
    if best is not None and best.change <= 0:
        best = None
    if worst is not None and worst.change >= 0:
        worst = None
    return PlayerRating(scaled(mu, sigma), mu, sigma, steps, best, worst)


@dataclass(frozen=True)
class SeasonChange:
    """A player's rating at the start and end of a season's dates."""

    entry_id: int
    name: str
    start: int
    end: int

    @property
    def change(self) -> int:
        return self.end - self.start


def season_changes(club: Club, starts_on: date, ends_on: date) -> list[SeasonChange]:
    """Each roster player who played a rated game between the dates (a season's): their
    rating before its first day and after its last; biggest rise first."""
    entries = _entries(club)
    replayed = club_replay(club, entries)
    changes: list[SeasonChange] = []
    newcomer = scaled(MODEL.mu, MODEL.sigma)
    for entry_id, trail in replayed.trail.items():
        entry = entries.get(entry_id)
        days = (replayed.matches[index].played_on for index, *_rest in trail)
        if entry is None or not any(starts_on <= day <= ends_on for day in days):
            continue
        start = replayed.rating_on(entry_id, starts_on, before=True)
        end = replayed.rating_on(entry_id, ends_on, before=False)
        changes.append(
            SeasonChange(
                entry_id,
                entry.display_name,
                start if start is not None else newcomer,
                end if end is not None else newcomer,
            )
        )
    return sorted(changes, key=lambda c: (-c.change, c.name.casefold(), c.entry_id))


@dataclass(frozen=True)
class Cut:
    """A point in the order the club's games are rated (the day played, then the game's id):
    the finished games before it count. A night's is its first table's game (`night_cut`):
    every game of earlier days and every game of the night's day started before it, not the
    night's own games nor any started after them. `game_id` None: every game of `day` counts
    (a draw, made before its night's games exist)."""

    day: date
    game_id: int | None = None

    def counts(self, played_on: date, game_id: int) -> bool:
        if played_on != self.day:
            return played_on < self.day
        return self.game_id is None or game_id < self.game_id


def standing(replayed: Replay, entry_id: int | None, cut: Cut | None = None) -> tuple[float, float]:
    """A player's (mu, sigma) after their last game before `cut` (now, if None); a newcomer's
    for a guest or someone who had not played by then."""
    if entry_id is None:
        return MODEL.mu, MODEL.sigma
    if cut is None:
        return replayed.current(entry_id)
    found = (MODEL.mu, MODEL.sigma)
    for index, mu, sigma, _rank in replayed.trail.get(entry_id, ()):
        match = replayed.matches[index]
        if not cut.counts(match.played_on, match.game_id):
            break  # a trail is in the order rated: the games counted come first
        found = (mu, sigma)
    return found


def win_chances(
    replayed: Replay, teams: Sequence[Sequence[int | None]], cut: Cut | None = None
) -> list[float]:
    """Each team's chance to win a table (openskill's prediction from each player's mu and
    sigma; 0..1, summing to 1), from the ratings now, or before `cut`."""
    if len(teams) < 2:
        return [1.0] * len(teams)
    return list(
        MODEL.predict_win(
            [[MODEL.rating(*standing(replayed, who, cut)) for who in team] for team in teams]
        )
    )


@dataclass(frozen=True)
class Chance:
    """A player (or a team of partners) at a table, their chance to win it, and what it comes
    from: their skill (mu on the rating's scale; partners' average) and, for comparison with
    the Ratings page, their cautious rating (mu - 3 sigma on that scale)."""

    names: tuple[str, ...]
    chance: float
    skill: int
    rating: int


def ratings_mark(club: Club, cut: Cut | None = None) -> tuple[int, ...]:
    """What the ratings (before `cut`, if given) depend on, cheaply: the club's finished games
    (how many, the last id, sums of their ids and versions: any write to a game moves its
    version) and its merged roster entries. A page showing those ratings names its ETag with
    this mark, and the kept replay is read only at the mark it was made at."""
    played: tuple[ColumnElement[bool], ...] = ()
    if cut is not None:
        same_day: list[ColumnElement[bool]] = [Game.played_on == cut.day]
        if cut.game_id is not None:
            same_day.append(Game.id < cut.game_id)
        played = (or_(Game.played_on < cut.day, and_(*same_day)),)
    merged = (RosterPlayer.club_id == club.id, RosterPlayer.merged_into_id.is_not(None))
    figures = db.session.execute(
        select(
            func.count(Game.id),
            func.max(Game.id),
            func.sum(Game.version),
            func.sum(cast(Game.id, BigInteger) * Game.version),
            *(
                select(aggregate).where(*merged).scalar_subquery()
                for aggregate in (
                    func.count(RosterPlayer.id),
                    func.sum(RosterPlayer.id),
                    func.sum(RosterPlayer.merged_into_id),
                )
            ),
        ).where(Game.club_id == club.id, Game.finished_at.is_not(None), *played)
    ).one()
    return tuple(int(figure or 0) for figure in figures)


def mark_text(club: Club) -> str:
    """The club's ratings mark now (all its finished games), as text."""
    return "-".join(map(str, ratings_mark(club)))


def night_cut(night: ClubNight) -> Cut:
    """Which games a night's chances count: those rated before its first table's game (every
    finished game of earlier days, and of its day those started before the night). Its own
    games never count, finished or not: its chances stay what they were when the tables sat
    down, all evening."""
    first = db.session.execute(
        select(func.min(Game.id)).where(Game.club_night_id == night.id)
    ).scalar_one_or_none()
    return Cut(night.played_on, int(first) if first is not None else 0)


def night_chances(club: Club, cut: Cut, games: Sequence[Game]) -> dict[int, list[Chance]]:
    """Each game's players (partners together) with their chance to win and their skill and
    rating, from the ratings before `cut` (`night_cut`); highest skill first (the order the
    page shows them in, then the higher chance). Keyed by game id."""
    replayed = club_replay(club)
    chances: dict[int, list[Chance]] = {}
    for game in games:
        groups: dict[object, list[Player]] = {}
        for seat in game.players:
            groups.setdefault(seat.team if seat.team is not None else ("seat", seat.id), []).append(
                seat
            )
        teams = [[seat.roster_player_id for seat in group] for group in groups.values()]
        odds = win_chances(replayed, teams, cut)
        lines = []
        for group, team, chance in zip(groups.values(), teams, odds, strict=True):
            standings = [standing(replayed, who, cut) for who in team]
            lines.append(
                Chance(
                    tuple(seat.name for seat in group),
                    chance,
                    round(sum(skill(mu) for mu, _sigma in standings) / len(standings)),
                    round(sum(scaled(*both) for both in standings) / len(standings)),
                )
            )
        chances[game.id] = sorted(lines, key=lambda line: (-line.skill, -line.chance, line.names))
    return chances


RATINGS_CSV_HEADER = (
    "rank",
    "player",
    "player_id",
    "rating",
    "mu",
    "sigma",
    "games",
    "provisional",
)


def ratings_csv(lines: Sequence[RatingLine]) -> str:
    """The Ratings page as CSV (mu and sigma as openskill gives them), for a spreadsheet."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(RATINGS_CSV_HEADER)
    for line in lines:
        writer.writerow(
            (
                line.rank,
                spreadsheet_safe(line.name),
                line.entry_id,
                line.rating,
                repr(line.mu),
                repr(line.sigma),
                line.games,
                "yes" if line.provisional else "no",
            )
        )
    return out.getvalue()
