"""Layered configuration: defaults, instance/config.py, environment, then the test mapping."""

import os
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from flask import Flask

DEV_SECRET_KEY = "dev"
SUPPORTED_LOCALES = ("en", "fr", "es", "hi")

# Heroku-style URLs say postgres:// (which SQLAlchemy 2 rejects); we ship the psycopg 3 driver.
_POSTGRES_PREFIXES = ("postgres://", "postgresql://")
_PSYCOPG_PREFIX = "postgresql+psycopg://"


def default_config(instance_path: str) -> dict[str, Any]:
    """Return the built-in defaults, with the SQLite file in the instance folder."""
    return {
        "SECRET_KEY": DEV_SECRET_KEY,
        "SQLALCHEMY_DATABASE_URI": "sqlite:///" + os.path.join(instance_path, "scorekeeper.sqlite"),
        "BABEL_DEFAULT_LOCALE": "en",
        # Forms are small; anything larger is a mistake or an attack (answered with 413).
        "MAX_CONTENT_LENGTH": 2 * 1024 * 1024,
        # Cookies: no JavaScript access, not sent on cross-site posts. SECURE_COOKIES (or
        # SCOREKEEPER_SECURE_COOKIES=1) sends them over HTTPS only: set it behind TLS.
        "SECURE_COOKIES": False,
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_SECURE": False,
        "REMEMBER_COOKIE_HTTPONLY": True,
        "REMEMBER_COOKIE_SAMESITE": "Lax",
        "REMEMBER_COOKIE_SECURE": False,
        "REMEMBER_COOKIE_DURATION": timedelta(days=30),
        "PERMANENT_SESSION_LIFETIME": timedelta(days=30),
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


def warn_if_insecure(app: Flask) -> None:
    """Log loudly when the development secret key would sign real users' sessions."""
    if app.config.get("SECRET_KEY") == DEV_SECRET_KEY and not (app.debug or app.testing):
        app.logger.warning(
            "SECRET_KEY is the development default %r: sessions and CSRF tokens can be forged. "
            "Set SECRET_KEY in the environment or in instance/config.py before going live.",
            DEV_SECRET_KEY,
        )
