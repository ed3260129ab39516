"""SQLite under concurrent writers: WAL, a busy timeout, and a write lock held only to write.

Python's sqlite3 starts every transaction DEFERRED: it reads, then asks for the write lock at
its first write. Two such writers deadlock and one gets "database is locked" at once, whatever
the busy timeout (upgrading a read snapshot fails if anyone wrote since). So SQLAlchemy emits
BEGIN itself, and a transaction's first write never upgrades its snapshot:

- in a request, every transaction begins with a plain BEGIN: a snapshot read in WAL mode that
  neither blocks nor is blocked by the writer;
- its first write (INSERT, UPDATE, DELETE...) ends those reads (COMMIT: they wrote nothing)
  and starts BEGIN IMMEDIATE, which waits its turn for the write lock (up to the busy
  timeout); the write and the rest of the transaction run under the lock until COMMIT;
- outside requests (CLI commands, scripts, tests): no BEGIN for reads, as sqlite3 itself does,
  so a long-lived session neither holds a lock nor reads a stale snapshot; the first write
  starts BEGIN IMMEDIATE in the same way.

So a write holds SQLite's one write lock only from its first write to its commit (a round
save: the game's version, the round, its hands and history lines, then the commit's fsync),
not while it authenticates, reads the game and checks the round: under load
that read-and-check part, done by many threads at once, was most of the time the lock was held,
and every other writer of every process waited for it (bench/README.md, "Load run").

What was read before the lock may be stale by the time the write runs: the same as on
PostgreSQL, where reads never lock. Writes that must not act on a stale read say so in the
write itself: every write to a game is pinned to the version its checks read (versions.py: the
version bump, the first statement under the lock, finds the game moved on and nothing is
saved), unique constraints refuse a second copy of a row (a device's game, a round write's key).

Writers of one process wait their turn on a lock of the process before BEGIN IMMEDIATE: one
thread at a time asks SQLite, whose busy handler otherwise polls (sleeping up to 100 ms between
tries), so that under load the lock goes to whoever polls next, not to whoever waited longest.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from flask import Flask, has_request_context
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine

from scorekeeper.extensions import db

# Statements that need the write lock (SAVEPOINT too: it must live in the write transaction).
_WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE", "SAVEPOINT", "CREATE", "DROP", "ALTER")
# connection.info key: False while the transaction only reads, True once it holds the lock.
_WRITING = "scorekeeper_sqlite_writing"
# connection.info key: True while this connection holds the process's writer lock.
_HOLDS = "scorekeeper_sqlite_writer_lock"


def configure_engine(engine: Engine, busy_timeout: float) -> None:
    """Listen on a SQLite engine: WAL and busy_timeout on each connection, our own BEGIN."""
    timeout_ms = max(0, int(busy_timeout * 1000))
    writer_lock = threading.Lock()

    def take_writer_lock(info: dict[str, Any]) -> None:
        # Past the busy timeout, BEGIN IMMEDIATE goes on anyway and SQLite says it is locked.
        if not info.get(_HOLDS) and writer_lock.acquire(timeout=max(busy_timeout, 0.001)):
            info[_HOLDS] = True

    def drop_writer_lock(info: dict[str, Any]) -> None:
        if info.pop(_HOLDS, False):
            writer_lock.release()

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        # None: sqlite3 emits no BEGIN of its own; _begin below does (COMMIT still works).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout = {timeout_ms}")
            cursor.execute("PRAGMA journal_mode = WAL")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        connection.info[_WRITING] = False
        if has_request_context() or connection.get_execution_options().get("read_only"):
            connection.exec_driver_sql("BEGIN")

    @event.listens_for(engine, "before_cursor_execute")
    def _before_execute(connection: Connection, cursor: Any, statement: str, *_args: Any) -> None:
        if connection.info.get(_WRITING) is False and statement.lstrip().upper().startswith(
            _WRITES
        ):
            connection.info[_WRITING] = True
            if cursor.connection.in_transaction:
                cursor.execute("COMMIT")  # only reads so far: nothing is lost
            take_writer_lock(connection.info)
            cursor.execute("BEGIN IMMEDIATE")

    @event.listens_for(engine, "commit")
    def _commit(connection: Connection) -> None:
        drop_writer_lock(connection.info)

    @event.listens_for(engine, "rollback")
    def _rollback(connection: Connection) -> None:
        drop_writer_lock(connection.info)

    # A connection returned to the pool mid-transaction is rolled back without the events above.
    @event.listens_for(engine, "checkin")
    def _checkin(_dbapi_connection: Any, record: Any) -> None:
        drop_writer_lock(record.info)


def writing(connection: Connection) -> bool:
    """True if the connection's transaction holds SQLite's write lock (it has written): another
    connection of this process must not write until it ends (it would wait for this one)."""
    return connection.info.get(_WRITING) is True


def create_private(path: str | None) -> None:
    """Make the database file, empty (which SQLite reads as an empty database), readable by
    this user only, before SQLite makes it with the umask's 0644: it holds every account's
    password hash. SQLite gives its -wal and -shm files the database file's mode."""
    if not path or path == ":memory:" or os.path.exists(path):
        return
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass  # another worker made it first
    except OSError:
        return  # a folder that does not exist: SQLite says so on connecting


def init_app(app: Flask) -> None:
    """Configure the app's engine when it is SQLite (PostgreSQL needs none of this); a new
    database file is made readable by this user only."""
    with app.app_context():
        engine = db.engine
    if engine.dialect.name == "sqlite":
        create_private(engine.url.database)
        configure_engine(engine, float(app.config.get("SQLITE_BUSY_TIMEOUT", 5.0)))
