"""Seasons and club nights: standings across games, placement points, late arrivals, and the
season's story (the longest run of wins, the best round).

A season ranks players by one of three methods chosen per season (games won, placement
points, average score per round). The inputs are per-player aggregates that the database can
sum (games, wins, rounds, total score, and how often they finished in each placement), so a
long season never has to load every round.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Generic, NamedTuple, TypeVar

from .problems import N_, Problem, RuleError
from .rounding import round_half_up


class SeasonMethod(StrEnum):
    """How a season's standings are computed."""

    GAMES_WON = "games_won"
    PLACEMENT_POINTS = "placement_points"
    AVERAGE = "average"


class LateRule(StrEnum):
    """How the rounds a late arrival missed are scored (chosen by the club)."""

    HIGHEST = "highest"
    AVERAGE = "average"
    ZERO = "zero"


# One placement in one game: (players in the game, place, how many shared that place).
Placement = tuple[int, int, int]


@dataclass(frozen=True)
class PlayerSeason:
    """What the database sums for one player over a season's finished games."""

    player: str
    games: int
    wins: int
    rounds: int
    total_score: int
    placements: Mapping[Placement, int] = field(default_factory=dict)


@dataclass(frozen=True)
class SeasonLine:
    """One line of a season's standings."""

    place: int | None
    shared: bool
    player: str
    games: int
    wins: int
    points: Fraction
    average: Fraction | None
    qualified: bool


def parse_points_table(text: str | None) -> tuple[int, ...] | None:
    """A placement table typed as '3, 2, 1, 0' (points for 1st, 2nd, ...); empty: the default."""
    if text is None or not text.strip():
        return None
    parts = [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]
    if not parts or len(parts) > 20 or not all(p.removeprefix("-").isdecimal() for p in parts):
        raise RuleError(
            Problem(
                "points_table",
                N_("Write the points for 1st, 2nd, 3rd... separated by commas, like 3, 2, 1, 0."),
                field="points_table",
            )
        )
    return tuple(int(part) for part in parts)


def position_points(players: int, position: int, table: Sequence[int] | None = None) -> int:
    """Points for finishing at `position` (1-based) among `players`.

    Default: one point for every player finished ahead of (the winner of four scores 3, the last
    0). A table gives points by position; positions past its end score 0.
    """
    if table is None:
        return players - position
    return table[position - 1] if position <= len(table) else 0


def placement_points(
    players: int, place: int, shared: int, table: Sequence[int] | None = None
) -> Fraction:
    """Points for a place; players sharing it split the points of the places they share."""
    positions = range(place, place + shared)
    return Fraction(sum(position_points(players, p, table) for p in positions), shared)


def season_standings(
    players: Sequence[PlayerSeason],
    method: SeasonMethod,
    *,
    min_games: int = 1,
    table: Sequence[int] | None = None,
) -> list[SeasonLine]:
    """Rank a season (competition ranking: 1, 1, 3).

    - games won: most wins; ties broken by the lower average score per round;
    - placement points: most points;
    - average score per round: lowest first, only players with at least `min_games` games are
      ranked (the others are listed after them, unranked).
    """
    lines = []
    for line in players:
        average = Fraction(line.total_score, line.rounds) if line.rounds else None
        points = sum(
            (
                placement_points(n, place, shared, table) * count
                for (n, place, shared), count in line.placements.items()
            ),
            Fraction(0),
        )
        qualified = method is not SeasonMethod.AVERAGE or line.games >= min_games
        lines.append((line, average, points, qualified))

    def key(
        item: tuple[PlayerSeason, Fraction | None, Fraction, bool],
    ) -> tuple[Fraction | int, ...]:
        line, average, points, _qualified = item
        worst = Fraction(10**9)
        if method is SeasonMethod.GAMES_WON:
            return (-line.wins, average if average is not None else worst)
        if method is SeasonMethod.PLACEMENT_POINTS:
            return (-points,)
        return (average if average is not None else worst,)

    ranked = sorted(
        (item for item in lines if item[3]), key=lambda item: (key(item), item[0].player)
    )
    unranked = sorted((item for item in lines if not item[3]), key=lambda item: item[0].player)
    # Each key once, and places in one pass (equal keys sit together in `ranked`): a club with
    # dozens of players must not cost a comparison of every pair.
    keys = [key(item) for item in ranked]
    ties = Counter(keys)
    result: list[SeasonLine] = []
    place = 0
    for index, item in enumerate(ranked):
        if index == 0 or keys[index] != keys[index - 1]:
            place = index + 1
        line, average, points, _ = item
        result.append(
            SeasonLine(
                place,
                ties[keys[index]] > 1,
                line.player,
                line.games,
                line.wins,
                points,
                average,
                True,
            )
        )
    for line, average, points, _ in unranked:
        result.append(
            SeasonLine(None, False, line.player, line.games, line.wins, points, average, False)
        )
    return result


