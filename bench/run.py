"""Performance benchmark: server time and SQL queries of the main requests on a realistic database.

Fills a fresh SQLite database (in a temp dir) with finished Mexican Train games, then times
requests through the Flask test client (server time, no network) and counts the SQL each one
sends. See bench/README.md. Run with `make bench` or `.venv/bin/python bench/run.py [--quick]`.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import logging
import math
import os
import platform
import pstats
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import flask_migrate
import sqlalchemy
from flask import Flask
from sqlalchemy import event, func, insert, select, update

from scorekeeper import core, create_app
from scorekeeper.extensions import db
from scorekeeper.models import Change, DeviceGame, Game, Hand, Penalty, Player, Round, new_token
from scorekeeper.services import games as game_service
from scorekeeper.services.games import mapping
from scorekeeper.services.games.snapshot import light_reads
from scorekeeper.web.devices import COOKIE

BENCH_DIR = Path(__file__).resolve().parent
# The phone that created the games the benchmark opens (a valid sk_device cookie value).
BENCH_DEVICE = "bench-device-0000000000000"
OTHER_DEVICES = 100
NAMES = (
    "Ana Ben Cy Dee Eli Fay Gus Hal Ivy Jo Kai Lou Max Nia Oto Pia Quin Rae Sol Tess Uma Vic "
    "Wes Xia Yul Zoe Abdul Beatriz Chen Dmitri Esther Farah Gopal Hana Ines Jamal Keiko Lars"
).split()
MAX_PIPS = 150  # the most a hand holds at the end of a round in the generated games

# Timing targets: server-time medians in ms, issue 9's "Keep" list (a median at the limit
# passes). And the tolerance for "as fast with N games as with 1".
GAME_PAGE_TARGET_MS = 5.0  # the game page, finished and in progress
API_GET_TARGET_MS = 3.0
FIRST_VIEW_TARGET_MS = 12.0  # the first view of a new version: nothing of it kept yet
ROUND_SAVE_TARGET_MS = 15.0
CACHED_CHART_TARGET_MS = 2.0
# Issue 24's read paths (server time, medians).
ISSUE_24_TARGETS_MS = {
    "game_page_finished": ("game page (finished), issue 24", 2.0),
    "game_page_in_progress": ("game page (in progress, form), issue 24", 3.0),
    "api_game_get": ("API game GET, issue 24", 1.0),
    "live_poll_304": ("live poll answered 304, issue 24", 0.6),
}
SCALING_RATIO = 1.25
SCALING_SLACK_MS = 0.5


@dataclass(frozen=True)
class Settings:
    """How big the database is and how many times each request is timed."""

    games: int = 1000
    reps: int = 100
    chart_reps: int = 10
    cached_reps: int = 200
    warmup: int = 3
    seed: int = 2024
    quick: bool = False
    profile: int = 0  # requests of each game page to run under cProfile (0: none)
    gzip: bool = False  # send Accept-Encoding: gzip, as every phone's browser does


QUICK = Settings(games=50, reps=5, chart_reps=2, cached_reps=10, warmup=1, quick=True)


# Generating plausible games --------------------------------------------------------------------


@dataclass
class GamePlan:
    """A game to write: its table, its rules, the rounds to record, who scored and when."""

    players: tuple[str, ...]
    rules: core.GameRules
    entries: list[core.RoundEntry]
    device: str
    started: datetime
    minutes_per_round: int = 9


@dataclass(frozen=True)
class Mix:
    """How often the unusual things happen in a generated round."""

    blocked: float = 0.05  # nobody went out
    tiles: float = 0.05  # a hand entered as its tiles rather than a number
    penalty: float = 0.10  # an open-train penalty (in games that use the house rule)


def random_entry(
    rng: random.Random, setup: core.GameSetup, number: int, mix: Mix = Mix()
) -> core.RoundEntry:
    """One round as a scorer would enter it: hands dealt from a real set, so totals add up."""
    rules = setup.rules
    engine = core.engine_of(rules, number)
    engine_tile = core.double(engine) if engine is not None else None
    pool = [tile for tile in core.tiles_in_set(rules.set_size) if tile != engine_tile]
    rng.shuffle(pool)
    blocked = rng.random() < mix.blocked
    out = None if blocked else rng.choice(setup.players)
    hands: dict[str, core.HandEntry] = {}
    for name in setup.players:
        if name == out:
            hands[name] = core.HandEntry(pips=0)
            continue
        held = [pool.pop() for _ in range(min(12, 1 + int(rng.expovariate(1 / 3))))]
        while core.hand_value(held, rules.blank_scoring) > MAX_PIPS:
            held.pop()
        if rng.random() < mix.tiles:
            hands[name] = core.HandEntry(tiles=[str(tile) for tile in held])
        else:
            hands[name] = core.HandEntry(pips=core.hand_value(held, rules.blank_scoring))
    penalties: list[core.PenaltyEntry] = []
    if rules.house_rules.open_train_points and rng.random() < mix.penalty:
        unlucky = rng.choice([name for name in setup.players if name != out])
        penalties.append(core.PenaltyEntry(unlucky, core.PenaltyKind.OPEN_TRAIN.value))
    return core.RoundEntry(hands, out, blocked, penalties)


def plan_game(
    rng: random.Random,
    *,
    players: int | None = None,
    rounds: int | None = None,
    device: str | None = None,
    open_train: bool | None = None,
    started: datetime | None = None,
) -> GamePlan:
    """A random Mexican Train game of 4-8 players (double-12), `rounds` of it played (all 13)."""
    count = players if players is not None else rng.randint(4, 8)
    names = tuple(rng.sample(NAMES, count))
    if open_train is None:
        open_train = rng.random() < 0.2
    rules = core.GameRules(house_rules=core.HouseRules(open_train_points=10 if open_train else 0))
    setup = core.new_game(names, rules)
    played = len(core.engines(setup.rules)) if rounds is None else rounds
    entries = [random_entry(rng, setup, number) for number in range(1, played + 1)]
    when = started or datetime(2024, 1, 1) + timedelta(minutes=rng.randint(0, 700 * 24 * 60))
    return GamePlan(
        names,
        rules,
        entries,
        device or f"bench-other-{rng.randrange(OTHER_DEVICES):014d}",
        when,
    )


def entry_json(entry: core.RoundEntry, number: int | None = None) -> dict[str, Any]:
    """A round entry as the body of POST /api/v1/games/<id>/rounds."""
    body: dict[str, Any] = {"out": entry.out, "blocked": bool(entry.blocked)}
    body["scores"] = {
        name: hand.pips
        for name, hand in entry.hands.items()
        if hand.tiles is None and name != entry.out
    }
    tiles = {name: list(hand.tiles) for name, hand in entry.hands.items() if hand.tiles is not None}
    if tiles:
        body["hands"] = tiles
    if entry.penalties:
        body["penalties"] = [{"player": p.player, "kind": p.kind} for p in entry.penalties]
    if number is not None:
        body["number"] = number
    return body


# Writing games ---------------------------------------------------------------------------------


def write_with_services(plan: GamePlan) -> int:
    """Create the game and record its rounds through the services, a fresh session each time
    (as each request has); returns the game's id."""
    game = game_service.create_game(plan.players, plan.rules, device=plan.device)
    game_id = game.id
    for number, entry in enumerate(plan.entries, 1):
        db.session.remove()
        loaded = game_service.game_row(game_id)
        assert loaded is not None
        outcome = game_service.record_round(
            loaded, entry, number=number, confirm=True, device=plan.device
        )
        if not outcome.saved:
            raise ValueError(f"round {number} of a generated game was refused: {outcome.check}")
    db.session.remove()
    return game_id


