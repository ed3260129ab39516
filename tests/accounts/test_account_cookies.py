"""Session and remember-me cookie settings (config.py defaults) and how to make them Secure."""

from __future__ import annotations

from datetime import timedelta

import pytest

from scorekeeper import create_app

SETTINGS = {
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SAMESITE": "Lax",
    "SESSION_COOKIE_SECURE": False,
    "REMEMBER_COOKIE_HTTPONLY": True,
    "REMEMBER_COOKIE_SAMESITE": "Lax",
    "REMEMBER_COOKIE_SECURE": False,
    "PERMANENT_SESSION_LIFETIME": timedelta(days=30),
    "REMEMBER_COOKIE_DURATION": timedelta(days=30),
}


@pytest.fixture(autouse=True)
def _no_cookie_env(monkeypatch):
    for name in (
        "SCOREKEEPER_SECURE_COOKIES",
        "SCOREKEEPER_SESSION_COOKIE_SECURE",
        "SCOREKEEPER_REMEMBER_COOKIE_SECURE",
    ):
        monkeypatch.delenv(name, raising=False)


def test_defaults(app_config):
    app = create_app(app_config)
    for name, value in SETTINGS.items():
        assert app.config[name] == value, name


@pytest.mark.parametrize(
    "environ",
    [{"SCOREKEEPER_SECURE_COOKIES": "1"}, {"SCOREKEEPER_SECURE_COOKIES": "true"}],
)
def test_secure_cookies_from_the_environment(app_config, monkeypatch, environ):
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    app = create_app(app_config)
    assert app.config["SESSION_COOKIE_SECURE"] is True
    assert app.config["REMEMBER_COOKIE_SECURE"] is True


def test_secure_cookies_off_with_zero(app_config, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_SECURE_COOKIES", "0")
    app = create_app(app_config)
    assert app.config["SESSION_COOKIE_SECURE"] is False


def test_each_setting_can_be_set_with_the_prefixed_environment(app_config, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_SESSION_COOKIE_SECURE", "true")
    app = create_app(app_config)
    assert app.config["SESSION_COOKIE_SECURE"] is True
    assert app.config["REMEMBER_COOKIE_SECURE"] is False


def test_secure_cookies_are_marked_secure(app, user_factory):
    app.config.update(SESSION_COOKIE_SECURE=True, REMEMBER_COOKIE_SECURE=True)
    account = user_factory()
    client = app.test_client()
    response = client.post(
        "/sign-in",
        data={"email": account.email, "password": account.password, "remember": "y"},
        base_url="https://localhost",
    )
    assert response.status_code == 302
    cookies = {cookie.split("=", 1)[0]: cookie for cookie in response.headers.getlist("Set-Cookie")}
    for name in ("session", "remember_token"):
        assert "Secure" in cookies[name] and "HttpOnly" in cookies[name], name
        assert "SameSite=Lax" in cookies[name], name
