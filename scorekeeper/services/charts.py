"""Chart use case: a game's charts, rendered once per game version and language, then cached.

A render costs ~100 ms and matplotlib; a cache hit costs a dict lookup. Two layers: a small
in-process LRU in front of files in `instance/charts/` (or CHART_CACHE_DIR), which every
gunicorn worker shares. Files are written atomically (temp file + os.replace), and a new
version of a game's chart deletes the older ones. Scores come from the core through the game
services; nothing is added up here.
SvgCache owns that two-layer cache; the season and player charts use it too, each its own.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import tempfile
import threading
from collections.abc import Callable
from dataclasses import astuple, dataclass

from flask import current_app, has_request_context
from flask_babel import get_locale

from scorekeeper import charts, core
from scorekeeper.lru import Lru
from scorekeeper.models import Game
from scorekeeper.services.games import GameRef, game_row, snapshot_of

KINDS = ("race", "rounds")
LRU_SIZE = 64
# Finished games keep their last charts; past this many files the least recently written go.
MAX_FILES = 2000
# How many charts this process has rendered (tests and benchmarks read it).
RENDERS = 0

_lock = threading.Lock()


@dataclass(frozen=True)
class ChartText:
    """The words on the charts; the view passes them translated (each wrapped in _())."""

    race_title: str = "Running totals"
    rounds_title: str = "Points per round"
    engine: str = "Engine"
    hand: str = "Hand"
    total: str = "Total"
    points: str = "Points"

    @functools.cached_property
    def digest(self) -> str:
        """A short fingerprint, so new wording (a new translation) never serves old charts."""
        return _hash("\x1f".join(astuple(self)).encode("utf-8"), 4)


def _hash(data: bytes, size: int) -> str:
    return hashlib.blake2b(data, digest_size=size).hexdigest()


def _locale() -> str:
    # Outside a request (CLI, tests) the selector has no Accept-Language to read.
    locale = get_locale() if has_request_context() else current_app.config["BABEL_DEFAULT_LOCALE"]
    return re.sub(r"[^A-Za-z0-9_]", "", str(locale)) if locale else "en"


def cache_dir() -> str:
    """Where rendered charts are kept: CHART_CACHE_DIR, or charts/ in the instance folder."""
    return current_app.config.get("CHART_CACHE_DIR") or os.path.join(
        current_app.instance_path, "charts"
    )


def file_name(game: Game | GameRef, kind: str, text: ChartText) -> str:
    """The cache file of one chart: game, kind, version, language and wording.

    A hash of the share token tells apart games that share an id (a recreated or a test
    database): a cached chart can never be another game's.
    """
    game_key = _hash(game.view_token.encode("utf-8"), 4)
    return f"g{game.id}-{kind}-v{game.version}-{game_key}-{_locale()}-{text.digest}.svg"


def render(game: Game | GameRef, kind: str, text: ChartText) -> bytes:
    """Draw one chart of the game from the core's round scores (no cache)."""
    global RENDERS
    # The route loaded only the game's row (enough for a cached chart); the snapshot reads every
    # round with its hands in a fixed number of queries, or comes from the page just shown.
    loaded = game if isinstance(game, Game) else game_row(game.id)
    if loaded is None:
        raise LookupError(f"game {game.id} is gone")
    snapshot = snapshot_of(loaded)
    setup, results = snapshot.setup, list(snapshot.results)
    scores = core.round_scores(setup, results)
    if setup.is_draw:
        labels = [str(number) for number in range(1, len(results) + 1)]
        xlabel = text.hand
    else:
        labels = ["" if r.engine is None else str(r.engine) for r in results]
        state = snapshot.state
        if not state.finished:  # the rounds still to play, so the chart shows how far along
            labels += [str(engine) for engine in state.engines[len(results) :]]
        xlabel = text.engine
    players = list(setup.players)
    if kind == "race":
        totals = {name: core.running_totals(rounds) for name, rounds in scores.items()}
        svg = charts.race_chart(
            players,
            labels,
            totals,
            higher_wins=setup.is_draw,
            title=text.race_title,
            xlabel=xlabel,
            ylabel=text.total,
        )
    elif kind == "rounds":
        svg = charts.rounds_chart(
            players, labels, scores, title=text.rounds_title, xlabel=xlabel, ylabel=text.points
        )
    else:
        raise ValueError(f"unknown chart kind {kind!r}")
    with _lock:
        RENDERS += 1
    return svg