def _next_ids() -> dict[type, int]:
    tables = (Game, Player, Round, Hand, Penalty, Change, DeviceGame)
    return {
        model: (db.session.execute(select(func.max(model.id))).scalar_one() or 0) + 1
        for model in tables
    }


def write_in_bulk(
    plans: Sequence[GamePlan], club_id: int | None = None, roster: dict[str, int] | None = None
) -> list[int]:
    """Write the games in one transaction, row for row what create_game + record_round store
    (scores from core.check_round, history lines from services.describe_hand), at their
    planned times. tests/test_query_counts.py checks the rows match the services'. With
    `club_id`, the games are that club's, each seat linked to its `roster` entry by name."""
    ids = _next_ids()
    rows: dict[type, list[dict[str, Any]]] = {model: [] for model in ids}

    def add(model: type, **values: Any) -> int:
        values["id"] = ids[model]
        ids[model] += 1
        rows[model].append(values)
        return values["id"]

    game_ids = []
    for plan in plans:
        setup = core.new_game(plan.players, plan.rules)
        at = plan.started
        game = {
            "created_at": at,
            "updated_at": at,
            "played_on": at.date(),  # as the services date a game entered live
            "played_at": at,
            **game_service.rule_columns(setup.rules),
            "ended_early": False,
            "finished_at": None,
            "version": 1,
            "edit_token": new_token(),
            "view_token": new_token(),
            "table_token": new_token(),
            "created_by": plan.device,
            "club_id": club_id,
        }
        game_id = add(Game, **game)
        game = rows[Game][-1]
        game_ids.append(game_id)
        seat_of = {name: seat for seat, name in enumerate(setup.players)}
        for seat, name in enumerate(setup.players):
            add(Player, game_id=game_id, seat=seat, name=name, team=None, joined_round=1,
                roster_player_id=(roster or {}).get(name),
                **dict.fromkeys(mapping.FIGURES))  # fmt: skip
        seats = rows[Player][-len(setup.players) :]
        history = {"game_id": game_id, "old_value": None, "device": plan.device}
        add(Change, **history, at=at, action="created", round_number=None, player=None,
            new_value=", ".join(setup.players))  # fmt: skip
        add(DeviceGame, device=plan.device, game_id=game_id, can_edit=True, opened_at=at)
        results = []
        for number, entry in enumerate(plan.entries, 1):
            check = core.check_round(setup, number, entry)
            if check.result is None:
                raise ValueError(f"round {number} of a generated game was refused: {check}")
            result = check.result
            results.append(result)
            at += timedelta(minutes=plan.minutes_per_round)
            game["version"] += 1
            game["updated_at"] = at
            recorded = {**history, "at": at, "action": "recorded", "round_number": number}
            for hand in result.hands:
                add(Change, **recorded, player=hand.player,
                    new_value=mapping.describe_hand(hand))  # fmt: skip
            if result.blocked:
                add(Change, **recorded, player=None, new_value="blocked")
            round_id = add(Round, game_id=game_id, number=number, created_at=at, updated_at=at,
                           version=1, **mapping.round_columns(result, seat_of))  # fmt: skip
            for hand in result.hands:
                add(Hand, round_id=round_id, late=False, **mapping.hand_columns(hand, seat_of))
            for penalty in result.penalties:
                add(Penalty, round_id=round_id, **mapping.penalty_columns(penalty, seat_of))
        state = core.game_state(setup, results)
        if state.finished:
            game["finished_at"] = at
            figures = mapping.final_figures(state)
            for seat in seats:
                seat.update(figures[seat["name"]])
    for model, values in rows.items():
        if values:
            db.session.execute(insert(model.__table__), values)
    db.session.commit()
    return game_ids


