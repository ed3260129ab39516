"""The one SVG cache: files every worker shares, written atomically, drawn once when asked at once,
replaced charts deleted and the oldest pruned past the limit."""

import os
import threading
import time

import pytest

from scorekeeper.charts.cache import CACHE
from scorekeeper.web.etags import content_etag

from .helpers import chart_files

SVG = b"<svg xmlns='http://www.w3.org/2000/svg'><title>A</title></svg>"


class Drawer:
    """A draw function that counts its calls (and can be slow, or fail)."""

    def __init__(self, svg: bytes = SVG, seconds: float = 0.0, error: Exception | None = None):
        self.svg, self.seconds, self.error = svg, seconds, error
        self.calls = 0

    def __call__(self) -> bytes:
        self.calls += 1
        time.sleep(self.seconds)
        if self.error is not None:
            raise self.error
        return self.svg


def test_a_chart_is_drawn_once_then_read_from_its_file(app):
    draw = Drawer()
    with app.app_context():
        first = CACHE.get("x-1.svg", draw)
        second = CACHE.get("x-1.svg", draw)
    assert first == second == (SVG, content_etag(SVG))
    assert draw.calls == 1
    assert chart_files(app) == ["x-1.svg"]
    assert not [n for n in os.listdir(app.config["CHART_CACHE_DIR"]) if n.startswith(".tmp")]


def test_a_chart_another_worker_stored_is_served_without_drawing(app):
    """Workers share the folder, and nothing is kept in a worker's memory in front of it: the
    file on disk is what every worker serves."""
    folder = app.config["CHART_CACHE_DIR"]
    os.makedirs(folder)
    with open(os.path.join(folder, "x-2.svg"), "wb") as stored:
        stored.write(b"<svg>from another worker</svg>")
    draw = Drawer()
    with app.app_context():
        svg, etag = CACHE.get("x-2.svg", draw)
    assert svg == b"<svg>from another worker</svg>"
    assert etag == content_etag(svg)
    assert draw.calls == 0


def test_requests_asking_at_once_wait_for_one_drawing(app):
    draw = Drawer(seconds=0.2)
    start = threading.Barrier(6)
    answers = []

    def request() -> None:
        with app.app_context():
            start.wait()
            answers.append(CACHE.get("x-3.svg", draw))

    threads = [threading.Thread(target=request) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert answers == [(SVG, content_etag(SVG))] * 6
    assert draw.calls == 1


def test_a_failed_drawing_stores_nothing_and_the_next_request_draws_again(app):
    with app.app_context():
        with pytest.raises(RuntimeError):
            CACHE.get("x-4.svg", Drawer(error=RuntimeError("no")))
        draw = Drawer()
        assert CACHE.get("x-4.svg", draw)[0] == SVG
    assert draw.calls == 1
    assert chart_files(app) == ["x-4.svg"]


def test_storing_a_chart_deletes_the_files_it_replaces_and_no_others(app):
    with app.app_context():
        for name in ("a-v1.svg", "a-v2.svg", "b-v1.svg"):
            CACHE.get(name, Drawer())
        CACHE.get("a-v3.svg", Drawer(), lambda other: other.startswith("a-"))
    assert chart_files(app) == ["a-v3.svg", "b-v1.svg"]


def test_past_the_limit_the_least_recently_written_go(app, monkeypatch):
    monkeypatch.setattr(CACHE, "max_files", 10)
    folder = app.config["CHART_CACHE_DIR"]
    os.makedirs(folder)
    now = time.time()
    for number in range(10):
        path = os.path.join(folder, f"old-{number:02}.svg")
        with open(path, "wb") as stored:
            stored.write(SVG)
        os.utime(path, (now - 100 + number, now - 100 + number))
    # Another worker's file still being written is never pruned, nor a folder.
    with open(os.path.join(folder, ".tmp-other.svg"), "wb"):
        pass
    os.makedirs(os.path.join(folder, "players"))
    with app.app_context():
        CACHE.get("new.svg", Drawer())
    # 11 files: down to 9, the two oldest gone and the new one kept.
    assert chart_files(app) == ["new.svg", *(f"old-{n:02}.svg" for n in range(2, 10)), "players"]
    assert os.path.exists(os.path.join(folder, ".tmp-other.svg"))
