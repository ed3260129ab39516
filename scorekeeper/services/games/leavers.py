"""A player who leaves a game before it ends, and comes back (RULES.md section 11).

The mirror of a late arrival (late.py): the seat stays, `Player.left_after` says the last round
they played while they are away, and each round recorded meanwhile gives them a hand marked
`away`, scored by the core (the round's highest; nothing in the draw game). Coming back clears
`left_after`; the rounds in between stay as they were scored. Each is a history line.
"""

from __future__ import annotations

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Change, Game, Player
from scorekeeper.services.games.snapshot import Snapshot
from scorekeeper.services.games.unit import commit, current, game_write

# History lines: "left" (round_number: the last round played) and "came back".
LEFT = "left"
CAME_BACK = "came back"


def leave_problem(snapshot: Snapshot, name: str) -> core.Problem | None:
    """Why `name` cannot leave this game now (it is over, or the core's reasons), or None."""
    if snapshot.state.finished:
        return core.Problem("leave_finished", core.N_("The game is over: nobody can leave it."))
    return core.leave_problem(snapshot.setup, name, snapshot.state.rounds_played)


def come_back_problem(snapshot: Snapshot, name: str) -> core.Problem | None:
    """Why `name` cannot come back to this game now, or None."""
    if snapshot.state.finished:
        return core.Problem(
            "back_finished", core.N_("The game is over: nobody can come back to it.")
        )
    return core.come_back_problem(snapshot.setup, name)


@game_write
def leave(
    game: Game, name: str, *, device: str | None = None, expected_version: int | None = None
) -> int:
    """Mark `name` as gone after the last round played; returns that round's number.

    Raises core.RuleError (leave_problem) or StaleGame if the game changed meanwhile."""
    snapshot = current(game, expected_version)
    problem = leave_problem(snapshot, name)
    if problem is not None:
        raise core.RuleError(problem)
    after = snapshot.state.rounds_played
    _seat(game, name).left_after = after
    db.session.add(
        Change(game_id=game.id, action=LEFT, round_number=after, player=name, device=device)
    )
    commit(game)
    return after


@game_write
def come_back(
    game: Game, name: str, *, device: str | None = None, expected_version: int | None = None
) -> int:
    """Seat `name` again from the next round; returns that round's number.

    Raises core.RuleError (come_back_problem) or StaleGame if the game changed meanwhile."""
    snapshot = current(game, expected_version)
    problem = come_back_problem(snapshot, name)
    if problem is not None:
        raise core.RuleError(problem)
    back = snapshot.state.rounds_played + 1
    _seat(game, name).left_after = None
    db.session.add(
        Change(game_id=game.id, action=CAME_BACK, round_number=back, player=name, device=device)
    )
    commit(game)
    return back


def _seat(game: Game, name: str) -> Player:
    return next(player for player in game.players if player.name == name)