# Building a database ---------------------------------------------------------------------------


@dataclass
class Bench:
    """An app on its own database, and the games the benchmark opens in it."""

    app: Flask
    finished_id: int
    view_token: str
    edit_token: str
    in_progress_id: int | None = None
    # A second finished game like the first, whose version the benchmark bumps before each view.
    fresh_id: int | None = None
    post_games: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)
    populate_seconds: float = 0.0
    games: int = 0


def make_app(folder: Path) -> Flask:
    """An app on a fresh SQLite file in `folder`, migrated to head, charts cached beside it."""
    folder.mkdir(parents=True, exist_ok=True)
    app = create_app(
        {
            "SECRET_KEY": "bench-only-secret-key-not-for-production",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'bench.sqlite'}",
            "CHART_CACHE_DIR": str(folder / "charts"),
            # One client sends every request here: the limits per client would stop it.
            "RATELIMIT_ENABLED": False,
        }
    )
    with app.app_context():
        flask_migrate.upgrade()
    return app


def build(
    folder: Path, games: int, settings: Settings, *, extras: bool = True, post_games: int = 0
) -> Bench:
    """A database of `games` finished games, the last one (8 players, 13 rounds, a blocked round,
    hands as tiles and a penalty) recorded through the services on BENCH_DEVICE.

    With `extras`: also a 6-round game in progress on BENCH_DEVICE (its page shows the round
    form), and `post_games` 8-player games at 6 rounds, each to receive one API round POST."""
    rng = random.Random(settings.seed)
    # The games the benchmark opens come from their own generator: the same in every database.
    own = random.Random(settings.seed + 1)
    app = make_app(folder)
    started = time.perf_counter()
    with app.app_context():
        plans = [
            # Every 50th game is the bench phone's own, so its home page lists a realistic few.
            plan_game(rng, device=BENCH_DEVICE if index % 50 == 0 else None)
            for index in range(games - 1)
        ]
        write_in_bulk(plans)
        target = plan_game(own, players=8, device=BENCH_DEVICE, open_train=True)
        # Make sure the page shows each kind of cell, whatever the seed gave.
        setup = core.new_game(target.players, target.rules)
        target.entries[3] = random_entry(own, setup, 4, Mix(blocked=1.0, tiles=1.0, penalty=1.0))
        finished_id = write_with_services(target)
        game = db.session.get(Game, finished_id)
        assert game is not None and game.finished_at is not None
        bench = Bench(app, finished_id, game.view_token, game.edit_token)
        if extras:
            current = plan_game(own, players=8, rounds=6, device=BENCH_DEVICE, open_train=True)
            bench.in_progress_id = write_with_services(current)
            targets = [plan_game(own, players=8, rounds=6) for _ in range(post_games)]
            for game_id, plan in zip(write_in_bulk(targets), targets, strict=True):
                token = db.session.get(Game, game_id).edit_token
                setup = core.new_game(plan.players, plan.rules)
                body = entry_json(random_entry(own, setup, 7), number=7)
                bench.post_games.append((game_id, token, body))
            fresh = plan_game(own, players=8, device=BENCH_DEVICE, open_train=True)
            bench.fresh_id = write_with_services(fresh)
        bench.games = db.session.scalar(select(func.count(Game.id)))
        db.session.remove()
    bench.populate_seconds = time.perf_counter() - started
    return bench


