"""The application factory: routing, static files, layered config, errors, CSRF."""

import pytest
from flask import Flask
from flask_wtf.csrf import generate_csrf

from scorekeeper import create_app
from scorekeeper.config import (
    config_from_environ,
    load_config,
    normalise_database_url,
)


def test_index_renders_with_app_name(client):
    response = client.get("/")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert "Scorekeeper" in page
    assert "Mexican Train" in page
    assert '<html lang="en">' in page
    assert 'name="viewport"' in page


def test_static_css_is_served(client):
    response = client.get("/static/css/app.css")
    assert response.status_code == 200
    assert response.mimetype == "text/css"
    assert b"@media print" in response.data
    response.close()


def test_favicon_is_served(client):
    response = client.get("/static/img/favicon.svg")
    assert response.status_code == 200
    response.close()


def test_healthz(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_data(as_text=True) == "ok"


def test_unknown_url_renders_404_page(client):
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    assert "Page not found" in response.get_data(as_text=True)


def test_unknown_api_url_returns_json_404(client):
    response = client.get("/api/no-such-thing")
    assert response.status_code == 404
    assert response.is_json
    assert response.get_json() == {"error": "We couldn't find that page."}


def test_json_only_client_gets_json(client):
    response = client.get("/no-such-page", headers={"Accept": "application/json"})
    assert response.status_code == 404
    assert response.is_json


def test_method_not_allowed_keeps_allow_header(client):
    response = client.delete("/")
    assert response.status_code == 405
    assert "GET" in response.headers["Allow"]
    assert "Error 405" in response.get_data(as_text=True)


def test_internal_error_renders_500_page(app_config):
    app = create_app(app_config)
    # Without PROPAGATE_EXCEPTIONS the error reaches the handler as it would in production.
    app.config["PROPAGATE_EXCEPTIONS"] = False

    @app.get("/boom")
    def boom():
        raise RuntimeError("boom")

    response = app.test_client().get("/boom")
    assert response.status_code == 500
    assert "Something went wrong" in response.get_data(as_text=True)


def test_csrf_is_enforced_when_enabled(app_config):
    app = create_app({**app_config, "WTF_CSRF_ENABLED": True})

    @app.get("/_token")
    def token():
        return generate_csrf()

    @app.post("/_probe")
    def probe():
        return "accepted"

    client = app.test_client()
    refused = client.post("/_probe", data={})
    assert refused.status_code == 400
    token_value = client.get("/_token").get_data(as_text=True)
    accepted = client.post("/_probe", data={"csrf_token": token_value})
    assert accepted.status_code == 200
    assert accepted.get_data(as_text=True) == "accepted"


# --- configuration layers -------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("postgres://u:p@h:5432/db", "postgresql+psycopg://u:p@h:5432/db"),
        ("postgresql://u@h/db", "postgresql+psycopg://u@h/db"),
        ("postgresql+psycopg://u@h/db", "postgresql+psycopg://u@h/db"),
        ("sqlite:////tmp/x.sqlite", "sqlite:////tmp/x.sqlite"),
    ],
)
def test_normalise_database_url(url, expected):
    assert normalise_database_url(url) == expected


def test_config_from_environ_ignores_empty_values():
    assert config_from_environ({"DATABASE_URL": "", "SECRET_KEY": ""}) == {}


def test_defaults_put_sqlite_in_instance_folder(tmp_path):
    app = Flask("scorekeeper", instance_path=str(tmp_path))
    load_config(app)
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'scorekeeper.sqlite'}"
    assert app.config["SECRET_KEY"] is None  # made at start: tests/test_secret_key.py
    assert app.config["BABEL_DEFAULT_LOCALE"] == "en"


def test_instance_config_file_overrides_defaults(tmp_path):
    (tmp_path / "config.py").write_text("SECRET_KEY = 'from-file'\n")
    app = Flask("scorekeeper", instance_path=str(tmp_path), instance_relative_config=True)
    load_config(app)
    assert app.config["SECRET_KEY"] == "from-file"


def test_environment_overrides_instance_file(tmp_path, monkeypatch):
    (tmp_path / "config.py").write_text("SECRET_KEY = 'from-file'\n")
    monkeypatch.setenv("SECRET_KEY", "from-env")
    monkeypatch.setenv("DATABASE_URL", "postgres://app@127.0.0.1:5432/scores")
    app = Flask("scorekeeper", instance_path=str(tmp_path), instance_relative_config=True)
    load_config(app)
    assert app.config["SECRET_KEY"] == "from-env"
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "postgresql+psycopg://app@127.0.0.1:5432/scores"


def test_prefixed_environment_and_test_mapping_win(tmp_path, monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "plain")
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "prefixed")
    monkeypatch.setenv("SCOREKEEPER_MAX_CONTENT_LENGTH", "1024")
    app = Flask("scorekeeper", instance_path=str(tmp_path))
    load_config(app)
    assert app.config["SECRET_KEY"] == "prefixed"
    assert app.config["MAX_CONTENT_LENGTH"] == 1024
    load_config(app, {"SECRET_KEY": "mapping"})
    assert app.config["SECRET_KEY"] == "mapping"


def test_database_url_env_reaches_the_app(tmp_path, monkeypatch):
    db_file = tmp_path / "env.sqlite"
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{db_file}")
    app = create_app({"TESTING": True}, instance_path=str(tmp_path))
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{db_file}"
