"""Totals, places and the tie-break chain (RULES.md section 5), for players or teams."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import accumulate


class DecidedBy(StrEnum):
    """What set a place apart from the others with the same total."""

    TOTAL = "total"
    ZERO_ROUNDS = "zero_rounds"
    LOWEST_NONZERO = "lowest_nonzero"
    SHARED = "shared"


@dataclass(frozen=True)
class Standing:
    """One line of the standings: a player (or team) and the place their rounds earn."""

    place: int
    shared: bool
    name: str
    total: int
    zero_rounds: int
    lowest_nonzero: int | None
    decided_by: DecidedBy
    rounds: tuple[int, ...]


def total(rounds: Sequence[int]) -> int:
    """A game total: the sum of the round scores (penalties are already in them)."""
    return sum(rounds)


def running_totals(rounds: Sequence[int]) -> list[int]:
    """The total after each round, for the race chart."""
    return list(accumulate(rounds))


def zero_rounds(rounds: Sequence[int]) -> int:
    """How many rounds scored 0: the first tie-breaker."""
    return sum(1 for score in rounds if score == 0)


def lowest_nonzero(rounds: Sequence[int]) -> int | None:
    """The smallest round score other than 0: the second tie-breaker (None if every round was 0)."""
    return min((score for score in rounds if score != 0), default=None)


def _tie_key(rounds: Sequence[int]) -> tuple[int, float]:
    low = lowest_nonzero(rounds)
    return (-zero_rounds(rounds), float("inf") if low is None else low)


def standings(
    round_scores: Mapping[str, Sequence[int]], *, higher_wins: bool = False
) -> list[Standing]:
    """Rank players by total (lowest first, or highest for the draw game) with the tie-breakers.

    Mexican Train ties go to most zero rounds, then lowest non-zero round; still tied players
    share the place and the next place counts everyone ahead (1, 1, 3). The draw game has no
    tie-breaker: equal totals share the place.
    """
    names = list(round_scores)

    def key(name: str) -> tuple[float, ...]:
        rounds = round_scores[name]
        if higher_wins:
            return (-total(rounds),)
        return (total(rounds), *_tie_key(rounds))

    keys = {name: key(name) for name in names}  # each player's key worked out once
    ordered = sorted(names, key=keys.__getitem__)
    lines: list[Standing] = []
    for name in ordered:
        rounds = round_scores[name]
        same_key = [other for other in ordered if keys[other] == keys[name]]
        place = ordered.index(same_key[0]) + 1
        lines.append(
            Standing(
                place=place,
                shared=len(same_key) > 1,
                name=name,
                total=total(rounds),
                zero_rounds=zero_rounds(rounds),
                lowest_nonzero=lowest_nonzero(rounds),
                decided_by=_decided_by(name, round_scores, higher_wins),
                rounds=tuple(rounds),
            )
        )
    return lines


def _decided_by(
    name: str, round_scores: Mapping[str, Sequence[int]], higher_wins: bool
) -> DecidedBy:
    rounds = round_scores[name]
    level = [other for other in round_scores if total(round_scores[other]) == total(rounds)]
    if len(level) == 1:
        return DecidedBy.TOTAL
    if higher_wins:
        return DecidedBy.SHARED
    zeros = [o for o in level if zero_rounds(round_scores[o]) == zero_rounds(rounds)]
    if len(zeros) == 1:
        return DecidedBy.ZERO_ROUNDS
    lows = [o for o in zeros if lowest_nonzero(round_scores[o]) == lowest_nonzero(rounds)]
    if len(lows) == 1:
        return DecidedBy.LOWEST_NONZERO
    return DecidedBy.SHARED


def winners(lines: Sequence[Standing]) -> list[str]:
    """Who holds first place (several when it is shared)."""
    return [line.name for line in lines if line.place == 1]
