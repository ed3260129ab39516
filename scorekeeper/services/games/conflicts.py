"""A round two phones saved: what the other phone saved and what this one typed, side by side.

The phone that lost the race is shown both, each scored by the core, before it chooses to keep
the saved round, replace it with its own, or record its own as the next round.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper import core
from scorekeeper.models import Game
from scorekeeper.services.games.late import as_played
from scorekeeper.services.games.snapshot import snapshot_of


@dataclass(frozen=True)
class Conflict:
    """Round `number` as saved (and its version, for a replacement pinned to it) beside the
    core's check of what this phone typed for it; whether the game can take another round."""

    number: int
    saved: core.RoundResult
    round_version: int
    yours: core.RoundCheck
    next_round: int | None


def conflict_of(game: Game, number: int, entry: core.RoundEntry) -> Conflict | None:
    """The conflict over round `number` of the game as it now stands, or None when no round of
    that number is saved (the game changed in some other way)."""
    snapshot = snapshot_of(game)
    saved = snapshot.result(number)
    version = snapshot.round_version(number)
    if saved is None or version is None:
        return None
    setup, played = as_played(snapshot, number, entry)
    state = snapshot.state
    return Conflict(
        number=number,
        saved=saved,
        round_version=version,
        yours=core.check_round(setup, number, played),
        next_round=None if state.finished else state.next_round,
    )
