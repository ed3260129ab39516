"""Club ratings: openskill's Plackett-Luce model (library defaults) replayed over every finished
club game, in the order the games were played (played_on, then the game's id).

Ratings are derived data: nothing is stored. Each read replays the club's finished games from
their stored final places (Player.place), so after any change to a game (a round corrected, a
game deleted or reopened, a night deleted, a club imported) they are what a replay from scratch
gives; there is no cache to keep fresh (bench/ratings_replay.py: 10,000 games in well under a
second). A game counts when it finished with at least one round played. Tied places share a
rank; in a partnership game each team is one team (its place from the core's team standings);
late arrivals and players who left are rated like anyone at the table. A guest (no roster
entry) plays as a newcomer every time: nothing says two guests of one name are one person.

The scale shown: openskill's conservative ordinal mu - 3 sigma, times 40, plus 1000. A newcomer
(mu 25, sigma 25/3) is 1000; the model's mu spans roughly 0 to 50, so ratings stay between
about 0 and 2000 and whole numbers are precise enough.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date

from openskill.models import PlackettLuce, PlackettLuceRating
from openskill.models.weng_lin.common import _unwind
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.models import Club, ClubNight, Game, Player, RosterPlayer
from scorekeeper.services import games as game_service
from scorekeeper.services.export_csv import spreadsheet_safe

MODEL = PlackettLuce()  # library defaults: mu 25, sigma 25/3, beta 25/6
PROVISIONAL_GAMES = 5
BASE = 1000
SCALE = 40


def scaled(mu: float, sigma: float) -> int:
    """The rating shown: the conservative ordinal mu - 3 sigma on the club's scale."""
    return round(BASE + SCALE * (mu - 3 * sigma))


# One match and its result ----------------------------------------------------------------------


@dataclass(frozen=True)
class Match:
    """One finished game as the model sees it: teams of players (a roster id, or None for a
    guest) and each team's rank (its place: tied places share a rank, lower is better)."""

    game_id: int
    played_on: date
    night_id: int | None
    teams: tuple[tuple[int | None, ...], ...]
    ranks: tuple[int, ...]


@dataclass(frozen=True)
class Step:
    """A player's rating after one game, and before it."""

    game_id: int
    played_on: date
    night_id: int | None
    mu: float
    sigma: float
    mu_before: float
    sigma_before: float
    rank: int
    teams: int

    @property
    def rating(self) -> int:
        return scaled(self.mu, self.sigma)

    @property
    def change(self) -> int:
        """What this game did to the rating shown."""
        return self.rating - scaled(self.mu_before, self.sigma_before)


@dataclass
class Replay:
    """Every roster player's rating history, game by game, in the order played: per player,
    (index of the match, mu, sigma, rank) after each of their games, kept as plain tuples (the
    replay makes one per seat; Step objects are made only for what a page shows)."""

    matches: list[Match] = field(default_factory=list)
    trail: dict[int, list[tuple[int, float, float, int]]] = field(default_factory=dict)

    def games(self, entry_id: int) -> int:
        return len(self.trail.get(entry_id, ()))

    def current(self, entry_id: int) -> tuple[float, float]:
        """(mu, sigma) now: the last game's, or a newcomer's."""
        found = self.trail.get(entry_id)
        if not found:
            return MODEL.mu, MODEL.sigma
        return found[-1][1], found[-1][2]

    def last_played(self, entry_id: int) -> date | None:
        found = self.trail.get(entry_id)
        return self.matches[found[-1][0]].played_on if found else None

    def steps(self, entry_id: int) -> list[Step]:
        """The player's games, each with their rating before and after it."""
        steps: list[Step] = []
        mu_before, sigma_before = MODEL.mu, MODEL.sigma
        for index, mu, sigma, rank in self.trail.get(entry_id, ()):
            match = self.matches[index]
            steps.append(
                Step(
                    match.game_id,
                    match.played_on,
                    match.night_id,
                    mu,
                    sigma,
                    mu_before,
                    sigma_before,
                    rank,
                    len(match.teams),
                )
            )
            mu_before, sigma_before = mu, sigma
        return steps

    def before(self, entry_id: int, day: date) -> tuple[float, float]:
        """(mu, sigma) after the player's last game played before `day` (a newcomer's if none)."""
        found = (MODEL.mu, MODEL.sigma)
        for index, mu, sigma, _rank in self.trail.get(entry_id, ()):
            if self.matches[index].played_on >= day:
                break
            found = (mu, sigma)
        return found

    def rating_on(self, entry_id: int, day: date, *, before: bool) -> int | None:
        """The rating shown after the player's last game played before `day` (or on or
        before it, if not `before`); None if they had not played by then."""
        found: tuple[float, float] | None = None
        for index, mu, sigma, _rank in self.trail.get(entry_id, ()):
            played_on = self.matches[index].played_on
            if played_on < day or (not before and played_on == day):
                found = (mu, sigma)
            else:
                break
        return scaled(*found) if found is not None else None


def replay(matches: Sequence[Match]) -> Replay:
    """Rate the matches in the order given, from scratch (pure: no database)."""
    ratings: dict[int, PlackettLuceRating] = {}
    result = Replay(list(matches))
    trail = result.trail
    for number, match in enumerate(result.matches):
        if len(match.teams) < 2:
            continue
        teams = [[_rating_of(ratings, who) for who in team] for team in match.teams]
        rate_in_place(teams, match.ranks)
        for team, rated, rank in zip(match.teams, teams, match.ranks, strict=True):
            for who, rating in zip(team, rated, strict=True):
                if who is not None:
                    trail.setdefault(who, []).append((number, rating.mu, rating.sigma, rank))
    return result


