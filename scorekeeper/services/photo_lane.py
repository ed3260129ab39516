"""The photo lane: photos of hands are read in a small pool of worker processes, never in the
request workers, and only a bounded number wait or run at once, so a round save from another
table never queues behind a pile of photos.

Each app process (each gunicorn worker) starts its pool on its first photo: PHOTO_WORKERS
processes (spawned, not forked: the parent has threads; each loads the networks once and runs
at a lower priority than the request workers). The pool stops when the process exits.

At most PHOTO_QUEUE reads wait or run at once on the machine, all app processes together: a
request takes one of PHOTO_QUEUE places, each a lock file in the instance folder
(instance/photo-lane/, an exclusive flock taken without waiting), and holds it until its read
ends. Counted per process instead, every gunicorn worker (one thread each by default) could be
waiting on a photo at once with none left for a round save. A request that finds no free
place, or whose read is not done within PHOTO_WAIT seconds, gets Busy (the views answer 503
with Retry-After). A lock is let go by the system if its process dies, so no place is lost.
"""

from __future__ import annotations

import atexit
import fcntl
import multiprocessing
import os
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool

from flask import Flask, current_app

from scorekeeper.photos.reader import Reading, load_models, read_photo

# The folder in the instance folder holding the lane's places (empty lock files).
FOLDER = "photo-lane"
# Seconds a client refused for a full lane is asked to wait: a read takes well under one.
RETRY_AFTER = 2
# How much lower the photo workers' priority is than the request workers' (os.nice).
NICENESS = 10

_pools: dict[int, ProcessPoolExecutor] = {}
_pools_lock = threading.Lock()


class Busy(Exception):
    """Every place in the lane is taken, or the read took too long: try again shortly."""

    retry_after = RETRY_AFTER


def default_workers() -> int:
    """One photo worker per two cores, at least one."""
    return max(1, (os.cpu_count() or 1) // 2)


def start_worker() -> None:
    """In each photo worker as it starts: yield the cores to the request workers first, and
    load the networks once."""
    try:
        os.nice(NICENESS)
    except OSError:  # not allowed here: run at the same priority
        pass
    load_models()


def pool(workers: int) -> ProcessPoolExecutor:
    """This process's pool of `workers` photo workers, started on first use."""
    with _pools_lock:
        executor = _pools.get(workers)
        if executor is None:
            executor = _pools[workers] = ProcessPoolExecutor(
                workers, mp_context=multiprocessing.get_context("spawn"), initializer=start_worker
            )
        return executor


def prestart(app: Flask) -> None:
    """Start this process's photo workers now, not at the first photo: a server process calls it
    as it boots (gunicorn.conf.py), so the networks load before the night starts. Started on a
    first photo, a worker's imports and model loading (~1.5 s of CPU, before its lower priority
    applies) competed with the round saves of every table (bench/README.md, "A club night")."""
    pool(workers(app)).submit(os.getpid)


def _forget(workers: int, executor: ProcessPoolExecutor) -> None:
    """Drop a broken pool (a worker was killed, e.g. out of memory): the next read starts one."""
    with _pools_lock:
        if _pools.get(workers) is executor:
            del _pools[workers]
    executor.shutdown(wait=False, cancel_futures=True)


def shutdown() -> None:
    """Stop this process's photo workers (at exit; tests call it too)."""
    with _pools_lock:
        executors = list(_pools.values())
        _pools.clear()
    for executor in executors:
        executor.shutdown(wait=True, cancel_futures=True)


atexit.register(shutdown)


def workers(app: Flask) -> int:
    """PHOTO_WORKERS, or one per two cores when it is not set."""
    return int(app.config.get("PHOTO_WORKERS") or default_workers())


def queue(app: Flask) -> int:
    """PHOTO_QUEUE, or twice the workers when it is not set."""
    size = app.config.get("PHOTO_QUEUE")
    return 2 * workers(app) if size is None else int(size)


def take_place(app: Flask) -> int | None:
    """A free place in the lane (the open lock file holding it, to be closed to free it), or
    None if all PHOTO_QUEUE places are taken by this or any other process of the machine."""
    folder = os.path.join(app.instance_path, FOLDER)
    os.makedirs(folder, exist_ok=True)
    for number in range(queue(app)):
        handle = os.open(os.path.join(folder, f"place-{number}"), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(handle)
            continue
        return handle
    return None


def full(app: Flask) -> bool:
    """True if every place in the lane is taken right now (a look, holding nothing): the photo
    routes then answer 503 before they read the upload, so a crowd of phones costs the request
    workers no parsing of photos that would not be read."""
    place = take_place(app)
    if place is None:
        return True
    os.close(place)
    return False


def read(data: bytes, set_max: int) -> Reading:
    """read_photo(data, set_max) in a photo worker. Raises Busy when PHOTO_QUEUE reads already
    wait or run on the machine, or when the read is not done within PHOTO_WAIT seconds;
    decode's NotAnImage and Unreadable as read_photo does."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    place = take_place(app)
    if place is None:
        raise Busy
    size = workers(app)
    executor = pool(size)
    try:
        future: Future[Reading] = executor.submit(read_photo, data, set_max)
    except (BrokenProcessPool, RuntimeError):
        os.close(place)
        _forget(size, executor)
        raise Busy from None
    # The place is freed when the read ends, not when the request stops waiting for it: a read
    # given up on still holds a worker.
    future.add_done_callback(lambda _done: os.close(place))
    try:
        return future.result(timeout=float(app.config["PHOTO_WAIT"]))
    except FutureTimeout:
        future.cancel()  # still waiting: never started
        raise Busy from None
    except BrokenProcessPool:
        _forget(size, executor)
        raise Busy from None
