"""Layered configuration: defaults, instance/config.py, environment, then the test mapping."""

import math
import os
import secrets
from collections import Counter
from collections.abc import Mapping
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from flask import Flask

DEV_SECRET_KEY = "dev"
# The generated key's file, in the instance folder (created once, then reused by every worker).
SECRET_KEY_FILE = "secret_key"
# Anything shorter, or a well-known placeholder, can be guessed: refused outside debug and tests.
SECRET_KEY_MIN_LENGTH = 20
# A key of the right length must also carry this many bits by its characters' spread (a random
# 20-character key carries about 85; "aaaa..." none).
SECRET_KEY_MIN_BITS = 60
WEAK_SECRET_KEYS = frozenset(
    {
        DEV_SECRET_KEY,
        "changeme",
        "change-me",
        "change_me",
        "secret",
        "secret-key",
        "secret_key",
        "secretkey",
        "your-secret-key",
        "development",
        "test",
        "testing",
        "password",
    }
)
SUPPORTED_LOCALES = ("en", "fr", "es", "hi")

# Heroku-style URLs say postgres:// (which SQLAlchemy 2 rejects); we ship the psycopg 3 driver.
_POSTGRES_PREFIXES = ("postgres://", "postgresql://")
_PSYCOPG_PREFIX = "postgresql+psycopg://"


def default_config(instance_path: str) -> dict[str, Any]:
    """Return the built-in defaults, with the SQLite file in the instance folder."""
    return {
        # None: a random key is made on first start and kept in instance/secret_key.
        "SECRET_KEY": None,
        "SQLALCHEMY_DATABASE_URI": "sqlite:///" + os.path.join(instance_path, "scorekeeper.sqlite"),
        "BABEL_DEFAULT_LOCALE": "en",
        # Forms are small; anything larger is a mistake or an attack (answered with 413).
        "MAX_CONTENT_LENGTH": 2 * 1024 * 1024,
        # Cookies: no JavaScript access, not sent on cross-site posts. SECURE_COOKIES (or
        # SCOREKEEPER_SECURE_COOKIES=1) sends them over HTTPS only: set it behind TLS.
        "SECURE_COOKIES": False,
        # Behind a reverse proxy: how many proxies in front of the app may set X-Forwarded-*
        # (SCOREKEEPER_TRUSTED_PROXIES=1 behind one nginx). 0 trusts none: the headers are ignored.
        "TRUSTED_PROXIES": 0,
        # SQLite only: how long a writer waits for another's write lock before giving up.
        "SQLITE_BUSY_TIMEOUT": 5.0,
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_SECURE": False,
        "REMEMBER_COOKIE_HTTPONLY": True,
        "REMEMBER_COOKIE_SAMESITE": "Lax",
        "REMEMBER_COOKIE_SECURE": False,
        "REMEMBER_COOKIE_DURATION": timedelta(days=30),
        "PERMANENT_SESSION_LIFETIME": timedelta(days=30),
        # Limits per client address (Flask-Limiter rate strings; see scorekeeper/web/limits.py).
        # Far above a club night behind one router: ~10 games at once, a round per table every
        # few minutes. RATELIMIT_ENABLED=False turns them all off.
        "RATELIMIT_ENABLED": True,
        # Where counts live: database:// (the app's own database: every process and server on
        # it counts together), a shared store such as redis://host:6379 (install `redis`), or
        # memory:// (each process counts alone).
        "RATELIMIT_STORAGE_URI": "database://",
        # The shared store is down: let requests through (logged) rather than answer 500.
        "RATELIMIT_SWALLOW_ERRORS": True,
        "LIMIT_NEW_GAMES": "30 per minute; 200 per hour",
        "LIMIT_ROUND_WRITES": "60 per minute; 1200 per hour",
        "LIMIT_SIGN_UPS": "20 per hour; 100 per day",
        # Only charts the server must draw count (a cached chart is a file read).
        "LIMIT_CHART_RENDERS": "60 per minute; 1000 per hour",
        # Charts drawn at once per process (each ~100 ms of one core), and how long a chart
        # request waits for a free slot before it is answered 503 with Retry-After.
        "CHART_RENDER_SLOTS": 2,
        "CHART_RENDER_WAIT": 3.0,
        # Mail (Flask-Mailman, scorekeeper/infra/mail.py): no MAIL_SERVER writes mails to the log.
        "MAIL_SERVER": "",
        "MAIL_PORT": 587,
        "MAIL_USE_TLS": False,
        "MAIL_USE_SSL": False,
        "MAIL_USERNAME": None,
        "MAIL_PASSWORD": None,
        "MAIL_DEFAULT_SENDER": "Scorekeeper <scorekeeper@localhost>",
        "MAIL_TIMEOUT": 10,
        # Mails go out after the answer, from each process's outbox: at most this many wait;
        # a send the server refuses is tried this many times, pausing 5, 10, 20 s between;
        # a stopping process waits this long for the mails still in its outbox.
        "MAIL_OUTBOX_SIZE": 200,
        "MAIL_ATTEMPTS": 4,
        "MAIL_RETRY_SECONDS": 5.0,
        "MAIL_DRAIN_SECONDS": 10.0,
        # Mails asked for (password resets, confirmation links again) per client address, and
        # mails of one kind per email address (past that, the page answers the same but
        # nothing more goes to that address).
        "LIMIT_MAIL_REQUESTS": "10 per 15 minutes; 50 per day",
        "LIMIT_MAILS_PER_ADDRESS": "3 per hour; 10 per day",
        # Clubs made from an export file uploaded on the web (each upload is checked round by
        # round through the rules: seconds of CPU for a big club), per client address.
        "LIMIT_IMPORTS": "10 per hour; 30 per day",
        # The address people reach the app at (https://scores.example.org): links in mails are
        # built from it, never from the request's Host header (which anyone can set). Needed
        # outside debug when a mail server is set. TRUSTED_HOSTS (None: PUBLIC_URL's host
        # when it is set) refuses requests for any other host with 400.
        "PUBLIC_URL": "",
        "TRUSTED_HOSTS": None,
        # Photos of hands read by the server (~0.1-0.2 s of one core each), per client; a table
        # photographs four to eight hands a round.
        "LIMIT_PHOTO_READS": "30 per minute; 300 per hour",
        # Photo reads of one game (any client, any token), so one game's token shared among
        # many addresses cannot take the photo workers from every other table.
        "LIMIT_PHOTO_READS_PER_GAME": "20 per minute; 300 per hour",
        # The largest photo accepted (a full-size phone photo sent without the page's script).
        "PHOTO_MAX_BYTES": 15 * 1024 * 1024,
        # Photos are read outside the request workers (scorekeeper/services/photo_lane.py):
        # worker processes per app process (None: one per two cores, at least one); reads
        # waiting or running at once on the machine, past which a photo is answered 503 with
        # Retry-After (None: twice PHOTO_WORKERS); seconds a request waits for its read.
        "PHOTO_WORKERS": None,
        "PHOTO_QUEUE": None,
        "PHOTO_WAIT": 20.0,
        # Werkzeug's password hashing; tests use a cheaper method to stay fast.
        "PASSWORD_HASH_METHOD": "scrypt",
    }