# Measuring -------------------------------------------------------------------------------------


class QueryCounter:
    """Counts the SQL queries sent on an app's engine (before_cursor_execute)."""

    def __init__(self, app: Flask):
        with app.app_context():
            self.engine = db.engine
        self.count = 0
        event.listen(self.engine, "before_cursor_execute", self._hit)
        light_reads.connect(self._light, sender=self.engine)

    def _hit(self, _connection: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        # BEGIN and COMMIT are transaction control, not queries (scorekeeper/infra/sqlite.py sends
        # them itself; sqlite3 used to send them unseen).
        if not statement.lstrip().upper().startswith(("BEGIN", "COMMIT", "ROLLBACK")):
            self.count += 1

    def _light(self, _engine: Any, **_sent: Any) -> None:
        self.count += 1  # a light read: one SELECT on the driver's connection

    def close(self) -> None:
        event.remove(self.engine, "before_cursor_execute", self._hit)
        light_reads.disconnect(self._light, sender=self.engine)


@dataclass
class Samples:
    """Times (ms) and query counts of one kind of request."""

    label: str
    url: str
    times: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    queries: list[int] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "url": self.url,
            "n": len(self.times),
            "median_ms": round(statistics.median(self.times), 3),
            "p90_ms": round(percentile(self.times, 90), 3),
            "min_ms": round(min(self.times), 3),
            # This process's CPU time: what the request costs when the machine is busy too.
            "cpu_median_ms": round(statistics.median(self.cpu), 3),
            "queries": round(statistics.median(self.queries)),
            "queries_min": min(self.queries),
            "queries_max": max(self.queries),
        }


def percentile(values: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(pct / 100 * len(ordered)) - 1)]


Request = Callable[[int], Any]  # i -> a test-client response


def timed(
    samples: Samples,
    counter: QueryCounter,
    request: Request,
    index: int,
    expect: int,
    prepare: Callable[[int], None] | None = None,
) -> None:
    """Time one request (server time through the test client) and count its queries."""
    if prepare is not None:
        prepare(index)
    before = counter.count
    cpu = time.process_time()
    start = time.perf_counter()
    response = request(index)
    elapsed = (time.perf_counter() - start) * 1000
    cpu = (time.process_time() - cpu) * 1000
    queries = counter.count - before
    if response.status_code != expect:
        raise RuntimeError(f"{samples.url}: status {response.status_code}, expected {expect}")
    samples.times.append(elapsed)
    samples.cpu.append(cpu)
    samples.queries.append(queries)


@dataclass
class Kind:
    """One kind of request to time: `request(i)` sends the i-th one."""

    key: str
    label: str
    url: str
    request: Request
    reps: int
    expect: int = 200
    prepare: Callable[[int], None] | None = None


