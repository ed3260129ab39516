"""One unit of work for every service write: all of it is committed together, or none of it.

    with unit_of_work():          # or @unit_of_work() on the service function
        club.name = name
        record(club, by, "renamed", name)

Leaving the block normally commits; any exception rolls everything back, so a refused or failed
write never leaves half its rows behind for the next write of the request to commit. A unit
opened inside another (a service calling another service) joins it: it flushes at its end (so
new rows have their ids, as after a commit), and only the outermost commits. A game's own
writes also pin the version they read (`services/games/unit.py`).
`tests/services/test_unit.py` fails on a commit anywhere else.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from scorekeeper.extensions import db

_OPEN = "scorekeeper.unit_of_work"


class NotAlone(RuntimeError):
    """A write that must commit on its own (`alone=True`) was opened inside another unit."""


@contextmanager
def unit_of_work(*, alone: bool = False) -> Iterator[None]:
    """Commit what the block writes when it ends, or roll it all back if it raises. `alone`:
    this write must be committed whatever happens next (a failed sign-in's count, before the
    sign-in is refused), so it may not join an outer unit (NotAlone if it would)."""
    session = db.session
    if session.info.get(_OPEN) and alone:
        raise NotAlone("this write commits on its own: call it outside any unit of work")
    if session.info.get(_OPEN):
        yield  # the outer unit commits or rolls back; what this one wrote gets its ids now
        session.flush()
        return
    session.info[_OPEN] = True
    try:
        yield
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.info.pop(_OPEN, None)
