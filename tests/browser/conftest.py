"""Browser-test fixtures: Debian's Chromium, a phone-sized viewport and a live server."""

from collections.abc import Iterator
from pathlib import Path

import flask_migrate
import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.web import limits
from tests.serving import serve

HERE = Path(__file__).parent
CHROMIUM = "/usr/bin/chromium"
PHONE_VIEWPORT = {"width": 390, "height": 844}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test under tests/browser with `browser` (deselect with -m 'not browser')."""
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    # Playwright's own browser download is blocked here; Debian's Chromium is used instead.
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": PHONE_VIEWPORT}


def migrated_app(db_file: Path, **config: object) -> Flask:
    """A test app on its own SQLite file, migrated to the latest schema."""
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{db_file}",
            # Its charts beside its database, not in the checkout's instance/ folder.
            "CHART_CACHE_DIR": str(db_file.parent / "charts"),
            **config,
        },
        # Its own photo lane (lock files), apart from the other test process's.
        instance_path=str(db_file.parent / "instance"),
    )
    with app.app_context():
        flask_migrate.upgrade()
    return app


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory, smtp_server) -> Iterator[str]:
    """Serve the app from a thread on a free loopback port; yield its base URL. Its mail goes
    to the session's SMTP server on loopback (the `mailbox` fixture reads it)."""
    # A file database: the server thread and the test thread each get their own connection.
    db_file = tmp_path_factory.mktemp("live") / "live.sqlite"
    app = migrated_app(
        db_file,
        SECRET_KEY="browser-tests",
        # Every test's phone comes from 127.0.0.1 to one server: the per-client limits
        # (tests/test_limits.py checks them) would count the whole suite as one table.
        **{name: "10000 per minute" for name in limits.SETTINGS},
        **smtp_server.config,
    )
    with serve(app) as base:
        yield base


@pytest.fixture(scope="module")
def context(browser: Browser, browser_context_args: dict) -> Iterator[BrowserContext]:
    """One phone per test module (a fresh page per test): each test sets up its own game."""
    # pytest-playwright makes a new context per test; on these small machines that costs
    # about half a second each, and the tests do not need separate cookies.
    context = browser.new_context(**browser_context_args)
    yield context
    context.close()


@pytest.fixture
def other_instance(tmp_path: Path) -> Iterator[Flask]:
    """A second, empty Scorekeeper on a fresh SQLite file: where the downloaded club goes."""
    app = migrated_app(tmp_path / "other.sqlite", SECRET_KEY="other")
    yield app
    with app.app_context():
        db.engine.dispose()