def measure(
    label: str,
    url: str,
    counter: QueryCounter,
    request: Request,
    reps: int,
    *,
    warmup: int,
    expect: int = 200,
    prepare: Callable[[int], None] | None = None,
) -> Samples:
    """Warm up, then time `reps` requests of one kind (bench/season.py uses it too)."""
    kind = Kind("one", label, url, request, reps, expect, prepare)
    return measure_round_robin([kind], counter, warmup)["one"]


def measure_round_robin(
    kinds: Sequence[Kind], counter: QueryCounter, warmup: int
) -> dict[str, Samples]:
    """Warm up, then time each kind's requests round-robin, so that every kind sees the same
    machine noise (other work, a throttled CPU) rather than one kind getting a bad minute."""
    found = {kind.key: Samples(kind.label, kind.url) for kind in kinds}
    for index in range(warmup + max(kind.reps for kind in kinds)):
        for kind in kinds:
            if index < warmup + kind.reps:
                samples = found[kind.key] if index >= warmup else Samples(kind.label, kind.url)
                timed(samples, counter, kind.request, index, kind.expect, kind.prepare)
    return found


def _clear_charts(app: Flask) -> Callable[[int], None]:
    folder = Path(app.config["CHART_CACHE_DIR"])

    def clear(_index: int) -> None:
        shutil.rmtree(folder, ignore_errors=True)
        app.extensions["scorekeeper_snapshots"].clear()  # a new chart reads the rounds too
        if "scorekeeper_parts" in app.extensions:  # nor an answer kept whole
            app.extensions["scorekeeper_parts"].clear()

    return clear


def measure_requests(bench: Bench, settings: Settings) -> dict[str, dict[str, Any]]:
    """Time each kind of request on the full database."""
    app = bench.app
    client = app.test_client()
    client.set_cookie(COOKIE, BENCH_DEVICE)
    if settings.gzip:
        client.environ_base["HTTP_ACCEPT_ENCODING"] = "gzip, br"
    counter = QueryCounter(app)
    game = f"/games/{bench.finished_id}"
    playing = f"/games/{bench.in_progress_id}"
    api = f"/api/v1/games/{bench.finished_id}"
    view = {"Authorization": f"Bearer {bench.view_token}"}
    race = f"{game}/chart/race.svg"
    reps, warmup = settings.reps, settings.warmup

    def post(index: int) -> Any:
        game_id, token, body = bench.post_games[index]
        return client.post(
            f"/api/v1/games/{game_id}/rounds",
            json=body,
            headers={"Authorization": f"Bearer {token}"},
        )

    def get(url: str, **kwargs: Any) -> Request:
        return lambda _index: client.get(url, **kwargs)

    fresh = f"/games/{bench.fresh_id}"
    live = f"/s/{bench.view_token}/live"
    with app.app_context():
        polled = {"If-None-Match": client.get(live).headers["ETag"]}

    def new_version(_index: int) -> None:
        """A new version of the game (as a saved round makes): nothing of it is kept yet."""
        with app.app_context(), db.engine.begin() as connection:
            connection.execute(
                update(Game.__table__)
                .where(Game.id == bench.fresh_id)
                .values(version=Game.version + 1)
            )

    # The first chart of the process pays for importing matplotlib: timed once, apart (it is
    # also the warm-up of the first-render figures). First renders clear the chart caches, so
    # they run on their own, before the interleaved rest.
    cold = Samples("chart, first render in a new process (imports matplotlib)", race)
    timed(cold, counter, get(race), 0, 200, _clear_charts(app))
    first = Kind("chart_first_render", "chart, first render (race, cache cleared)", race,
                 get(race), settings.chart_reps, prepare=_clear_charts(app))  # fmt: skip
    found = measure_round_robin([first], counter, warmup=0)
    kinds = [
        Kind("game_page_finished", "game page, finished (8 players, 13 rounds)", game,
             get(game), reps),
        Kind("game_page_in_progress", "game page, in progress (6 rounds, round form)", playing,
             get(playing), reps),
        Kind("game_page_new_version", "game page, first view of a new version (finished)",
             fresh, get(fresh), reps, prepare=new_version),
        Kind("api_game_get", "API game GET (8 players, 13 rounds)", api,
             get(api, headers=view), reps),
        Kind("api_round_post", "API round POST (8 players, round 7)",
             "/api/v1/games/<id>/rounds", post, reps, expect=201),
        Kind("chart_cached", "chart, cached (race)", race, get(race), settings.cached_reps),
        Kind("share_page", "share page GET", f"/s/{bench.view_token}",
             get(f"/s/{bench.view_token}"), reps),
        Kind("home_page", "home page (device with its games)", "/", get("/"), reps),
        Kind("live_poll_304", "share page's live poll, unchanged (304)", live,
             get(live, headers=polled), reps, expect=304),
        Kind("healthz", "floor: /healthz (no database, no template)", "/healthz",
             get("/healthz"), reps),
    ]  # fmt: skip
    found.update(measure_round_robin(kinds, counter, warmup))
    counter.close()
    order = [*kinds[:5], first, *kinds[5:]]
    results = {kind.key: found[kind.key].summary() for kind in order}
    results["chart_cold_process"] = cold.summary()
    return results


