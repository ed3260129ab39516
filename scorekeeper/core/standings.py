"""Totals, places and the tie-break chain (RULES.md section 5), for players or teams."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import accumulate


class DecidedBy(StrEnum):
    """What set a place apart from the others with the same total."""

    TOTAL = "total"
    ZERO_ROUNDS = "zero_rounds"
    LOWEST_NONZERO = "lowest_nonzero"
    SHARED = "shared"
    # Draw game: a player who left is ranked after those who stayed (RULES.md section 11).
    LEFT = "left"


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
    # The last round played by a player who left and has not come back (RULES.md 11).
    left_after: int | None = None


def total(rounds: Sequence[int]) -> int:
    """A game total: the sum of the round scores (penalties are already in them)."""
    return sum(rounds)


def running_totals(rounds: Sequence[int]) -> list[int]:
    """The total after each round, for the race chart."""
    return list(accumulate(rounds))


def zero_rounds(rounds: Sequence[int], missed: Collection[int] = ()) -> int:
    """How many rounds the player played and scored 0: the first tie-breaker. `missed`: the
    indexes of rounds the player did not play (a late arrival's, a leaver's), which never count,
    whatever they scored (RULES.md sections 5, 10 and 11)."""
    return sum(1 for index, score in enumerate(rounds) if score == 0 and index not in missed)


def lowest_nonzero(rounds: Sequence[int], missed: Collection[int] = ()) -> int | None:
    """The smallest score other than 0 of a round the player played: the second tie-breaker
    (None if there is none). Missed rounds take no part (RULES.md section 10, example 10.2)."""
    return min(
        (score for index, score in enumerate(rounds) if score != 0 and index not in missed),
        default=None,
    )


def standings(
    round_scores: Mapping[str, Sequence[int]],
    *,
    higher_wins: bool = False,
    missed: Mapping[str, Collection[int]] | None = None,
    left_after: Mapping[str, int] | None = None,
) -> list[Standing]:
    """Rank players by total (lowest first, or highest for the draw game) with the tie-breakers.

    Mexican Train ties go to most zero rounds, then lowest non-zero round; still tied players
    share the place and the next place counts everyone ahead (1, 1, 3). The draw game has no
    tie-breaker: equal totals share the place. `missed`: per player, the indexes of the rounds
    they did not play (late arrivals, leavers), which take no part in the tie-breakers
    (RULES.md section 10). `left_after`: the players who left and have not come back, with the
    last round they played: in the draw game they rank after everyone who stayed, later leavers
    first (RULES.md section 11); in Mexican Train they rank like anyone else.
    """
    names = list(round_scores)
    gone = left_after or {}
    skip = missed or {}
    zeros = {name: zero_rounds(round_scores[name], skip.get(name, ())) for name in names}
    lows = {name: lowest_nonzero(round_scores[name], skip.get(name, ())) for name in names}

    def key(name: str) -> tuple[float, ...]:
        rounds = round_scores[name]
        if higher_wins:
            after = gone.get(name)
            return (after is not None, -(after or 0), -total(rounds))
        low = lows[name]
        return (total(rounds), -zeros[name], float("inf") if low is None else low)

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
                zero_rounds=zeros[name],
                lowest_nonzero=lows[name],
                decided_by=(
                    DecidedBy.LEFT
                    if higher_wins and name in gone
                    else _decided_by(name, round_scores, zeros, lows, higher_wins, gone)
                ),
                rounds=tuple(rounds),
                left_after=gone.get(name),
            )
        )
    return lines


def _decided_by(
    name: str,
    round_scores: Mapping[str, Sequence[int]],
    zeros: Mapping[str, int],
    lows: Mapping[str, int | None],
    higher_wins: bool,
    gone: Mapping[str, int],
) -> DecidedBy:
    rounds = round_scores[name]
    level = [other for other in round_scores if total(round_scores[other]) == total(rounds)]
    if higher_wins:
        # Leavers rank apart in the draw game: a stayer's total is only level with a stayer's.
        level = [other for other in level if other not in gone]
    if len(level) == 1:
        return DecidedBy.TOTAL
    if higher_wins:
        return DecidedBy.SHARED
    same_zeros = [o for o in level if zeros[o] == zeros[name]]
    if len(same_zeros) == 1:
        return DecidedBy.ZERO_ROUNDS
    same_lows = [o for o in same_zeros if lows[o] == lows[name]]
    if len(same_lows) == 1:
        return DecidedBy.LOWEST_NONZERO
    return DecidedBy.SHARED


def winners(lines: Sequence[Standing]) -> list[str]:
    """Who holds first place (several when it is shared)."""
    return [line.name for line in lines if line.place == 1]