def late_scores(rule: LateRule, others: Sequence[Sequence[int]]) -> list[int]:
    """What a late arrival scores for each round they missed, from the others' round scores.

    `others[r]` holds the scores of the players who played round r. Averages round half up
    (the one rounding rule, core.round_half_up).
    """
    scores = []
    for round_scores in others:
        if rule is LateRule.ZERO or not round_scores:
            scores.append(0)
        elif rule is LateRule.HIGHEST:
            scores.append(max(round_scores))
        else:
            average = Fraction(sum(round_scores), len(round_scores))
            scores.append(int(round_half_up(average)))
    return scores


# The season's story ----------------------------------------------------------------------------


def longest_run(won: Sequence[bool]) -> tuple[int, int]:
    """The longest run of wins in a player's games in the order played: (its length, the index
    of its first game); the earliest of equally long runs; (0, -1) without a win."""
    best, start, run = 0, -1, 0
    for index, win in enumerate(won):
        run = run + 1 if win else 0
        if run > best:
            best, start = run, index - run + 1
    return best, start


# Who played a hand: a roster entry, or None for a guest (a guest's hand counts for the others).
Who = TypeVar("Who", bound=Hashable)


class RoundScores(NamedTuple, Generic[Who]):
    """One round as best_round sees it: every hand played that round summed, how many hands
    were played, and the hands that may be its best (who, score). A hand can only be the best
    of its round if no other in it scored less, so a caller may give just those. (A tuple: a
    season gives thousands.)"""

    total: int
    played: int
    hands: Sequence[tuple[Who | None, int]]

    @classmethod
    def of(cls, hands: Sequence[tuple[Who | None, int]]) -> RoundScores[Who]:
        """A round from every hand played in it."""
        return cls(sum(score for _who, score in hands), len(hands), hands)


@dataclass(frozen=True)
class BestRound(Generic[Who]):
    """The round a player did best in against their table: their score and the others' average."""

    index: int  # the round's position in the rounds given
    player: Who
    score: int
    others: Fraction  # the average score of the others who played that round

    @property
    def margin(self) -> Fraction:
        """How far below the others' average the player scored."""
        return self.others - self.score


def best_round(rounds: Sequence[RoundScores[Who]]) -> BestRound[Who] | None:
    """Of every round given, the one where a player scored furthest below the average of the
    others who played it: (total - score) / (played - 1) - score, the widest gap.

    Lowest scores win, so a round a player went out (0) while the others were caught holding
    the most is the best. Ties: the earliest round, then the first hand given. A round of one
    hand has no one to beat; a guest's hand (None) counts for the others only."""
    # The gap is (total - played * score) / (played - 1): compared as integers, cross-multiplied
    # (a season holds ten thousand hands; a Fraction each would cost ~100 ms).
    best: tuple[int, int, int, Who, int] | None = None  # gap over (played - 1), index, ...
    for index, scores in enumerate(rounds):
        if scores.played < 2:
            continue
        below = scores.played - 1
        for who, score in scores.hands:
            if who is None:
                continue
            gap = scores.total - scores.played * score
            if best is None or gap * best[1] > best[0] * below:
                best = (gap, below, index, who, score)
    if best is None:
        return None
    _gap, below, index, who, score = best
    return BestRound(index, who, score, Fraction(rounds[index].total - score, below))
