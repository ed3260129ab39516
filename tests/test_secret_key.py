"""The secret key: made and kept in the instance folder when unset, refused when guessable."""

from __future__ import annotations

import os
import stat
import threading

import pytest
from flask import Flask

from scorekeeper import create_app
from scorekeeper.config import (
    SECRET_KEY_FILE,
    InsecureConfig,
    ensure_secret_key,
    instance_secret_key,
    is_weak_secret_key,
    load_config,
)


def bare_app(instance: str, **config: object) -> Flask:
    """An app with layered config from `instance` (no instance config.py there), then `config`."""
    app = Flask("scorekeeper", instance_path=instance, instance_relative_config=True)
    load_config(app, config or None)
    return app


def test_without_a_key_one_is_made_kept_private_and_reused(tmp_path):
    first = bare_app(str(tmp_path))
    ensure_secret_key(first)
    key = first.config["SECRET_KEY"]
    assert not is_weak_secret_key(key)
    path = tmp_path / SECRET_KEY_FILE
    assert path.read_text().strip() == key
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    again = bare_app(str(tmp_path))
    ensure_secret_key(again)
    assert again.config["SECRET_KEY"] == key
    assert os.listdir(tmp_path) == [SECRET_KEY_FILE]  # no temporary file left behind


def test_workers_starting_at_once_share_one_key(tmp_path):
    keys: list[str] = []
    barrier = threading.Barrier(8)

    def start() -> None:
        barrier.wait()
        keys.append(instance_secret_key(str(tmp_path)))

    threads = [threading.Thread(target=start) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(keys) == 8 and len(set(keys)) == 1
    assert os.listdir(tmp_path) == [SECRET_KEY_FILE]


def test_create_app_without_a_key_signs_with_the_instance_key(tmp_path):
    app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://"}, instance_path=str(tmp_path))
    assert app.config["SECRET_KEY"] == (tmp_path / SECRET_KEY_FILE).read_text().strip()
    assert not is_weak_secret_key(app.config["SECRET_KEY"])


def test_a_set_key_is_used_and_no_file_is_made(tmp_path, monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "k" * 40)
    app = bare_app(str(tmp_path), DEBUG=True)
    ensure_secret_key(app)
    assert app.config["SECRET_KEY"] == "k" * 40
    assert not (tmp_path / SECRET_KEY_FILE).exists()


@pytest.mark.parametrize(
    "key",
    [
        *("dev", "", "changeme", "ChangeMe", "secret", "short-key-123", b"bytes", "   "),
        # The right length, little in it: one character, a repeated piece, two characters.
        *("a" * 40, "12345678901234567890", "abcabcabcabcabcabcabcabc", "ab" * 10 + "ba" * 10),
        b"\x00" * 32,
    ],
)
def test_a_weak_key_is_refused_outside_debug_and_tests(tmp_path, key):
    app = bare_app(str(tmp_path), SECRET_KEY=key)
    with pytest.raises(InsecureConfig, match="SECRET_KEY"):
        ensure_secret_key(app)


def test_a_weak_key_from_the_environment_stops_create_app(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "dev")
    with pytest.raises(InsecureConfig, match="forge sessions"):
        create_app(
            {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'x.sqlite'}"},
            instance_path=str(tmp_path),
        )


@pytest.mark.parametrize("mode", [{"TESTING": True}, {"DEBUG": True}])
def test_a_weak_key_is_allowed_in_debug_and_tests(tmp_path, mode, caplog):
    app = bare_app(str(tmp_path), SECRET_KEY="dev", **mode)
    ensure_secret_key(app)
    assert app.config["SECRET_KEY"] == "dev"
    assert "SECRET_KEY is weak" in caplog.text


def test_a_strong_key_starts_quietly(tmp_path, caplog):
    create_app(
        {
            "SECRET_KEY": "Tz4q-Hv9wLp2Xk7RmB3nYc8Fd",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'w.sqlite'}",
        },
        instance_path=str(tmp_path),
    )
    assert "SECRET_KEY" not in caplog.text


def test_a_long_random_key_is_not_weak():
    assert not is_weak_secret_key("x7Qp2mZr9LkT4vWc8NsB")
    assert not is_weak_secret_key(os.urandom(32))
    assert is_weak_secret_key(None)


def test_the_instance_database_and_key_are_readable_by_their_owner_only(tmp_path):
    """The SQLite file holds every password hash, the key signs every session: 0600, whatever
    the umask (SQLite gives its -wal and -shm files the database's mode)."""
    import stat

    import flask_migrate

    from scorekeeper.extensions import db

    previous = os.umask(0o022)
    try:
        app = create_app({"TESTING": True}, instance_path=str(tmp_path))
        with app.app_context():
            flask_migrate.upgrade()
            db.session.execute(db.text("SELECT 1"))
            files = sorted(p.name for p in tmp_path.iterdir() if p.is_file())
            modes = {name: stat.S_IMODE((tmp_path / name).stat().st_mode) for name in files}
            db.engine.dispose()
    finally:
        os.umask(previous)
    assert {"scorekeeper.sqlite", SECRET_KEY_FILE} <= set(modes)
    assert modes == dict.fromkeys(files, 0o600)