def measure_scaling(one: Bench, full: Bench, settings: Settings) -> dict[str, dict[str, Any]]:
    """The finished game's page on a database of 1 game and on the full one, interleaved so
    both see the same machine noise."""
    runs = []
    for bench in (one, full):
        client = bench.app.test_client()
        client.set_cookie(COOKIE, BENCH_DEVICE)
        url = f"/games/{bench.finished_id}"
        label = f"game page, {bench.games} game{'s' if bench.games != 1 else ''} in the database"
        runs.append((Samples(label, url), QueryCounter(bench.app), client, url))
    for index in range(settings.warmup + settings.reps):
        for samples, counter, client, url in runs:
            scratch = samples if index >= settings.warmup else Samples("", url)
            timed(scratch, counter, lambda _i, c=client, u=url: c.get(u), index, 200)
    for _samples, counter, _client, _url in runs:
        counter.close()
    return {
        "game_page_1_game": {**runs[0][0].summary(), "games": one.games},
        "game_page_all_games": {**runs[1][0].summary(), "games": full.games},
    }


def check_targets(requests: dict[str, Any], scaling: dict[str, Any]) -> list[dict[str, Any]]:
    """The targets, each with its measured value and PASS or MISS."""

    def under(key: str, label: str, limit: float, name: str | None = None) -> dict[str, Any]:
        value = requests[key]["median_ms"]
        text = f"{label}: median {value:.2f} ms <= {limit:g} ms"
        target = name or key
        return {
            "target": target,
            "text": text,
            "value": value,
            "limit": limit,
            "pass": value <= limit,
        }

    one, many = scaling["game_page_1_game"], scaling["game_page_all_games"]
    allowed = one["median_ms"] * SCALING_RATIO + SCALING_SLACK_MS
    same_queries = one["queries"] == many["queries"]
    as_fast = many["median_ms"] <= allowed
    return [
        under("game_page_finished", "game page (finished)", GAME_PAGE_TARGET_MS),
        under("game_page_in_progress", "game page (in progress, form)", GAME_PAGE_TARGET_MS),
        under(
            "game_page_new_version", "game page, first view of a new version", FIRST_VIEW_TARGET_MS
        ),
        under("api_game_get", "API game GET", API_GET_TARGET_MS),
        under("api_round_post", "round save (API round POST)", ROUND_SAVE_TARGET_MS),
        under("chart_cached", "cached chart", CACHED_CHART_TARGET_MS),
        *(
            under(key, label, limit, f"{key}_issue_24")
            for key, (label, limit) in ISSUE_24_TARGETS_MS.items()
        ),
        {
            "target": "game_page_scaling",
            "text": (
                f"game page with {many['games']} games ({many['median_ms']:.2f} ms, "
                f"{many['queries']} queries) as fast as with 1 ({one['median_ms']:.2f} ms, "
                f"{one['queries']} queries): within x{SCALING_RATIO} + {SCALING_SLACK_MS} ms, "
                "same query count"
            ),
            "value": many["median_ms"],
            "limit": round(allowed, 3),
            "pass": same_queries and as_fast,
        },
    ]


def _area(filename: str, function: str) -> str:
    """Which part of the stack a profiled function belongs to."""
    path = filename.replace(os.sep, "/")
    if "/templates/" in path:
        return "templates (compiled Jinja code)"
    if "site-packages/" in path:
        return path.split("site-packages/", 1)[1].split("/", 1)[0]
    if "/scorekeeper/" in path:
        return "scorekeeper/" + path.split("/scorekeeper/", 1)[1]
    if path.startswith("~"):
        return "builtins (" + function.strip("<>").replace("built-in method ", "")[:30] + ")"
    return "stdlib"