def _rating_of(ratings: dict[int, PlackettLuceRating], who: int | None) -> PlackettLuceRating:
    """The player's one rating object (made on their first game); a guest's is new each time."""
    if who is None:
        return MODEL.rating()
    found = ratings.get(who)
    if found is None:
        found = ratings[who] = MODEL.rating()
    return found


def rate_in_place(teams: list[list[PlackettLuceRating]], ranks: Sequence[int]) -> None:
    """What MODEL.rate(teams, ranks=ranks) computes, written into the given ratings.

    rate() spends about three quarters of its time deep-copying the teams and giving every
    copy a uuid4 (bench/README.md, "Ratings"); the replay owns its rating objects, so it runs
    the same steps on them instead: sigma widened by tau, teams ordered by rank, the model's
    update, which writes each player's new mu and sigma into the objects it is given.
    tests/ratings/test_ratings_replay.py checks the floats are rate()'s, bit for bit."""
    tau_squared = MODEL.tau * MODEL.tau
    for team in teams:
        for rating in team:
            rating.sigma = math.sqrt(rating.sigma * rating.sigma + tau_squared)
    ordered, _tenet = _unwind([float(rank) for rank in ranks], teams)
    MODEL._compute(teams=ordered, ranks=sorted(float(rank) for rank in ranks))


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


def club_replay(club: Club, entries: dict[int, RosterPlayer] | None = None) -> Replay:
    """The club's ratings, replayed from scratch from its finished games (`entries`: every
    roster entry of the club, if the caller has read them)."""
    return replay(club_matches(club.id, entries))


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


def rating_lines(
    club: Club, replayed: Replay, entries: dict[int, RosterPlayer]
) -> list[RatingLine]:
    """Each rated roster player (not merged away), best rating first; `change` is what the
    rating moved since the start of the club's last night (None if they have not played since)."""
    since = last_night_day(club, replayed)
    lines: list[tuple[int, str, RatingLine]] = []
    newcomer = scaled(MODEL.mu, MODEL.sigma)
    for entry_id in replayed.trail:
        entry = entries.get(entry_id)
        if entry is None or entry.merged_into_id is not None:
            continue
        mu, sigma = replayed.current(entry_id)
        change = None
        last = replayed.last_played(entry_id)
        if since is not None and last is not None and last >= since:
            before = replayed.rating_on(entry_id, since, before=True)
            change = scaled(mu, sigma) - (before if before is not None else newcomer)
        games = replayed.games(entry_id)
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


def club_ratings(club: Club) -> list[RatingLine]:
    """The club's Ratings page, API answer and CSV: one replay."""
    entries = _entries(club)
    return rating_lines(club, club_replay(club, entries), entries)


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
    replayed = club_replay(club, entries)
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


def win_chances(
    replayed: Replay, teams: Sequence[Sequence[int | None]], day: date | None = None
) -> list[float]:
    """Each team's chance to win a table (openskill's prediction; 0..1, summing to 1), from
    the ratings now, or before `day`'s games."""
    if len(teams) < 2:
        return [1.0] * len(teams)

    def rating(who: int | None) -> PlackettLuceRating:
        if who is None:
            return MODEL.rating()
        if day is None:
            return MODEL.rating(*replayed.current(who))
        return MODEL.rating(*replayed.before(who, day))

    return list(MODEL.predict_win([[rating(who) for who in team] for team in teams]))


@dataclass(frozen=True)
class Chance:
    """A player (or a team of partners) at a table and their chance to win it."""

    names: tuple[str, ...]
    chance: float
    rating: int


def ratings_mark(club: Club, day: date) -> tuple[int, int, int, int]:
    """What the ratings before `day` depend on, cheaply: the club's finished games played
    before it (how many, the last id, the sum of their versions) and its merged roster
    entries. A page showing those ratings names its ETag with this mark."""
    games = db.session.execute(
        select(func.count(Game.id), func.max(Game.id), func.sum(Game.version)).where(
            Game.club_id == club.id, Game.finished_at.is_not(None), Game.played_on < day
        )
    ).one()
    merged = db.session.scalar(
        select(func.count(RosterPlayer.id)).where(
            RosterPlayer.club_id == club.id, RosterPlayer.merged_into_id.is_not(None)
        )
    )
    count, last, versions = games
    return int(count or 0), int(last or 0), int(versions or 0), int(merged or 0)


def night_chances(club: Club, day: date, games: Sequence[Game]) -> dict[int, list[Chance]]:
    """Each game's players (partners together) with their chance to win, from the ratings
    as they stood before the day's games; most likely first. Keyed by game id."""
    replayed = club_replay(club)
    chances: dict[int, list[Chance]] = {}
    for game in games:
        groups: dict[object, list[Player]] = {}
        for seat in game.players:
            groups.setdefault(seat.team if seat.team is not None else ("seat", seat.id), []).append(
                seat
            )
        teams = [[seat.roster_player_id for seat in group] for group in groups.values()]
        odds = win_chances(replayed, teams, day)
        lines = []
        for group, team, chance in zip(groups.values(), teams, odds, strict=True):
            ratings = [
                scaled(*replayed.before(who, day)) if who is not None else BASE for who in team
            ]
            lines.append(
                Chance(
                    tuple(seat.name for seat in group), chance, round(sum(ratings) / len(ratings))
                )
            )
        chances[game.id] = sorted(lines, key=lambda line: (-line.chance, line.names))
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
