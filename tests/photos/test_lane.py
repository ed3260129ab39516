"""The photo lane (services/photo_lane.py): reads run in worker processes of their own, at a
lower priority than the request workers, and stop with the process."""

from __future__ import annotations

import multiprocessing
import os

from scorekeeper.photos.reader import read_photo
from scorekeeper.photos.synthetic import make_photo
from scorekeeper.services import photo_lane

HAND = [(6, 4), (12, 0), (3, 3), (9, 11)]


def test_a_photo_read_in_the_lane_reads_as_in_the_process(app):
    photo = make_photo(3, tiles=HAND, arrangement="scattered", set_max="12", face="white",
                       pips="black", table="dark wood").jpeg  # fmt: skip
    with app.app_context():
        reading = photo_lane.read(photo, 12)
    assert reading == read_photo(photo, set_max=12)
    assert reading.total == 48
    # It ran elsewhere: in a worker that gives way to the request workers.
    workers = multiprocessing.active_children()
    assert workers and all(worker.pid != os.getpid() for worker in workers)
    assert all(
        os.getpriority(os.PRIO_PROCESS, worker.pid) > os.getpriority(os.PRIO_PROCESS, 0)
        for worker in workers
    )


def test_the_workers_stop_with_the_lane(app):
    with app.app_context():
        photo_lane.read(make_photo(1).jpeg, 12)
    assert multiprocessing.active_children()
    photo_lane.shutdown()
    assert multiprocessing.active_children() == []
