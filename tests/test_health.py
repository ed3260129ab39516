"""scorekeeper.web.health: the load balancer's probe is answered before the app, with headers."""

from scorekeeper.web.security import HEADERS


def test_the_probe_answers_ok_with_the_apps_security_headers(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_data(as_text=True) == "ok"
    assert response.headers["Cache-Control"] == "no-store"
    for name, value in HEADERS.items():
        assert response.headers[name] == value
    assert "Set-Cookie" not in response.headers


def test_head_has_no_body_and_other_methods_reach_the_app(client):
    head = client.head("/healthz")
    assert head.status_code == 200 and head.data == b""
    assert client.post("/healthz").status_code in (400, 405)
    assert client.get("/healthz/more").status_code == 404