def _short(filename: str) -> str:
    """A source file's path from the project's root (templates/..., scorekeeper/...)."""
    path = filename.replace(os.sep, "/")
    for root in ("/templates/", "/scorekeeper/"):
        if root in path:
            return root.strip("/") + "/" + path.split(root, 1)[1]
    return path


def profile_page(bench: Bench, url: str, count: int) -> dict[str, Any]:
    """Run `count` requests under cProfile: own time by area, and the app's costliest calls
    (cumulative). Profiled times are inflated; compare the shares."""
    client = bench.app.test_client()
    client.set_cookie(COOKIE, BENCH_DEVICE)
    for _ in range(3):
        client.get(url)
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(count):
        client.get(url)
    profiler.disable()
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    total = sum(entry[2] for entry in stats.values())
    areas: dict[str, float] = {}
    for (filename, _line, function), (_cc, _nc, own, _cum, _callers) in stats.items():
        area = _area(filename, function)
        areas[area] = areas.get(area, 0.0) + own
    ranked = sorted(areas.items(), key=lambda item: -item[1])[:15]
    app_calls = [
        (f"{_short(filename)}:{line} {function}", cumulative)
        for (filename, line, function), (_cc, _nc, _own, cumulative, _callers) in stats.items()
        if ("/scorekeeper/" in filename or "/templates/" in filename) and "<" not in function
    ]
    app_calls.sort(key=lambda item: -item[1])
    return {
        "url": url,
        "requests": count,
        "profiled_ms_per_request": round(total / count * 1000, 2),
        "own_time_by_area": [
            {"area": area, "ms": round(own / count * 1000, 2), "share": round(own / total, 3)}
            for area, own in ranked
        ],
        "app_cumulative": [
            {"function": name, "ms": round(cumulative / count * 1000, 2)}
            for name, cumulative in app_calls[:15]
        ],
    }


def profile_text(profiles: dict[str, Any]) -> str:
    """The profiles as text."""
    lines = []
    for key, found in profiles.items():
        lines += ["", f"cProfile of {key} ({found['url']}), {found['requests']} requests, "
                  f"{found['profiled_ms_per_request']} ms/request under the profiler:"]  # fmt: skip
        lines += ["  own time by area:"]
        lines += [f"    {a['ms']:7.2f} ms {a['share']:6.1%}  {a['area']}"
                  for a in found["own_time_by_area"]]  # fmt: skip
        lines += ["  app functions, cumulative:"]
        lines += [f"    {f['ms']:7.2f} ms  {f['function']}" for f in found["app_cumulative"]]
    return "\n".join(lines)


# Running ---------------------------------------------------------------------------------------


