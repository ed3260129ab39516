"""Shared fixtures: a fresh app and database per test, its client and CLI runner."""

from collections.abc import Iterator

import flask_migrate
import pytest
from flask import Flask
from flask.testing import FlaskCliRunner
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


@pytest.fixture
def app(app_config: dict[str, object]) -> Iterator[Flask]:
    """An app on its own SQLite file, migrated to head (so migrations are exercised)."""
    app = create_app(app_config)
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
