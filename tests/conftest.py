"""Shared fixtures: a fresh app and database per test, its client and CLI runner, accounts."""

import itertools
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import flask_migrate
import pytest
from flask import Flask, request
from flask.testing import FlaskClient, FlaskCliRunner
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from mail_server import Mailbox, SmtpServer
from sqlalchemy import event
from werkzeug.test import Client

from scorekeeper import create_app
from scorekeeper.charts import draw
from scorekeeper.extensions import db
from scorekeeper.models import utcnow
from scorekeeper.services import accounts as account_service
from scorekeeper.services import photo_lane
from scorekeeper.services.games.snapshot import light_reads

# Variables a developer's shell may export that would leak into the app under test.
# The shell's language too: the flask commands speak it (scorekeeper.i18n.shell_locale).
ENV_VARS = (
    *("DATABASE_URL", "SECRET_KEY", "SCOREKEEPER_SECRET_KEY"),
    *("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"),
)


@pytest.fixture(autouse=True, scope="session")
def _photo_workers_stopped() -> Iterator[None]:
    """The photo lane's worker processes (started by the first photo read) stop with the
    session, not at the interpreter's exit only."""
    yield
    photo_lane.shutdown()


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
        # scrypt costs about a second a hash on a busy machine; the method is not under test.
        "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",
        # Each test's charts in its own folder: none is served from another test's files.
        "CHART_CACHE_DIR": str(tmp_path / "charts"),
        # Limits on abuse are tested on their own (tests/test_limits.py); off for the rest.
        "RATELIMIT_ENABLED": False,
        # A busy test machine must not turn a slow chart into a 503 in an unrelated test.
        "CHART_RENDER_WAIT": 60.0,
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
    # Its own instance folder: the photo lane's places (lock files) are not shared with the
    # other test process, whose photo reads would fill them and turn a read here into a 503.
    app = create_app(app_config, instance_path=str(tmp_path / "instance"))
    app.jinja_env.bytecode_cache = TEMPLATE_CACHE
    if not copied:
        with app.app_context():
            flask_migrate.upgrade()
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def reached(app: Flask) -> list[str]:
    """The paths of the requests that reached Flask's own handling (not answered before it:
    polls.py, answers.py)."""
    paths: list[str] = []

    @app.before_request
    def _seen() -> None:
        paths.append(request.path)

    return paths


@pytest.fixture
def client(app: Flask) -> Client:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


# Accounts ----------------------------------------------------------------------------------

PASSWORD = "correct horse battery staple"


@dataclass(frozen=True)
class Account:
    """An account made for a test, with the password it signs in with."""

    id: int
    email: str
    name: str
    password: str


@pytest.fixture
def user_factory(app: Flask) -> Callable[..., Account]:
    """user_factory(name="Ana", email=None, password=PASSWORD, verified=True) -> Account: a new
    account (email user1@example.com, user2@... unless given), made through the accounts
    service, its address confirmed unless verified=False."""
    numbers = itertools.count(1)

    def make(
        name: str = "Ana", email: str | None = None, password: str = PASSWORD, verified=True
    ) -> Account:
        with app.app_context():
            user = account_service.create_user(
                name, email or f"user{next(numbers)}@example.com", password
            )
            if verified:  # as if the confirmation link was followed
                user.email_verified_at = utcnow()
                db.session.commit()
            return Account(user.id, user.email, user.name, password)

    return make


def sign_in_client(client: FlaskClient, email: str, password: str, remember: bool = False):
    """Sign a test client in through the sign-in form; asserts it worked (CSRF must be off)."""
    data = {"email": email, "password": password}
    if remember:
        data["remember"] = "y"
    response = client.post("/sign-in", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    return response


@pytest.fixture
def sign_in() -> Callable[..., object]:
    """sign_in(client, email, password, remember=False): sign a test client in."""
    return sign_in_client


@pytest.fixture
def signed_in_client(app: Flask, user_factory: Callable[..., Account]) -> FlaskClient:
    """A new client signed in as a new account, which is `client.account` (an Account)."""
    account = user_factory()
    client = app.test_client()
    sign_in_client(client, account.email, account.password)
    client.account = account  # type: ignore[attr-defined]
    return client


class StatementCounter:
    """Counts the SQL statements the app sends on its engine (before_cursor_execute)."""

    def __init__(self, app: Flask):
        with app.app_context():
            self.engine = db.engine
        self.count = 0
        event.listen(self.engine, "before_cursor_execute", self._hit)
        light_reads.connect(self._light, sender=self.engine)

    def _hit(self, _connection: object, _cursor: object, statement: str, *_args: object) -> None:
        # BEGIN and COMMIT are transaction control, not queries (scorekeeper/infra/sqlite.py sends
        # them itself; sqlite3 used to send them unseen).
        if not statement.lstrip().upper().startswith(("BEGIN", "COMMIT", "ROLLBACK")):
            self.count += 1

    def _light(self, _engine: object, **_sent: object) -> None:
        self.count += 1  # a light read: one SELECT on the driver's connection

    def close(self) -> None:
        event.remove(self.engine, "before_cursor_execute", self._hit)
        light_reads.disconnect(self._light, sender=self.engine)

    def of_get(self, client: FlaskClient, url: str) -> int:
        """The statements one GET of `url` sends (it must answer 200)."""
        before = self.count
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        return self.count - before


@pytest.fixture
def statements(app: Flask) -> Iterator[StatementCounter]:
    """A StatementCounter on the app, listening for the whole test."""
    counter = StatementCounter(app)
    yield counter
    counter.close()


DRAWINGS = ("race_chart", "rounds_chart", "season_chart", "player_chart")


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The charts drawn during the test, in order, by drawing function ('race_chart'...)."""
    drawn: list[str] = []
    for name in DRAWINGS:
        real = getattr(draw, name)

        def counting(*args: object, _real=real, _name: str = name, **kwargs: object) -> bytes:
            drawn.append(_name)  # list.append is atomic: threads may draw at once
            return _real(*args, **kwargs)

        monkeypatch.setattr(draw, name, counting)
    return drawn


# Mail ------------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def smtp_server() -> Iterator[SmtpServer]:
    """A real SMTP server on loopback for the whole session (tests/mail_server.py)."""
    server = SmtpServer().start()
    yield server
    server.stop()


@pytest.fixture
def mailbox(smtp_server: SmtpServer) -> Mailbox:
    """The SMTP server's mailbox, emptied for this test (use with the `mail_config` app)."""
    smtp_server.mailbox.mails.clear()
    return smtp_server.mailbox