def etag_of(svg: bytes) -> str:
    """A strong validator: a hash of the bytes themselves."""
    return _hash(svg, 12)


class SvgCache:
    """Charts by file name: an in-process LRU of (svg, ETag) in front of the files in
    cache_dir() (or its `subfolder`), which every worker shares. Past `max_files` files whose
    names start with `family`, the least recently written go."""

    def __init__(
        self, lru_size: int, subfolder: str = "", max_files: int = 0, family: str = ""
    ) -> None:
        self.lru_size = lru_size
        self.subfolder = subfolder
        self.max_files = max_files
        self.family = family
        self._memory: Lru[tuple[bytes, str]] = Lru(lru_size)
        # After a round, every phone at the table asks for the new charts at once: one request
        # draws each chart and the others wait for it (per process; striped, so unrelated
        # charts seldom wait on each other).
        self._drawing = [threading.Lock() for _ in range(32)]

    def get(
        self, name: str, stale: Callable[[str], object], render: Callable[[], bytes]
    ) -> tuple[bytes, str]:
        """The chart `name` and its ETag, from memory, from disk, or rendered and stored; a
        store deletes the other files of the folder that `stale` says this chart replaces."""
        folder = os.path.join(cache_dir(), self.subfolder)
        path = os.path.join(folder, name)
        hit = self._memory.get(path)
        if hit is not None:
            return hit
        with self._drawing[hash(path) % len(self._drawing)]:
            hit = self._memory.get(path)  # drawn while this request waited
            if hit is not None:
                return hit
            try:
                with open(path, "rb") as stored:
                    svg = stored.read()
            except FileNotFoundError:
                svg = render()
                self._store(folder, name, svg, stale)
            entry = (svg, etag_of(svg))
            self._memory.put(path, entry)
        return entry

    def _store(self, folder: str, name: str, svg: bytes, stale: Callable[[str], object]) -> None:
        """Write atomically (readers in other workers see all of the file or none of it), then
        delete the stale files and, past max_files, the oldest of the family."""
        os.makedirs(folder, exist_ok=True)
        handle, temp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".svg")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(svg)
            os.replace(temp, os.path.join(folder, name))
        except BaseException:
            _remove(temp)
            raise
        files: list[os.DirEntry[str]] = []
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name != name and stale(entry.name):
                    _remove(entry.path)
                elif self.max_files and entry.name.startswith(self.family):
                    files.append(entry)
        if self.max_files and len(files) > self.max_files:
            files.sort(key=_mtime)
            for entry in files[: len(files) - self.max_files * 9 // 10]:
                _remove(entry.path)

    def clear_memory(self) -> None:
        """Empty the in-process LRU (tests use it to reach the disk layer)."""
        self._memory.clear()


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


_CACHE = SvgCache(LRU_SIZE, max_files=MAX_FILES, family="g")
clear_memory = _CACHE.clear_memory


def chart_svg(game: Game | GameRef, kind: str, text: ChartText | None = None) -> tuple[bytes, str]:
    """The chart's SVG and its ETag, from memory, from disk, or rendered and stored."""
    if kind not in KINDS:
        raise ValueError(f"unknown chart kind {kind!r}")
    chart_text = text or ChartText()

    def stale(other: str) -> bool:
        match = re.match(rf"g{game.id}-{re.escape(kind)}-v(\d+)-", other)
        # Only older: a slow worker still holding an old version must not delete a newer one.
        return match is not None and int(match.group(1)) < game.version

    return _CACHE.get(
        file_name(game, kind, chart_text), stale, lambda: render(game, kind, chart_text)
    )