def normalise_database_url(url: str) -> str:
    """Map postgres:// and postgresql:// URLs onto the psycopg 3 driver; leave others alone."""
    for prefix in _POSTGRES_PREFIXES:
        if url.startswith(prefix):
            return _PSYCOPG_PREFIX + url[len(prefix) :]
    return url


def config_from_environ(environ: Mapping[str, str]) -> dict[str, Any]:
    """Read the unprefixed variables a host usually sets (DATABASE_URL, SECRET_KEY)."""
    config: dict[str, Any] = {}
    if environ.get("DATABASE_URL"):
        config["SQLALCHEMY_DATABASE_URI"] = normalise_database_url(environ["DATABASE_URL"])
    if environ.get("SECRET_KEY"):
        config["SECRET_KEY"] = environ["SECRET_KEY"]
    return config


def load_config(app: Flask, test_config: Mapping[str, Any] | None = None) -> None:
    """Fill app.config layer by layer; later layers win."""
    app.config.from_mapping(default_config(app.instance_path))
    app.config.from_pyfile("config.py", silent=True)
    app.config.from_mapping(config_from_environ(os.environ))
    app.config.from_prefixed_env("SCOREKEEPER")
    uri = app.config.get("SQLALCHEMY_DATABASE_URI")
    if isinstance(uri, str):
        app.config["SQLALCHEMY_DATABASE_URI"] = normalise_database_url(uri)
    if test_config is not None:
        app.config.from_mapping(test_config)
    if app.config.get("SECURE_COOKIES"):
        app.config["SESSION_COOKIE_SECURE"] = True
        app.config["REMEMBER_COOKIE_SECURE"] = True


