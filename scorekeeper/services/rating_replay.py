"""The ratings model itself: openskill's Plackett-Luce (library defaults) replayed over a club's
matches, pure (no database), and a replay as JSON and back, bit for bit (ratings_kept.py keeps it).

The scale shown: openskill's conservative ordinal mu - 3 sigma, times 40, plus 1000. A newcomer
(mu 25, sigma 25/3) is 1000; the model's mu spans roughly 0 to 50, so ratings stay between
about 0 and 2000 and whole numbers are precise enough. A player's skill is mu alone on the same
scale (1000 + 40 mu: a newcomer's is 2000), what win chances and fair tables go by.
"""

from __future__ import annotations

import gc
import json
import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating
from openskill.models.weng_lin.common import _unwind

MODEL = PlackettLuce()  # library defaults: mu 25, sigma 25/3, beta 25/6
BASE = 1000
SCALE = 40


def scaled(mu: float, sigma: float) -> int:
    """The rating shown: the conservative ordinal mu - 3 sigma on the club's scale."""
    return round(BASE + SCALE * (mu - 3 * sigma))


def skill(mu: float) -> int:
    """The skill shown: mu on the rating's scale, so that rating = skill - 3 x 40 sigma."""
    return round(BASE + SCALE * mu)


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


# A replay as JSON -----------------------------------------------------------------------------


def replay_json(replayed: Replay) -> str:
    """The replay as JSON: floats as repr writes them, so they read back bit for bit. Each
    player's trail is a JSON text of its own, so that one player's is read without the others'."""
    matches = [
        (m.game_id, m.played_on.toordinal(), m.night_id, m.teams, m.ranks) for m in replayed.matches
    ]
    trail = {who: json.dumps(steps, separators=(",", ":")) for who, steps in replayed.trail.items()}
    return json.dumps({"matches": matches, "trail": trail}, separators=(",", ":"))


def replay_of_json(text: str, only: int | None = None) -> Replay:
    """The replay replay_json wrote: equal to the one it was given; or, `only` one roster
    player's, the same for them (their matches alone, in order: their steps, rating now and
    on any day are the whole replay's)."""
    with _collector_paused():
        data = json.loads(text)
        rows = data["matches"]
        if only is None:
            matches = [_match(row) for row in rows]
            trail = {
                int(who): [tuple(step) for step in json.loads(steps)]
                for who, steps in data["trail"].items()
            }
            return Replay(matches, trail)
        own = json.loads(data["trail"].get(str(only), "[]"))
        matches = [_match(rows[step[0]]) for step in own]
        steps = [(number, mu, sigma, rank) for number, (_i, mu, sigma, rank) in enumerate(own)]
        return Replay(matches, {only: steps} if steps else {})


def _match(row: list[Any]) -> Match:
    game_id, day, night, teams, ranks = row
    return Match(game_id, date.fromordinal(day), night, tuple(map(tuple, teams)), tuple(ranks))


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused while a replay is read back: the read makes
    about 100,000 containers without a cycle among them, and the collections their count sets
    off scan everything alive again and again (20 ms of CPU for 3,000 games, 120 with them)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