def _cpu_ticks() -> list[int] | None:
    """The machine's CPU time counters (/proc/stat: user ... steal), or None off Linux."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            return [int(value) for value in stat.readline().split()[1:9]]
    except (OSError, ValueError):
        return None


def _machine_share(before: list[int] | None, after: list[int] | None) -> dict[str, float]:
    """How busy the whole machine was meanwhile, and how much CPU the hypervisor took (steal)."""
    if not before or not after:
        return {}
    spent = [end - start for start, end in zip(before, after, strict=True)]
    total = sum(spent) or 1
    idle = spent[3] + spent[4]
    return {"busy_percent": round(100 * (total - idle) / total, 1),
            "steal_percent": round(100 * spent[7] / total, 1)}  # fmt: skip


def run_benchmark(settings: Settings, workdir: Path | None = None) -> dict[str, Any]:
    """Build both databases, measure, and return every figure (what results.json holds)."""
    load_before = os.getloadavg()
    ticks_before = _cpu_ticks()
    with tempfile.TemporaryDirectory(prefix="sk-bench-") as temp:
        folder = Path(workdir or temp)
        post_count = settings.reps + settings.warmup
        full = build(folder / "full", settings.games, settings, post_games=post_count)
        one = build(folder / "one", 1, settings, extras=False)
        try:
            requests = measure_requests(full, settings)
            scaling = measure_scaling(one, full, settings)
            profiles = {}
            if settings.profile:
                for key, game_id in (
                    ("game_page_finished", full.finished_id),
                    ("game_page_in_progress", full.in_progress_id),
                ):
                    profiles[key] = profile_page(full, f"/games/{game_id}", settings.profile)
        finally:
            for bench in (full, one):
                with bench.app.app_context():
                    db.engine.dispose()
    return {
        "meta": {
            "finished_games": settings.games,
            "games_in_database": full.games,
            "populate_seconds": round(full.populate_seconds, 2),
            "settings": {
                key: getattr(settings, key)
                for key in ("reps", "chart_reps", "cached_reps", "warmup", "seed", "quick", "gzip")
            },
            "python": platform.python_version(),
            "sqlalchemy": sqlalchemy.__version__,
            "sqlite": sqlite3.sqlite_version,
            "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs",
            # Other work on the machine inflates wall times (see cpu_median_ms).
            "load_average_before": [round(load, 2) for load in load_before],
            "load_average_after": [round(load, 2) for load in os.getloadavg()],
            "machine_cpu": _machine_share(ticks_before, _cpu_ticks()),
            "when": datetime.now().isoformat(timespec="seconds"),
            "timing": "server time: time.perf_counter around Flask test-client calls",
        },
        "requests": requests,
        "scaling": scaling,
        "targets": check_targets(requests, scaling),
        **({"profile": profiles} if profiles else {}),
    }


def table(results: dict[str, Any]) -> str:
    """The figures as a small text table."""
    lines = [
        f"{'request':<58} {'n':>4} {'median ms':>10} {'p90 ms':>8} {'cpu ms':>7} {'queries':>8}"
    ]

    def line(row: dict[str, Any]) -> str:
        queries = str(row["queries"])
        if row["queries_min"] != row["queries_max"]:
            queries = f"{row['queries_min']}-{row['queries_max']}"
        return (
            f"{row['label']:<58} {row['n']:>4} {row['median_ms']:>10.2f} "
            f"{row['p90_ms']:>8.2f} {row['cpu_median_ms']:>7.2f} {queries:>8}"
        )

    meta = results["meta"]
    lines += [line(row) for row in results["requests"].values()]
    lines += ["", "database size:"] + [line(row) for row in results["scaling"].values()]
    lines += ["", f"load average (1, 5, 15 min) before {meta['load_average_before']}, "
              f"after {meta['load_average_after']} on {meta['machine']}; "
              f"during the run: {meta['machine_cpu']}"]  # fmt: skip
    lines += ["", "targets:"]
    lines += [f"  {'PASS' if t['pass'] else 'MISS'}  {t['text']}" for t in results["targets"]]
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None = None) -> tuple[Settings, argparse.Namespace]:
    """Command-line options -> Settings."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, help="finished games in the database (1000)")
    parser.add_argument("--quick", action="store_true", help="50 games, few repetitions")
    parser.add_argument("--reps", type=int, help="timed requests of each kind (100)")
    parser.add_argument("--seed", type=int, help="random seed of the generated games")
    parser.add_argument("--out", type=Path, help="where to write the JSON results")
    parser.add_argument(
        "--profile",
        type=int,
        metavar="N",
        help="also run N requests of each game page under cProfile",
    )
    parser.add_argument(
        "--strict", action="store_true", help="exit with status 1 if a target is missed"
    )
    parser.add_argument(
        "--gzip",
        action="store_true",
        default=None,
        help="send Accept-Encoding: gzip as a phone's browser does (pages are then compressed)",
    )
    args = parser.parse_args(argv)
    settings = QUICK if args.quick else Settings()
    changes = {
        key: getattr(args, key)
        for key in ("games", "reps", "seed", "profile", "gzip")
        if getattr(args, key) is not None
    }
    if changes.get("games", 1) < 1:
        parser.error("--games must be at least 1")
    settings = Settings(**{**settings.__dict__, **changes})
    if args.out is None:
        args.out = BENCH_DIR / ("results-quick.json" if settings.quick else "results.json")
    return settings, args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark, print the table, write the JSON."""
    settings, args = parse_args(argv)
    # A root handler keeps migrations/env.py from installing alembic.ini's chatty logging.
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    print(f"filling a database with {settings.games} finished games...", flush=True)
    results = run_benchmark(settings)
    print(f"filled in {results['meta']['populate_seconds']} s\n")
    print(table(results))
    if "profile" in results:
        print(profile_text(results["profile"]))
    args.out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"\nwrote {args.out}")
    missed = [t for t in results["targets"] if not t["pass"]]
    return 1 if args.strict and missed else 0


if __name__ == "__main__":
    sys.exit(main())
