"""A write to one game: pinned to the version it read, all or nothing.

`current` takes the game's snapshot and pins the write to its version (versions.expect), so a
change another phone commits meanwhile makes the flush fail; `commit` writes and commits and
gives the new version; `game_write` turns a lost race into StaleGame with nothing saved and
the session clean for the answer, and runs the write again when PostgreSQL breaks a deadlock or
a serialization conflict by rolling it back (Busy past a few attempts).
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from sqlalchemy.exc import DBAPIError, IntegrityError

from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.services.games import versions
from scorekeeper.services.games.snapshot import Snapshot, snapshot_of
from scorekeeper.services.games.versions import StaleGame

P = ParamSpec("P")
T = TypeVar("T")


class Busy(Exception):
    """The database kept refusing the write (deadlock or serialization failure, retried): nothing
    was saved; the client should send it again in a moment."""

    retry_after = 1


# PostgreSQL's deadlock_detected and serialization_failure: the transaction was chosen to give
# way and may simply run again.
RETRYABLE_SQLSTATES = frozenset({"40P01", "40001"})
# Attempts in all, and the longest pause (seconds) before the next; jittered so that the two
# sides of a deadlock do not meet again.
ATTEMPTS = 4
MAX_PAUSE = 0.05


def retryable(error: DBAPIError) -> bool:
    """True when the database rolled the transaction back only to break a lock conflict."""
    return getattr(error.orig, "sqlstate", None) in RETRYABLE_SQLSTATES


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


def game_write(write: Callable[P, T]) -> Callable[P, T]:
    """A write to one game, all or nothing: StaleGame (nothing saved, the session clean for
    the answer) if another phone changed the game first or took the same round number; run
    again on a deadlock or serialization failure, Busy if that keeps happening."""

    @functools.wraps(write)
    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        for attempt in range(1, ATTEMPTS + 1):
            try:
                return write(*args, **kwargs)
            except StaleGame:
                db.session.rollback()
                raise
            except IntegrityError:
                db.session.rollback()
                raise StaleGame(args[0]) from None
            except DBAPIError as error:
                db.session.rollback()
                if not retryable(error):
                    raise
                if attempt == ATTEMPTS:
                    raise Busy() from error
                # The game's objects were expired by the rollback: the next attempt reads
                # the game afresh (its snapshot, its version) and checks the change again.
                time.sleep(random.uniform(0, MAX_PAUSE * attempt))
        raise AssertionError("unreachable")

    return run
