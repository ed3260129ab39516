"""Shared fixtures: a fresh app and database per test, its client and CLI runner."""

import shutil
from collections.abc import Iterator
from pathlib import Path

import flask_migrate
import pytest
from flask import Flask
from flask.testing import FlaskCliRunner
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from werkzeug.test import Client

from scorekeeper import create_app
from scorekeeper.extensions import db

# Variables a developer's shell may export that would leak into the app under test.
ENV_VARS = ("DATABASE_URL", "SECRET_KEY", "SCOREKEEPER_SECRET_KEY")


@pytest.fixture(autouse=True)
def _clean_environ(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ENV_VARS:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def app_config(tmp_path) -> dict[str, object]:
    """Config for the `app` fixture; override in a module to change one key."""
    return {
        "TESTING": True,
        "SECRET_KEY": "test",
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite'}",
        # Request tests post forms without tokens; tests/test_app.py checks CSRF separately.
        "WTF_CSRF_ENABLED": False,
    }


class MemoryBytecodeCache(BytecodeCache):
    """Compiled templates shared by every test's app (each app has a fresh Jinja environment,
    and compiling the templates again costs ~0.3 s a test). Jinja checks the source checksum."""

    def __init__(self) -> None:
        self.store: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if bucket.key in self.store:
            bucket.bytecode_from_string(self.store[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.store[bucket.key] = bucket.bytecode_to_string()


TEMPLATE_CACHE = MemoryBytecodeCache()


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated to head once per session, copied for each test."""
    path = tmp_path_factory.mktemp("migrated") / "head.sqlite"
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"}
    )
    with app.app_context():
        flask_migrate.upgrade()
        db.engine.dispose()
    return path


@pytest.fixture
def app(app_config: dict[str, object], migrated_database: Path, tmp_path: Path) -> Iterator[Flask]:
    """An app on its own SQLite file at the head migration (copied from a once-migrated file;
    a module that points the app elsewhere gets its database migrated in place)."""
    own_file = tmp_path / "test.sqlite"
    copied = app_config.get("SQLALCHEMY_DATABASE_URI") == f"sqlite:///{own_file}"
    if copied:
        shutil.copyfile(migrated_database, own_file)
    app = create_app(app_config)
    app.jinja_env.bytecode_cache = TEMPLATE_CACHE
    if not copied:
        with app.app_context():
            flask_migrate.upgrade()
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> Client:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()
