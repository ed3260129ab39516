"""The one SVG cache: every chart (game, season, player) and a game's QR code, drawn once per
version of its data, then kept as a file in instance/charts (or CHART_CACHE_DIR) that every
gunicorn worker reads.

A chart's file name says what it shows and which version of its data (a game's version, a hash of
a season's or a player's figures) and wording, so a file found under that name is the right
chart. Files are written atomically (temp file + os.replace): a reader in another worker sees all
of a file or none of it. Storing a chart deletes the files it replaces and, past MAX_FILES, the
least recently written. There is no in-process copy in front of the files: reading one from the
OS page cache and hashing it for its ETag costs about 0.1 ms (a 36 kB race chart), against about
1.5 ms for the whole cached-chart request, and there is then no memory to keep fresh or clear.

Drawing is limited (scorekeeper/web/limits.py): per client address, and a few charts at once per
process; a cached chart is never limited.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
from collections.abc import Callable

from flask import current_app

from scorekeeper.web import limits
from scorekeeper.web.etags import content_etag

# Finished games, seasons and players keep their last charts; past this many files the least
# recently written go (down to nine tenths, so that pruning is not paid on every store).
MAX_FILES = 2000
# Independent locks: charts whose names fall on different ones never wait on each other.
STRIPES = 32
# Given another file's name: whether the chart being stored takes its place.
Replaces = Callable[[str], object]


def digest(data: bytes | str, size: int) -> str:
    """A short hex fingerprint of `data` (`size` bytes of blake2b)."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return hashlib.blake2b(raw, digest_size=size).hexdigest()


def cache_dir() -> str:
    """Where charts are kept: CHART_CACHE_DIR, or charts/ in the instance folder."""
    return current_app.config.get("CHART_CACHE_DIR") or os.path.join(
        current_app.instance_path, "charts"
    )


class SvgCache:
    """Charts by file name in cache_dir(); the one instance, CACHE, serves every chart."""

    def __init__(self, max_files: int = MAX_FILES) -> None:
        self.max_files = max_files
        # After a round every phone at the table asks for the new charts at once: one request
        # draws each chart and the others (in this process) wait for its file.
        self._drawing = [threading.Lock() for _ in range(STRIPES)]

    def get(
        self, name: str, draw: Callable[[], bytes], replaces: Replaces | None = None
    ) -> tuple[bytes, str]:
        """The chart `name` and its ETag: read from its file, or drawn and stored; a store
        deletes the other files that `replaces` says this chart takes the place of (none by
        default)."""
        folder = cache_dir()
        path = os.path.join(folder, name)
        svg = _read(path)
        if svg is None:
            stripe = self._drawing[hash(path) % STRIPES]
            # Bounded like the drawing slot below: under a flood, a quick 503, not a queue.
            if not stripe.acquire(timeout=limits.render_wait()):
                raise limits.busy()
            try:
                svg = _read(path)  # drawn while this request waited
                if svg is None:
                    limits.check_chart_render()  # 429 past this client's drawing limit
                    with limits.render_slot():
                        svg = draw()
                    self._store(folder, name, svg, replaces)
            finally:
                stripe.release()
        return svg, content_etag(svg)

    def _store(self, folder: str, name: str, svg: bytes, replaces: Replaces | None) -> None:
        """Write atomically, then delete the replaced files and, past max_files, the oldest."""
        os.makedirs(folder, exist_ok=True)
        handle, temp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".svg")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(svg)
            os.replace(temp, os.path.join(folder, name))
        except BaseException:
            _remove(temp)
            raise
        kept: list[os.DirEntry[str]] = []
        with os.scandir(folder) as entries:
            for entry in entries:
                # Another worker's temp file is still being written: never a candidate.
                if entry.name.startswith(".") or not entry.is_file():
                    continue
                if replaces is not None and entry.name != name and replaces(entry.name):
                    _remove(entry.path)
                else:
                    kept.append(entry)
        if len(kept) > self.max_files:
            kept.sort(key=_mtime)
            for entry in kept[: len(kept) - self.max_files * 9 // 10]:
                _remove(entry.path)


def _read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as stored:
            return stored.read()
    except FileNotFoundError:
        return None


def _mtime(entry: os.DirEntry[str]) -> float:
    try:
        return entry.stat().st_mtime
    except FileNotFoundError:
        return 0.0


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except FileNotFoundError:  # another worker got there first
        pass


CACHE = SvgCache()
