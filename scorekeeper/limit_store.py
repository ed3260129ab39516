"""Rate-limit counts in the app's own database (`RATELIMIT_STORAGE_URI = "database://"`), so
every gunicorn worker and every app server on one database counts together.

The `limits` package offers memory, Redis, Memcached and MongoDB storage; none shares counts
between `make run`'s processes without another server to run. This storage is the small part
of its interface that Flask-Limiter's fixed-window strategy uses (incr, get, get_expiry), one
row per counter in `rate_limit_counts`, each hit one atomic upsert (SQLite and PostgreSQL
alike), on a connection of its own, committed at once, whatever the request does after.
"""

from __future__ import annotations

import random
import time

from limits.storage import Storage
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from scorekeeper.extensions import db

# One atomic statement: a new counter, or one more hit in the current window, or a new window.
_HIT = text(
    "INSERT INTO rate_limit_counts (name, hits, expires_at) VALUES (:name, :amount, :ends) "
    "ON CONFLICT (name) DO UPDATE SET "
    "hits = CASE WHEN rate_limit_counts.expires_at > :now "
    "THEN rate_limit_counts.hits + :amount ELSE :amount END, "
    "expires_at = CASE WHEN rate_limit_counts.expires_at > :now "
    "THEN rate_limit_counts.expires_at ELSE :ends END "
    "RETURNING hits"
)
_CURRENT = text(
    "SELECT hits, expires_at FROM rate_limit_counts WHERE name = :name AND expires_at > :now"
)
# About one hit in this many also deletes the counters whose window has ended.
PRUNE_EVERY = 200


class DatabaseStorage(Storage):
    """Flask-Limiter's counters as rows of the current app's database."""

    STORAGE_SCHEME = ["database"]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: object):
        super().__init__(uri, wrap_exceptions=wrap_exceptions)

    @property
    def base_exceptions(self) -> type[Exception]:
        return SQLAlchemyError

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        now = time.time()
        with db.engine.begin() as connection:
            if random.randrange(PRUNE_EVERY) == 0:
                connection.execute(
                    text("DELETE FROM rate_limit_counts WHERE expires_at <= :now"), {"now": now}
                )
            hits = connection.execute(
                _HIT, {"name": key, "amount": amount, "ends": now + expiry, "now": now}
            ).scalar_one()
        return int(hits)

    def _current(self, key: str) -> tuple[int, float] | None:
        with db.engine.connect() as connection:
            row = connection.execute(_CURRENT, {"name": key, "now": time.time()}).first()
        return None if row is None else (int(row.hits), float(row.expires_at))

    def get(self, key: str) -> int:
        current = self._current(key)
        return 0 if current is None else current[0]

    def get_expiry(self, key: str) -> float:
        current = self._current(key)
        return time.time() if current is None else current[1]

    def check(self) -> bool:
        with db.engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        return True

    def reset(self) -> int | None:
        with db.engine.begin() as connection:
            return connection.execute(text("DELETE FROM rate_limit_counts")).rowcount

    def clear(self, key: str) -> None:
        with db.engine.begin() as connection:
            connection.execute(
                text("DELETE FROM rate_limit_counts WHERE name = :name"), {"name": key}
            )
