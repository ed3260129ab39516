"""No token in any log: gunicorn's access log, the development server's log, the app's log."""

from __future__ import annotations

import logging
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from scorekeeper import create_app
from scorekeeper.infra.logs import REDACTED, redact

ROOT = Path(__file__).resolve().parents[1]
VIEW_TOKEN = "ViewTok3nSecretAbCdEf"
EDIT_TOKEN = "EditTok3nSecretXyZ_-9"
BEARER = "sk_PersonalSecretToken0123456789abcdefghijklmnop"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (f"GET /s/{VIEW_TOKEN} HTTP/1.1", "GET /s/[redacted] HTTP/1.1"),
        (f"GET /s/{VIEW_TOKEN}/chart/race.svg", "GET /s/[redacted]/chart/race.svg"),
        (f"GET /e/{EDIT_TOKEN}?x=1", "GET /e/[redacted]?x=1"),
        ("POST /invite/abc123 HTTP/1.1", "POST /invite/[redacted] HTTP/1.1"),
        ("GET /c/clubtoken", "GET /c/[redacted]"),
        ("GET /sign-in?next=%2Finvite%2Fabc123", "GET /sign-in?next=%2Finvite%2F[redacted]"),
        (f"Authorization: Bearer {BEARER}", "Authorization: Bearer [redacted]"),
        ("GET /games/12/chart/race.svg", "GET /games/12/chart/race.svg"),
        ("GET /static/css/app.css", "GET /static/css/app.css"),
        ("GET /seasons/3", "GET /seasons/3"),
    ],
)
def test_redact(line, expected):
    assert redact(line) == expected


def test_the_development_server_log_has_no_token(app, caplog):
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with caplog.at_level(logging.INFO, logger="werkzeug"):
            for path in (f"/s/{VIEW_TOKEN}", f"/e/{EDIT_TOKEN}"):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{server.port}{path}", timeout=10)
                except urllib.error.HTTPError as error:  # unknown tokens: 404, still logged
                    assert error.code == 404
    finally:
        server.shutdown()
        thread.join(5)
    # Werkzeug colours the request line when it writes to a terminal.
    lines = [
        re.sub(r"\x1b\[[0-9;]*m", "", r.getMessage())
        for r in caplog.records
        if r.name == "werkzeug"
    ]
    assert any(f'"GET /s/{REDACTED} HTTP/1.1" 404' in line for line in lines), lines
    assert any(f"/e/{REDACTED}" in line for line in lines), lines
    assert not any(VIEW_TOKEN in line or EDIT_TOKEN in line for line in lines)


def test_the_apps_own_error_log_has_no_token(app_config, caplog):
    app = create_app({**app_config, "PROPAGATE_EXCEPTIONS": False})

    @app.get("/s/<token>/boom")
    def boom(token):
        raise RuntimeError("boom")

    response = app.test_client().get(f"/s/{VIEW_TOKEN}/boom")
    assert response.status_code == 500
    messages = [r.getMessage() for r in caplog.records if r.name == app.logger.name]
    assert f"Exception on /s/{REDACTED}/boom [GET]" in messages
    assert VIEW_TOKEN not in caplog.text


def test_a_message_the_app_logs_itself_is_redacted(app, caplog):
    with app.test_request_context(f"/s/{VIEW_TOKEN}"):
        from flask import current_app, request

        current_app.logger.warning("slow page %s", request.path)
    assert f"slow page /s/{REDACTED}" in caplog.messages
    assert VIEW_TOKEN not in caplog.text


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_gunicorn_access_log_has_no_token_or_credential(app, app_config, tmp_path):
    """`make run`'s server and settings (gunicorn.conf.py), one request of each kind."""
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "DATABASE_URL": app_config["SQLALCHEMY_DATABASE_URI"],
        "SECRET_KEY": "Tz4q-Hv9wLp2Xk7RmB3nYc8Fd",
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "WORKERS": "1",
        "THREADS": "2",
    }
    gunicorn = Path(sys.executable).with_name("gunicorn")
    # The header is logged on purpose here, to show it is redacted if someone logs it.
    log_format = '%(h)s "%(r)s" %(s)s "%(f)s" "%({authorization}i)s"'
    server = subprocess.Popen(
        [str(gunicorn), "--config", "gunicorn.conf.py", "--access-logformat", log_format],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{base}/healthz", timeout=2)
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "gunicorn died"
                time.sleep(0.2)
        requests = [
            urllib.request.Request(
                f"{base}/s/{VIEW_TOKEN}", headers={"Referer": f"{base}/e/{EDIT_TOKEN}"}
            ),
            urllib.request.Request(
                f"{base}/api/v1/games/1", headers={"Authorization": f"Bearer {BEARER}"}
            ),
        ]
        for request in requests:
            try:
                urllib.request.urlopen(request, timeout=10)
            except urllib.error.HTTPError:
                pass  # unknown game or token: 404/401, logged all the same
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=30)
    access = [line for line in output.splitlines() if '"GET ' in line]
    assert any(f'"GET /s/{REDACTED} HTTP/1.1" 404 "{base}/e/{REDACTED}"' in x for x in access)
    assert any(f'"GET /api/v1/games/1 HTTP/1.1" 404 "-" "{REDACTED}"' in x for x in access)
    for secret in (VIEW_TOKEN, EDIT_TOKEN, BEARER):
        assert secret not in output


@pytest.mark.parametrize(
    "line",
    [
        "GET /ſ/tokenwithlongs",
        "GET /S/UPPER",
        "x %2fE%2Fabc",
        "BEARER abc",
        "Token: x",
        "GET /games/1 200 1234 0.002",
        "Mozilla/5.0 (Linux; Android 14)",
    ],
)
def test_the_quick_check_never_skips_what_the_patterns_would_redact(line):
    from scorekeeper.infra.logs import _CREDENTIALS, _TOKEN_PATH

    full = _TOKEN_PATH.sub(lambda m: m["prefix"] + REDACTED, line)
    full = _CREDENTIALS.sub(lambda m: m["prefix"] + REDACTED, full)
    assert redact(line) == full
