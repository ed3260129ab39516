"""A write to one game: pinned to the version it read, all or nothing.

`current` takes the game's snapshot and pins the write to its version (versions.expect), so a
change another phone commits meanwhile makes the flush fail; `commit` writes and commits and
gives the new version; `unit_of_work` turns a lost race into StaleGame with nothing saved and
the session clean for the answer.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from sqlalchemy.exc import IntegrityError

from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.services.games import versions
from scorekeeper.services.games.snapshot import Snapshot, snapshot_of
from scorekeeper.services.games.versions import StaleGame

P = ParamSpec("P")
T = TypeVar("T")


def current(game: Game, expected_version: int | None = None) -> Snapshot:
    """The game as this write starts from: its snapshot, pinned so that the write fails with
    StaleGame if anyone changes the game meanwhile (or already did, past `expected_version`)."""
    snapshot = snapshot_of(game)
    if snapshot.version != game.version or expected_version not in (None, snapshot.version):
        raise StaleGame(game)
    versions.expect(game, snapshot.version)
    return snapshot


def commit(game: Game) -> int:
    """Write the pending changes and commit; the game's new version."""
    db.session.flush()
    version = versions.new_version(game.id)
    db.session.commit()
    assert version is not None
    return version


def unit_of_work(write: Callable[P, T]) -> Callable[P, T]:
    """A write to one game, all or nothing: StaleGame (nothing saved, the session clean for
    the answer) if another phone changed the game first or took the same round number."""

    @functools.wraps(write)
    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return write(*args, **kwargs)
        except StaleGame:
            db.session.rollback()
            raise
        except IntegrityError:
            db.session.rollback()
            raise StaleGame(args[0]) from None

    return run
