"""The kept ratings: each club's last replay, stored in the database (`models.KeptRatings`)
under the ratings mark it was made at, so that every worker and server replays a club's games
once per change, not once per view (services/ratings.py says what a replay is and its mark).

A row is derived data: read only at its own mark, replaced by the next replay at another one,
and written on a read (a GET) in a short transaction of its own, never in the request's: the
one write a GET makes (tests/test_get_never_writes.py names it). Two workers replaying at once
both store (an upsert: the later one wins, either is right for its mark); within a process,
one replay of a club at a time, and whoever waited for it reads the row instead.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from flask import current_app, has_request_context, request
from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError

from scorekeeper.extensions import db
from scorekeeper.infra.sqlite import writing
from scorekeeper.models import KeptRatings, utcnow

# Replays run by this process, per club id (tests and bench/ratings_pages.py count them).
REPLAYS: Counter[int] = Counter()
_TURNS: dict[int, threading.Lock] = {}
_TURNS_LOCK = threading.Lock()


@contextmanager
def turn(club_id: int) -> Iterator[None]:
    """One replay of a club at a time in this process: eight members opening the page of a
    new mark at once cost one replay, not eight."""
    with _TURNS_LOCK:
        lock = _TURNS.setdefault(club_id, threading.Lock())
    with lock:
        yield


def read(club_id: int, mark: str, *columns: str) -> Sequence[str] | None:
    """The kept row's `columns` ("lines", "replay") if it was made at `mark`, else None. Read on
    a connection of its own: a row another thread kept a moment ago is seen."""
    wanted = [getattr(KeptRatings, column) for column in columns]
    with db.engine.connect() as connection:
        row = connection.execute(
            select(*wanted).where(KeptRatings.club_id == club_id, KeptRatings.mark == mark)
        ).first()
    return tuple(row) if row is not None else None


def store(club_id: int, mark: str, lines: str, replay: str) -> bool:
    """Keep the replay made at `mark` in place of the club's last one; False if it was not
    kept (a write under way in this session, or the database busy: the next view replays)."""
    if not may_store():
        return False
    values = {"club_id": club_id, "mark": mark, "lines": lines, "replay": replay}
    values["computed_at"] = utcnow()
    dialect = postgresql if db.engine.dialect.name == "postgresql" else sqlite
    statement = dialect.insert(KeptRatings).values(values)
    statement = statement.on_conflict_do_update(
        index_elements=[KeptRatings.club_id],
        set_={name: statement.excluded[name] for name in values if name != "club_id"},
    )
    try:
        with db.engine.begin() as connection:
            connection.execute(statement)
    except DBAPIError as error:  # busy past the timeout, or the club deleted meanwhile
        current_app.logger.warning("Ratings of club %s not kept: %s", club_id, error.orig)
        return False
    return True


def may_store() -> bool:
    """True if a replay made now may be kept. Only a read stores: a replay read in a session
    that is writing may show rows it later rolls back (and on SQLite a second connection would
    wait for this one's lock)."""
    if has_request_context() and request.method not in ("GET", "HEAD"):
        return False
    session = db.session()  # the request's own session, not its scoped proxy
    if session.new or session.dirty or session.deleted:
        return False
    return not (session.in_transaction() and writing(session.connection()))
