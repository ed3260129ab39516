"""Limits on anonymous abuse: how often one client may create games, write rounds, sign up and
make the server draw a chart (Flask-Limiter), and how many charts one process draws at once.

Every limit is per client address (`request.remote_addr`, which the TRUSTED_PROXIES setting
makes the real client's behind a reverse proxy) and set in the configuration (LIMIT_*), as
Flask-Limiter's rate strings ("30 per minute; 200 per hour"). A club playing behind one router
shares one address, so the defaults are far above what a whole club night does: a table saves
a round every few minutes, a club night starts about ten games at once.

Counts live in the app's database by default (RATELIMIT_STORAGE_URI "database://",
limit_store.py), so every gunicorn worker and every app server on one database counts
together; a Redis or Memcached URL moves them there; "memory://" counts in each process alone
(a client would get each limit once per process).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar, cast

from flask import Flask, current_app, has_request_context
from flask_limiter import RateLimitExceeded
from flask_limiter.util import get_remote_address
from limits import parse_many
from werkzeug.exceptions import HTTPException, ServiceUnavailable, TooManyRequests

from scorekeeper.extensions import limiter
from scorekeeper.web import limit_store  # noqa: F401  (registers the "database://" storage)

# The extension key of the app's chart-drawing slots (one semaphore per app, so per process).
_SLOTS = "scorekeeper_chart_slots"
# Methods that write: a limit on a page that also answers GET counts only these.
WRITES = ["POST", "PUT", "PATCH", "DELETE"]
V = TypeVar("V", bound=Callable[..., Any])


def _setting(name: str) -> Callable[[], str]:
    """The limit string in config[name], read at each request (tests and admins change it)."""
    return lambda: current_app.config[name]


def _shared(setting: str, scope: str) -> Callable[[V], V]:
    """A limit shared by every view it decorates, counting writes only. The view is marked
    (`view.rate_limit`: the setting), so the API's document lists the 429 it can answer."""
    limit = limiter.shared_limit(_setting(setting), scope=scope, methods=WRITES)

    def decorate(view: V) -> V:
        limited = cast(V, limit(view))  # Flask-Limiter's wrapper keeps the view's signature
        limited.rate_limit = setting  # type: ignore[attr-defined]
        return limited

    return decorate


# One counter each, shared by the pages and the API that do the same thing.
new_games = _shared("LIMIT_NEW_GAMES", "new-games")
round_writes = _shared("LIMIT_ROUND_WRITES", "round-writes")
sign_ups = _shared("LIMIT_SIGN_UPS", "sign-ups")
# "Forgot your password?" and "send the confirmation again", per client.
mail_requests = _shared("LIMIT_MAIL_REQUESTS", "mail-requests")

# "Read the tiles on this photo", per client (each read costs the server a fraction of a second).
photo_reads = _shared("LIMIT_PHOTO_READS", "photo-reads")

# "Create a club from an export file", per client.
imports = limiter.shared_limit(_setting("LIMIT_IMPORTS"), scope="imports", methods=WRITES)


def _seconds_until(reset_at: float) -> int:
    """Whole seconds until `reset_at` (a Unix time), at least 1: what Retry-After says."""
    return max(1, math.ceil(reset_at - time.time()))


def retry_after(error: HTTPException) -> int | None:
    """Seconds the client should wait after a 429 or 503 (None if unknown)."""
    given = getattr(error, "retry_after", None)
    if isinstance(given, int):
        return given
    if isinstance(error, RateLimitExceeded):
        breached = limiter.current_limit
        if breached is not None:
            return _seconds_until(breached.reset_at)
        return 60
    return None


# Chart drawing ---------------------------------------------------------------------------------


def count(setting: str, scope: str, key: str) -> int | None:
    """Count one hit of `key` against the limits in config[setting] (own counter: `scope`);
    None if it is allowed, else the seconds until it would be. Outside a request, with limits
    off, or with the shared store down (logged, as Flask-Limiter does), everything is allowed."""
    if not has_request_context() or not (limiter.enabled and limiter.initialized):
        return None
    for item in parse_many(current_app.config[setting]):
        try:
            allowed = limiter.limiter.hit(item, scope, key)
            reset_at = 0.0 if allowed else limiter.limiter.get_window_stats(item, scope, key)[0]
        except Exception:  # the shared store is down: let it through
            current_app.logger.exception("Could not count a hit of %s; allowing it", scope)
            return None
        if not allowed:
            return _seconds_until(reset_at)
    return None


