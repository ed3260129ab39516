"""Rate-limit counts in the app's own database (`RATELIMIT_STORAGE_URI = "database://"`), so
every gunicorn worker and every app server on one database counts together.

The `limits` package offers memory, Redis, Memcached and MongoDB storage; none shares counts
between `make run`'s processes without another server to run. This storage is the small part
of its interface that Flask-Limiter's fixed-window strategy uses (incr, get, get_expiry), one
row per counter in `rate_limit_counts`, each hit one atomic upsert (SQLite and PostgreSQL
alike), on a connection of its own, committed at once, whatever the request does after.

Counters need no durability (a crash forgets a minute of counts at worst), so a hit never waits
for the disk: on PostgreSQL its transaction commits with `synchronous_commit` off; with SQLite
the counts live in a file of their own beside the database (`<name>.limits.sqlite`, WAL,
`synchronous=NORMAL`), so a hit costs ~0.3 ms instead of an fsync (~5 ms here) and never
queues behind the app's writers for SQLite's one write lock.
"""

from __future__ import annotations

import os
import random
import time
from typing import Any

from flask import current_app
from limits.storage import Storage
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import StaticPool

from scorekeeper.extensions import db
from scorekeeper.infra.sqlite import create_private

# The app's extension key of the engine the counts use.
_ENGINE = "scorekeeper_limit_engine"
_TABLE = (
    "CREATE TABLE IF NOT EXISTS rate_limit_counts "
    "(name VARCHAR(600) PRIMARY KEY, hits INTEGER NOT NULL, expires_at FLOAT NOT NULL)"
)
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


def counts_file(database: str) -> str:
    """The SQLite file the counts of an app on SQLite file `database` live in."""
    stem, extension = os.path.splitext(database)
    return f"{stem}.limits{extension or '.sqlite'}"


def _sqlite_engine(database: str | None, busy_timeout: float) -> Engine:
    """The counts' own SQLite engine: a file beside the app's (in memory for an in-memory app)."""
    if not database or database == ":memory:":
        engine = create_engine(
            "sqlite://", poolclass=StaticPool, connect_args={"check_same_thread": False}
        )
    else:
        create_private(counts_file(database))
        engine = create_engine(
            f"sqlite:///{counts_file(database)}", connect_args={"timeout": busy_timeout}
        )

    @event.listens_for(engine, "connect")
    def _connect(connection: Any, _record: Any) -> None:
        connection.isolation_level = None  # autocommit: each statement is its own transaction
        for pragma in ("journal_mode = WAL", "synchronous = NORMAL", _TABLE):
            connection.execute(pragma if pragma == _TABLE else f"PRAGMA {pragma}")

    return engine


def _engine() -> Engine:
    """The engine this app's counts use (made on first use)."""
    app = current_app
    engine: Engine | None = app.extensions.get(_ENGINE)
    if engine is None:
        if db.engine.dialect.name == "sqlite":
            busy = float(app.config.get("SQLITE_BUSY_TIMEOUT", 5.0))
            engine = _sqlite_engine(db.engine.url.database, busy)
        else:
            engine = db.engine
        app.extensions[_ENGINE] = engine
    return engine


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
        engine = _engine()
        with engine.begin() as connection:
            if engine.dialect.name == "postgresql":
                connection.execute(text("SET LOCAL synchronous_commit TO OFF"))
            if random.randrange(PRUNE_EVERY) == 0:
                connection.execute(
                    text("DELETE FROM rate_limit_counts WHERE expires_at <= :now"), {"now": now}
                )
            hits = connection.execute(
                _HIT, {"name": key, "amount": amount, "ends": now + expiry, "now": now}
            ).scalar_one()
        return int(hits)

    def _current(self, key: str) -> tuple[int, float] | None:
        with _engine().connect() as connection:
            row = connection.execute(_CURRENT, {"name": key, "now": time.time()}).first()
        return None if row is None else (int(row.hits), float(row.expires_at))

    def get(self, key: str) -> int:
        current = self._current(key)
        return 0 if current is None else current[0]

    def get_expiry(self, key: str) -> float:
        current = self._current(key)
        return time.time() if current is None else current[1]

    def check(self) -> bool:
        with _engine().connect() as connection:
            connection.execute(text("SELECT 1"))
        return True

    def reset(self) -> int | None:
        with _engine().begin() as connection:
            return connection.execute(text("DELETE FROM rate_limit_counts")).rowcount

    def clear(self, key: str) -> None:
        with _engine().begin() as connection:
            connection.execute(
                text("DELETE FROM rate_limit_counts WHERE name = :name"), {"name": key}
            )
