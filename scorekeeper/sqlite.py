"""SQLite under concurrent writers: WAL, a busy timeout, and writes that lock when they begin.

Python's sqlite3 starts every transaction DEFERRED: it reads, then asks for the write lock at
its first write. Two such writers deadlock and one gets "database is locked" at once, whatever
the busy timeout. So SQLAlchemy emits BEGIN itself:

- requests that may write (POST, PUT, PATCH, DELETE): BEGIN IMMEDIATE, the write lock taken
  first (waiting up to the busy timeout), so a read-modify-write is one atomic step;
- GET, HEAD, OPTIONS: a plain BEGIN, a snapshot read in WAL mode without blocking or being
  blocked by the writer. Taking the write lock for reads too would serialise every page view
  behind every other one for the whole request;
- connections opened to read only (`read_only` execution option: a game's snapshot, read on
  its own connection beside the request's transaction): a plain BEGIN, even in a POST;
- outside requests (CLI commands, scripts, tests): no BEGIN for reads, as sqlite3 itself does,
  so a long-lived session neither holds a lock nor reads a stale snapshot.

Once a request's write has committed, what it reads to build its answer (the game as it now
is) begins with a plain BEGIN: waiting for the write lock again there could fail a request whose
write is already saved, and the client would be told it was not.

Writers of one process wait their turn on a lock of the process before BEGIN IMMEDIATE: one
thread at a time asks SQLite, whose busy handler otherwise polls (sleeping up to 100 ms between
tries), so that under load the lock goes to whoever polls next, not to whoever waited longest.

A read transaction that writes after all (an API token's once-a-minute last use, a CLI
command) would have to upgrade its snapshot, which fails at once if anyone wrote
since. So its first write ends the reads and starts BEGIN IMMEDIATE: the write waits its turn
instead, as it did with sqlite3's own BEGIN (sent only before a write).
"""

from __future__ import annotations

import threading
from typing import Any

from flask import Flask, g, has_request_context, request
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine

from scorekeeper.extensions import db

READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# Statements that need the write lock (SAVEPOINT too: it must live in the write transaction).
_WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE", "SAVEPOINT", "CREATE", "DROP", "ALTER")
# connection.info key: False while the transaction only reads, True once it holds the lock.
_WRITING = "scorekeeper_sqlite_writing"
# connection.info key: True while this connection holds the process's writer lock.
_HOLDS = "scorekeeper_sqlite_writer_lock"


def begins_immediate(connection: Connection) -> bool:
    """True when this transaction should take the write lock as it begins: in a request
    whose method may write, unless the connection only reads (option `read_only`: a game's
    snapshot, read beside the request's own transaction, must not wait for its lock)."""
    if connection.get_execution_options().get("read_only"):
        return False
    return (
        has_request_context()
        and request.method not in READ_METHODS
        and not g.get("sqlite_write_committed")
    )


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
        immediate = begins_immediate(connection)
        connection.info[_WRITING] = immediate
        if immediate:
            take_writer_lock(connection.info)
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        elif has_request_context() or connection.get_execution_options().get("read_only"):
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
        if connection.info.get(_WRITING) and has_request_context():
            g.sqlite_write_committed = True
        drop_writer_lock(connection.info)

    @event.listens_for(engine, "rollback")
    def _rollback(connection: Connection) -> None:
        drop_writer_lock(connection.info)

    # A connection returned to the pool mid-transaction is rolled back without the events above.
    @event.listens_for(engine, "checkin")
    def _checkin(_dbapi_connection: Any, record: Any) -> None:
        drop_writer_lock(record.info)


def init_app(app: Flask) -> None:
    """Configure the app's engine when it is SQLite (PostgreSQL needs none of this)."""
    with app.app_context():
        engine = db.engine
    if engine.dialect.name == "sqlite":
        configure_engine(engine, float(app.config.get("SQLITE_BUSY_TIMEOUT", 5.0)))
