"""The engine double of each Mexican Train round, and who opens each round."""

from __future__ import annotations

from collections.abc import Sequence

from .setup import GameRules, GameType, Order


def engines(rules: GameRules) -> list[int]:
    """The engine of every round, in order: [12, 11, ..., 0] for a default double-12 game.

    Each number n stands for the double n-n. The draw game has no engine: an empty list.
    """
    if rules.game_type == GameType.DRAW:
        return []
    step = 1 if rules.order == Order.ASCENDING else -1
    start = rules.start_double
    if start is None:
        start = 0 if step == 1 else rules.set_size
    available = rules.set_size - start + 1 if step == 1 else start + 1
    rounds = available if rules.rounds is None else min(rules.rounds, available)
    return [start + step * index for index in range(rounds)]


def engine_of(rules: GameRules, round_number: int) -> int | None:
    """The engine of round `round_number` (1-based), or None past the last round or in draw."""
    schedule = engines(rules)
    if 1 <= round_number <= len(schedule):
        return schedule[round_number - 1]
    return None


def opener(players: Sequence[str], round_number: int) -> str:
    """Who opens round `round_number` (1-based): the first player, then clockwise (Galt 1994)."""
    return players[(round_number - 1) % len(players)]