class InsecureConfig(RuntimeError):
    """The configuration would let anyone forge sessions: the app refuses to start."""


def _spread_bits(key: str | bytes) -> float:
    """How many bits the key's characters carry if each is drawn as often as it appears
    (Shannon's estimate): about 6 a character for a random key, 0 for "aaaa..."."""
    counts = Counter(key).values()
    return -sum(n * math.log2(n / len(key)) for n in counts)


def _repeats(key: str | bytes) -> bool:
    """True for a key that is a shorter piece over and over ("abcabcabc...", "1234567890" x 2)."""
    return any(
        key == (key[:period] * len(key))[: len(key)] for period in range(1, len(key) // 2 + 1)
    )


def is_weak_secret_key(key: object) -> bool:
    """True for a key anyone could guess: empty, short, a well-known placeholder, or one of the
    right length with little in it (few different characters, or a piece repeated)."""
    if not isinstance(key, str | bytes):
        return True
    if len(key) < SECRET_KEY_MIN_LENGTH or _repeats(key):
        return True
    if isinstance(key, str) and key.strip().lower() in WEAK_SECRET_KEYS:
        return True
    return _spread_bits(key) < SECRET_KEY_MIN_BITS


def instance_secret_key(instance_path: str) -> str:
    """The key kept in instance/secret_key, made (random, mode 0600) if there is none yet.

    Several gunicorn workers may start at once: each writes its own temporary file and links
    it into place, which succeeds for one of them only; the others read the winner's key.
    A reader never sees a half-written file."""
    path = os.path.join(instance_path, SECRET_KEY_FILE)
    if not os.path.exists(path):
        temporary = f"{path}.{os.getpid()}.{secrets.token_hex(4)}"
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(descriptor, "w") as out:
                out.write(secrets.token_urlsafe(48) + "\n")
                out.flush()
                os.fsync(out.fileno())
            try:
                os.link(temporary, path)
            except FileExistsError:
                pass  # another worker made it first: use theirs
        finally:
            os.unlink(temporary)
    with open(path) as key_file:
        return key_file.read().strip()


def ensure_secret_key(app: Flask) -> None:
    """Use the configured key, or the instance folder's generated one when none is set;
    raise InsecureConfig on a guessable key outside debug and tests (warn inside them)."""
    key = app.config.get("SECRET_KEY")
    if key is None:
        key = app.config["SECRET_KEY"] = instance_secret_key(app.instance_path)
    if not is_weak_secret_key(key):
        return
    if app.debug or app.testing:
        app.logger.warning(
            "SECRET_KEY is weak: sessions and CSRF tokens can be forged. "
            "That is fine for development and tests only."
        )
        return
    raise InsecureConfig(
        "SECRET_KEY is empty, a well-known placeholder, shorter than "
        f"{SECRET_KEY_MIN_LENGTH} characters or made of few different characters: anyone "
        "could forge sessions with it. "
        "Unset it to use a random key kept in instance/secret_key, or set a long random one "
        "(python -c 'import secrets; print(secrets.token_urlsafe(48))')."
    )


def public_url_parts(url: str) -> tuple[str, str, str]:
    """(scheme, host[:port], path) of a PUBLIC_URL such as https://scores.example.org; a
    clear ValueError for anything else."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise ValueError(
            f"PUBLIC_URL must be the address people open, such as https://scores.example.org, "
            f"not {url!r}."
        )
    return parts.scheme, parts.netloc, parts.path.rstrip("/")


def ensure_public_url(app: Flask) -> None:
    """Check PUBLIC_URL and trust only its host when TRUSTED_HOSTS is not set. Outside debug
    and tests, mail needs it: a link built from the request's Host header could point a
    password-reset mail at someone else's server (InsecureConfig otherwise)."""
    url = app.config.get("PUBLIC_URL") or ""
    if url:
        _scheme, netloc, _path = public_url_parts(url)
        if app.config.get("TRUSTED_HOSTS") is None:
            app.config["TRUSTED_HOSTS"] = [urlsplit("//" + netloc).hostname]
        return
    if app.config.get("MAIL_SERVER") and not (app.debug or app.testing):
        raise InsecureConfig(
            "A mail server is set but PUBLIC_URL is not: links in mails would be built from "
            "the Host header each request brings, which anyone can forge. Set "
            "SCOREKEEPER_PUBLIC_URL to the address people open (https://scores.example.org)."
        )
