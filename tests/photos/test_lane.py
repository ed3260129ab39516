"""The photo lane (services/photo_lane.py): reads run in worker processes of their own, at a
lower priority than the request workers, and stop with the process."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import time

import pytest

from scorekeeper.photos.reader import read_photo
from scorekeeper.services import photo_lane
from training.synthetic import make_photo

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


def test_a_place_taken_by_another_process_is_not_given_again(app, tmp_path):
    """PHOTO_QUEUE counts the machine's reads, every app process together (gunicorn runs
    several): a place another process holds is taken."""
    app.instance_path = str(tmp_path / "instance")
    app.config["PHOTO_QUEUE"] = 1
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, os.path.join(app.instance_path, photo_lane.FOLDER)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with app.app_context(), pytest.raises(photo_lane.Busy):
            photo_lane.read(make_photo(1).jpeg, 12)
    finally:
        holder.communicate("")  # it lets go as it ends
    with app.app_context():
        assert photo_lane.read(make_photo(1).jpeg, 12).tiles


def test_a_read_not_done_in_time_is_busy_and_holds_its_place_until_it_ends(app, tmp_path):
    app.instance_path = str(tmp_path / "instance")
    app.config.update(PHOTO_QUEUE=1, PHOTO_WAIT=0)  # no read is done in no time
    photo = make_photo(1).jpeg
    with app.app_context():
        with pytest.raises(photo_lane.Busy):
            photo_lane.read(photo, 12)
        # The read given up on goes on in its worker, in the lane's one place, and then frees it.
        app.config["PHOTO_WAIT"] = 60
        for _ in range(2400):  # two minutes at most on a busy machine
            if (place := photo_lane.take_place(app)) is not None:
                break
            time.sleep(0.05)
        assert place is not None
        os.close(place)
        assert photo_lane.read(photo, 12).tiles


# Another process holding the lane's first place until its input closes.
HOLD = """
import fcntl, os, sys
os.makedirs(sys.argv[1], exist_ok=True)
handle = os.open(os.path.join(sys.argv[1], "place-0"), os.O_RDWR | os.O_CREAT)
fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
print("held", flush=True)
sys.stdin.read()
"""
