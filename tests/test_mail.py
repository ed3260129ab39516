"""scorekeeper.infra.mail: with no mail server the app says so and writes each mail to the log; an
unreachable server costs the visitor nothing but the mail; reset mails are limited per client
and per address."""

from __future__ import annotations

import logging

import pytest
from mail_server import free_port

from scorekeeper import create_app

ME, OTHER = "203.0.113.7", "198.51.100.9"


def from_(address: str) -> dict[str, object]:
    return {"environ_base": {"REMOTE_ADDR": address}}


def test_without_a_mail_server_the_app_says_so_and_logs_each_mail(
    app_config, user_factory, client, caplog
):
    with caplog.at_level(logging.WARNING, logger="scorekeeper.mail"):
        create_app(app_config)
    assert "No mail server is set (SCOREKEEPER_MAIL_SERVER)" in caplog.text
    caplog.clear()
    user_factory("Ana", "ana@example.com")
    with caplog.at_level(logging.WARNING, logger="scorekeeper.mail"):
        answer = client.post("/forgot-password", data={"email": "ana@example.com"})
    assert answer.status_code == 302
    assert "this mail was not sent" in caplog.text
    assert "To: ana@example.com" in caplog.text
    # The link itself, whole: the log is how an admin without a mail server gets it.
    assert "http://localhost/reset-password/" in caplog.text
    assert "[redacted]" not in caplog.text


def test_an_unreachable_mail_server_is_logged_and_the_answer_stays_the_same(
    app_config, user_factory, caplog
):
    app = create_app({**app_config, "MAIL_SERVER": "127.0.0.1", "MAIL_PORT": free_port()})
    client = app.test_client()
    user_factory("Ana", "ana@example.com")
    with caplog.at_level(logging.ERROR):
        answer = client.post(
            "/forgot-password", data={"email": "ana@example.com"}, follow_redirects=True
        )
    assert answer.status_code == 200
    assert "a link to choose a new password is on its way" in answer.get_data(as_text=True)
    assert "Could not send the reset_password mail" in caplog.text


@pytest.fixture
def limited(app_config, smtp_server):
    return {
        **app_config,
        **smtp_server.config,
        "RATELIMIT_ENABLED": True,
        "LIMIT_MAIL_REQUESTS": "4 per minute",
        "LIMIT_MAILS_PER_ADDRESS": "2 per hour",
    }


def test_reset_requests_are_limited_per_client(limited, app, user_factory, mailbox):
    client = create_app(limited).test_client()
    for _ in range(4):
        answer = client.post("/forgot-password", data={"email": "x@example.com"}, **from_(ME))
        assert answer.status_code == 302
    refused = client.post("/forgot-password", data={"email": "x@example.com"}, **from_(ME))
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert client.get("/forgot-password", **from_(ME)).status_code == 200
    other = client.post("/forgot-password", data={"email": "x@example.com"}, **from_(OTHER))
    assert other.status_code == 302


def test_at_most_so_many_reset_mails_go_to_one_address_whoever_asks(
    limited, app, user_factory, mailbox
):
    user_factory("Ana", "ana@example.com")
    client = create_app(limited).test_client()
    answers = [
        client.post(
            "/forgot-password", data={"email": "ana@example.com"}, **from_(f"203.0.113.{n}")
        )
        for n in range(4)
    ]
    assert [answer.status_code for answer in answers] == [302] * 4
    mailbox.wait_for("ana@example.com", 2)
    assert len(mailbox.to("ana@example.com")) == 2


def test_outside_debug_no_live_link_is_logged_and_owners_are_warned(
    app, app_config, user_factory, sign_in, caplog
):
    """A server without a mail server: the log never holds a live token, and every page tells
    a club's owner that no mail goes out (members who own nothing are not bothered)."""
    from scorekeeper.extensions import db
    from scorekeeper.models import User
    from scorekeeper.services import clubs as club_service

    server = create_app({**app_config, "TESTING": False, "SECRET_KEY": "Tz4q-Hv9wLp2Xk7RmB3nYc8Fd"})
    owner, member = user_factory("Owner", "owner@example.com"), user_factory("Mo")
    with app.app_context():
        club_service.create_club(db.session.get(User, owner.id), "Thursday Trains")
    client = server.test_client()
    with caplog.at_level(logging.WARNING, logger="scorekeeper.mail"):
        assert client.post("/forgot-password", data={"email": owner.email}).status_code == 302
    assert "this mail was not sent" in caplog.text and "To: owner@example.com" in caplog.text
    assert "/reset-password/[redacted]" in caplog.text
    token = caplog.text.split("/reset-password/")[1].split()[0]
    assert token == "[redacted]"
    warning = "This server sends no mail"
    sign_in(client, owner.email, owner.password)
    for path in ("/", "/clubs", "/account"):
        assert warning in client.get(path).get_data(as_text=True), path
    other = server.test_client()
    sign_in(other, member.email, member.password)
    assert warning not in other.get("/").get_data(as_text=True)
