"""Security headers on every kind of response, and the trusted-proxy setting."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

import pytest
from flask import request

from scorekeeper import create_app
from scorekeeper.services import accounts as account_service
from scorekeeper.services.games.unit import Busy
from scorekeeper.web.responses import SVG_POLICY
from scorekeeper.web.security import CONTENT_SECURITY_POLICY, HEADERS, trusted_proxies

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
API = "/api/v1"


@pytest.fixture
def game(client) -> dict:
    """A quick game with one round, made through the API (its tokens and id)."""
    created = client.post(f"{API}/games", json={"players": ["Ana", "Ben", "Cy"]}).get_json()
    recorded = client.post(
        f"{API}/games/{created['id']}/rounds",
        json={"out": "Ana", "scores": {"Ben": 15, "Cy": 4}},
        headers={"Authorization": f"Bearer {created['edit_token']}"},
    )
    assert recorded.status_code == 201
    return created


STYLE = re.compile(r"<style>(.*?)</style>", re.S)


def page_policy(response) -> str:
    """The policy a page must carry: the fixed one, plus each of its <style> elements by hash."""
    if response.mimetype != "text/html":
        return CONTENT_SECURITY_POLICY
    hashes = [
        "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"
        for text in STYLE.findall(response.get_data(as_text=True))
    ]
    return CONTENT_SECURITY_POLICY.replace(
        "style-src 'self'", " ".join(["style-src 'self'", *hashes])
    )


def assert_hardened(response, policy: str | None = None, name: str = "") -> None:
    headers = response.headers
    policy = policy or page_policy(response)
    assert headers.get("Content-Security-Policy") == policy, name
    assert headers.get("X-Frame-Options") == "DENY", name
    assert headers.get("X-Content-Type-Options") == "nosniff", name
    assert headers.get("Referrer-Policy") == "no-referrer", name
    assert "Strict-Transport-Security" not in headers, name


def test_every_kind_of_page_carries_the_headers(client, game):
    view = game["view_token"]
    pages = {
        "HTML page": client.get("/"),
        "share page": client.get(f"/s/{view}"),
        "API JSON": client.get(
            f"{API}/games/{game['id']}", headers={"Authorization": f"Bearer {view}"}
        ),
        "static file": client.get("/static/css/app.css"),
        "404": client.get("/no-such-page"),
        "API 404": client.get(f"{API}/no-such-thing"),
        "redirect": client.post(f"/e/{game['edit_token']}"),
    }
    statuses = {name: response.status_code for name, response in pages.items()}
    assert statuses == {
        "HTML page": 200,
        "share page": 200,
        "API JSON": 200,
        "static file": 200,
        "404": 404,
        "API 404": 404,
        "redirect": 302,
    }
    for name, response in pages.items():
        assert_hardened(response, name=name)
        response.close()


def test_error_answers_carry_the_headers(app, app_config):
    """Refusals and failures too: too many requests (429), a crash (500), a busy database
    (503), each as a page and as an API answer (`app`: the migrated database, shared)."""
    app = create_app(
        {
            **app_config,
            "PROPAGATE_EXCEPTIONS": False,  # a crash reaches the 500 handler, as in production
            "RATELIMIT_ENABLED": True,
            "LIMIT_NEW_GAMES": "1 per minute",
        }
    )

    @app.get("/_crash")
    @app.get(f"{API}/_crash")
    def crash():
        raise RuntimeError("boom")

    @app.get("/_busy")
    @app.get(f"{API}/_busy")
    def busy():
        raise Busy()

    client = app.test_client()
    form = {"players-0": "Ana", "players-1": "Ben", "game_type": "mexican_train"}
    assert client.post(f"{API}/games", json={"players": ["Ana", "Ben"]}).status_code == 201
    pages = {
        "page 429": client.post("/games/new", data=form),
        "API 429": client.post(f"{API}/games", json={"players": ["Ana", "Ben"]}),
        "page 500": client.get("/_crash"),
        "API 500": client.get(f"{API}/_crash", headers={"Accept": "application/json"}),
        "page 503": client.get("/_busy"),
        "API 503": client.get(f"{API}/_busy", headers={"Accept": "application/json"}),
    }
    statuses = {name: response.status_code for name, response in pages.items()}
    assert statuses == {name: int(name[-3:]) for name in pages}
    # The API's answers are JSON, the pages HTML (each went through its own error handler).
    kinds = {name: response.mimetype for name, response in pages.items()}
    assert kinds == {
        name: "application/json" if name.startswith("API") else "text/html" for name in pages
    }
    for name, response in pages.items():
        assert_hardened(response, name=name)


@pytest.mark.parametrize(
    "path",
    ["/s/{token}/chart/race.svg", "/s/{token}/chart/rounds.svg", "/s/{token}/qr.svg"],
)
def test_svg_images_keep_their_stricter_policy(client, game, path):
    response = client.get(path.format(token=game["view_token"]))
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert_hardened(response, policy=SVG_POLICY)
    # No CSS at all, so the policy allows none ('unsafe-inline' would let injected CSS in).
    assert "unsafe-inline" not in SVG_POLICY and "style-src" not in SVG_POLICY
    svg = response.get_data(as_text=True)
    assert "<style" not in svg and " style=" not in svg


def test_a_page_s_own_styles_are_allowed_by_their_hash_and_nothing_else(client, game):
    page = client.get(f"/s/{game['view_token']}")
    styles = STYLE.findall(page.get_data(as_text=True))
    # The first screen's CSS is in the page: app.css (the header...) and sheet.css (the sheet).
    assert len(styles) == 2 and ".site-header" in styles[0] and ".score-table" in styles[1]
    policy = page.headers["Content-Security-Policy"]
    style_src = next(part for part in policy.split("; ") if part.startswith("style-src"))
    digests = [
        base64.b64encode(hashlib.sha256(style.encode()).digest()).decode() for style in styles
    ]
    assert style_src == "style-src 'self' " + " ".join(f"'sha256-{d}'" for d in digests)
    assert "unsafe-inline" not in policy
    # Answers without inline styles keep the fixed policy.
    assert client.get("/manifest.webmanifest").headers["Content-Security-Policy"] == (
        CONTENT_SECURITY_POLICY
    )


def test_the_policy_allows_no_inline_code_or_framing():
    assert "unsafe-inline" not in CONTENT_SECURITY_POLICY
    assert "unsafe-eval" not in CONTENT_SECURITY_POLICY
    assert "frame-ancestors 'none'" in CONTENT_SECURITY_POLICY
    assert "script-src 'self'" in CONTENT_SECURITY_POLICY


def test_templates_hold_no_inline_script_or_style():
    """The policy forbids inline code: a template that adds some would break in browsers (the
    pages' own stylesheets come from scorekeeper/web/styles.py, allowed by their hashes)."""
    inline = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>|<style\b|\sstyle=|\son[a-z]+=", re.I)
    found = [
        f"{path.relative_to(TEMPLATES)}: {match.group(0)}"
        for path in TEMPLATES.rglob("*.html")
        for match in inline.finditer(path.read_text())
    ]
    assert found == []


def test_hsts_only_with_secure_cookies(app, app_config):
    secure = create_app({**app_config, "SECURE_COOKIES": True}).test_client().get("/")
    assert secure.status_code == 200
    assert secure.headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"


# The trusted-proxy setting -------------------------------------------------------------------


def remote_addr_app(app_config, **config):
    app = create_app({**app_config, **config})

    @app.get("/_whoami")
    def whoami():
        return f"{request.remote_addr} {request.scheme} {request.host}"

    return app


FORWARDED = {
    "X-Forwarded-For": "198.51.100.23",
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "scores.example",
}


def test_with_one_trusted_proxy_the_forwarded_client_is_seen(app_config):
    client = remote_addr_app(app_config, TRUSTED_PROXIES=1).test_client()
    answer = client.get("/_whoami", headers=FORWARDED, environ_base={"REMOTE_ADDR": "10.0.0.2"})
    assert answer.get_data(as_text=True) == "198.51.100.23 https scores.example"


def test_one_proxy_trusts_only_the_last_hop(app_config):
    """A client may put anything in X-Forwarded-For; the proxy appends the address it saw."""
    client = remote_addr_app(app_config, TRUSTED_PROXIES=1).test_client()
    headers = {**FORWARDED, "X-Forwarded-For": "1.2.3.4, 198.51.100.23"}
    answer = client.get("/_whoami", headers=headers)
    assert answer.get_data(as_text=True).split()[0] == "198.51.100.23"


def test_without_trusted_proxies_forwarded_headers_are_ignored(app_config):
    client = remote_addr_app(app_config).test_client()
    answer = client.get("/_whoami", headers=FORWARDED, environ_base={"REMOTE_ADDR": "10.0.0.2"})
    assert answer.get_data(as_text=True) == "10.0.0.2 http localhost"


def test_the_setting_comes_from_the_environment(app_config, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_TRUSTED_PROXIES", "2")
    assert create_app(app_config).config["TRUSTED_PROXIES"] == 2


@pytest.mark.parametrize("value", [-1, "many", 1.5, True])
def test_a_nonsense_proxy_count_is_refused(app_config, value):
    with pytest.raises(ValueError, match="TRUSTED_PROXIES"):
        create_app({**app_config, "TRUSTED_PROXIES": value})


def test_sign_in_throttle_sees_clients_through_the_proxy(app, app_config):
    """Behind one proxy, a guesser's address is throttled and another user's is not."""
    app = create_app({**app_config, "TRUSTED_PROXIES": 1})
    with app.app_context():
        account_service.create_user("Ana", "ana@example.com", "correct horse battery staple")
    proxy = {"REMOTE_ADDR": "10.0.0.2"}
    guesser = app.test_client()
    for _ in range(5):
        guesser.post(
            "/sign-in",
            data={"email": "ana@example.com", "password": "nope nope"},
            headers={"X-Forwarded-For": "203.0.113.66"},
            environ_base=proxy,
        )
    data = {"email": "ana@example.com", "password": "correct horse battery staple"}
    refused = guesser.post(
        "/sign-in", data=data, headers={"X-Forwarded-For": "203.0.113.66"}, environ_base=proxy
    )
    assert refused.status_code == 429
    owner = app.test_client().post(
        "/sign-in", data=data, headers={"X-Forwarded-For": "192.0.2.10"}, environ_base=proxy
    )
    assert owner.status_code == 302


def test_trusted_proxies_defaults_to_none(app):
    assert trusted_proxies(app) == 0


def test_the_nginx_example_adds_every_security_header_gunicorn_s_own_errors_lack():
    """gunicorn answers 400/414/431 itself, without the app's headers: docs/deploy.md's proxy
    adds each one the answer lacks."""
    deploy = (Path(__file__).resolve().parents[1] / "docs" / "deploy.md").read_text()
    for name in [*HEADERS, "Strict-Transport-Security"]:
        if name == "Cross-Origin-Opener-Policy":
            continue  # only matters for pages, which the app always answers itself
        variable = name.lower().replace("-", "_")
        assert f"map $upstream_http_{variable} " in deploy, name
        assert re.search(rf"add_header {name} \$sk_\w+ always;", deploy), name


def test_a_304_keeps_the_page_s_own_policy(client, game):
    """A browser keeps a 304's headers with the page it already has: a policy sent with the 304
    (worked out without the page, so without its stylesheets' hashes) would replace the page's
    and block its styles, and the page would show unstyled on every repeat visit. The 304 of a
    page, of its kept answer and of a live poll sends none; the other headers stay."""
    share = f"/s/{game['view_token']}"
    first = client.get(share)
    assert "'sha256-" in first.headers["Content-Security-Policy"]
    for path in (share, f"{share}/live"):
        tag = client.get(path).headers["ETag"]
        for _ in range(2):  # the view's 304, then the kept answer's (answered before Flask)
            again = client.get(path, headers={"If-None-Match": tag})
            assert again.status_code == 304, path
            assert "Content-Security-Policy" not in again.headers, path
            assert again.headers["X-Content-Type-Options"] == "nosniff", path