def check_chart_render() -> None:
    """Count one chart this client makes the server draw; 429 past LIMIT_CHART_RENDERS.

    Only drawing is counted (a cached chart costs a file read): the chart cache calls this
    when it must draw. Outside a request (the CLI, tests drawing directly) nothing is counted."""
    if not has_request_context():
        return
    wait = count("LIMIT_CHART_RENDERS", "chart-renders", get_remote_address())
    if wait is not None:
        raise TooManyRequests(retry_after=wait)


def check_game_photo_read(game_id: int) -> None:
    """Count one photo read for this game, whoever sends it; 429 past LIMIT_PHOTO_READS_PER_GAME
    (beside the per-client limit: one game's token shared among many addresses is not served
    without end). Called once the sender may edit the game, so others cannot use it up."""
    wait = count("LIMIT_PHOTO_READS_PER_GAME", "photo-reads-game", str(game_id))
    if wait is not None:
        raise TooManyRequests(retry_after=wait)


def mail_allowed(kind: str, address: str) -> bool:
    """True if one more `kind` mail ("reset", "verify") may go to this email address now
    (LIMIT_MAILS_PER_ADDRESS), so nobody can fill someone's inbox from many clients."""
    return count("LIMIT_MAILS_PER_ADDRESS", f"mail-{kind}", address.strip().lower()) is None


def _slots(app: Flask) -> threading.BoundedSemaphore:
    slots = app.extensions.get(_SLOTS)
    if slots is None:  # an app made before init_app ran (a script's): same size
        slots = app.extensions[_SLOTS] = threading.BoundedSemaphore(
            int(app.config["CHART_RENDER_SLOTS"])
        )
    return slots


def render_wait() -> float:
    """How long a request waits for its turn to draw before it is answered 503."""
    return float(current_app.config["CHART_RENDER_WAIT"])


def busy() -> ServiceUnavailable:
    """The 503 a chart request gets when every drawing slot stayed taken: try again shortly."""
    return ServiceUnavailable(retry_after=max(1, math.ceil(render_wait())))


@contextmanager
def render_slot() -> Iterator[None]:
    """Hold one of the process's CHART_RENDER_SLOTS while drawing a chart, so that drawing
    (~100 ms of CPU each) never takes every core from page views; a request that finds none
    free within CHART_RENDER_WAIT seconds gets 503 with Retry-After instead of queueing."""
    slots = _slots(current_app._get_current_object())  # type: ignore[attr-defined]
    if not slots.acquire(timeout=render_wait()):
        raise busy()
    try:
        yield
    finally:
        slots.release()


SETTINGS = (
    "LIMIT_NEW_GAMES",
    "LIMIT_ROUND_WRITES",
    "LIMIT_SIGN_UPS",
    "LIMIT_CHART_RENDERS",
    "LIMIT_MAIL_REQUESTS",
    "LIMIT_MAILS_PER_ADDRESS",
    "LIMIT_IMPORTS",
    "LIMIT_PHOTO_READS_PER_GAME",
)


def check_settings(app: Flask) -> None:
    """Refuse to start with a limit that cannot be read (better than a 500 at each request)."""
    for name in SETTINGS:
        try:
            parse_many(str(app.config[name]))
        except ValueError as error:
            raise ValueError(
                f"{name} must be a rate such as '30 per minute; 200 per hour', "
                f"not {app.config[name]!r}."
            ) from error
    slots = app.config["CHART_RENDER_SLOTS"]
    if isinstance(slots, bool) or not isinstance(slots, int) or slots < 1:
        raise ValueError(f"CHART_RENDER_SLOTS must be a whole number, 1 or more, not {slots!r}.")


def init_app(app: Flask) -> None:
    """Bind the limiter (its storage, on/off and the counted address come from the config) and
    make this process's chart-drawing slots."""
    check_settings(app)
    limiter.init_app(app)
    app.extensions[_SLOTS] = threading.BoundedSemaphore(int(app.config["CHART_RENDER_SLOTS"]))
