"""scorekeeper.infra.mail: with no mail server the app says so and writes each mail to the log;
mails go out after the answer, so a slow or unreachable server costs the visitor nothing and
tells nobody who has an account; a refused mail is tried again, a lost one logged; reset mails
are limited per client and per address."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator

import pytest
from mail_server import SmtpServer, free_port

from scorekeeper import create_app
from scorekeeper.infra import mail as mail_module  # noqa

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


# Quick retries for the tests (the defaults pause 5, 10, 20 s).
RETRIES = {"MAIL_ATTEMPTS": 3, "MAIL_RETRY_SECONDS": 0.05}


@pytest.fixture
def own_server() -> Iterator[list[SmtpServer]]:
    """own_server(delay=..., refuse=...) starts an SMTP server of this test's own."""
    servers: list[SmtpServer] = []

    def start(**options: float) -> SmtpServer:
        servers.append(SmtpServer(**options).start())  # type: ignore[arg-type]
        return servers[-1]

    yield start  # type: ignore[misc]
    for server in servers:
        server.stop()


def test_an_unreachable_mail_server_is_logged_and_the_answer_stays_the_same(
    app_config, user_factory, caplog
):
    app = create_app(
        {**app_config, **RETRIES, "MAIL_SERVER": "127.0.0.1", "MAIL_PORT": free_port()}
    )
    client = app.test_client()
    user_factory("Ana", "ana@example.com")
    with caplog.at_level(logging.WARNING):
        answer = client.post(
            "/forgot-password", data={"email": "ana@example.com"}, follow_redirects=True
        )
        assert answer.status_code == 200
        assert "a link to choose a new password is on its way" in answer.get_data(as_text=True)
        assert mail_module.outbox(app).wait(10)
    assert "Could not send the reset_password mail (attempt 1 of 3" in caplog.text
    assert "Could not send the reset_password mail (3 attempts, the last:" in caplog.text
    assert "given up" in caplog.text


def answer_time(client, email: str) -> float:
    started = time.perf_counter()
    answer = client.post("/forgot-password", data={"email": email})
    elapsed = time.perf_counter() - started
    assert answer.status_code == 302 and answer.headers["Location"] == "/sign-in"
    return elapsed


def test_a_slow_mail_server_delays_no_answer_and_tells_nobody_who_has_an_account(
    app_config, user_factory, own_server
):
    """With a server that takes 2 s to take a mail, "Forgot your password?" answers an address
    with an account as quickly as one without (on main: 2 s against a few ms), and the mail
    still arrives."""
    server = own_server(delay=2.0)
    app = create_app({**app_config, **server.config})
    user_factory("Ana", "ana@example.com")
    client = app.test_client()
    assert client.get("/forgot-password").status_code == 200  # the page's first render
    known = answer_time(client, "ana@example.com")
    unknown = answer_time(client, "nobody@example.com")
    assert known < 1.0 and unknown < 1.0, (known, unknown)
    mail = server.mailbox.wait_for("ana@example.com")
    assert mail.subject == "Reset your Scorekeeper password"
    assert "/reset-password/" in mail.body
    assert mail_module.outbox(app).wait(10)
    assert server.mailbox.to("nobody@example.com") == []


def test_a_mail_the_server_turns_away_is_tried_again_and_arrives(
    app_config, user_factory, own_server, caplog
):
    server = own_server(refuse=2)  # "451 Busy" twice, then it takes the mail
    app = create_app({**app_config, **server.config, **RETRIES})
    user_factory("Ana", "ana@example.com")
    with caplog.at_level(logging.WARNING):
        answer = app.test_client().post("/forgot-password", data={"email": "ana@example.com"})
        assert answer.status_code == 302
        mail = server.mailbox.wait_for("ana@example.com")
        assert mail_module.outbox(app).wait(10)
    assert "/reset-password/" in mail.body
    assert len(server.mailbox.to("ana@example.com")) == 1
    assert "(attempt 1 of 3: (451" in caplog.text and "(attempt 2 of 3: (451" in caplog.text
    assert "given up" not in caplog.text


def test_a_full_outbox_refuses_a_mail_and_says_so(
    app_config, user_factory, sign_in, own_server, caplog
):
    """Past MAIL_OUTBOX_SIZE mails waiting, a mail is refused: logged, and the page that can
    say so (sending the confirmation link again) says it was not sent."""
    server = own_server(delay=1.0)
    app = create_app({**app_config, **server.config, "MAIL_OUTBOX_SIZE": 1})
    user_factory("Ana", "ana@example.com")
    ben = user_factory("Ben", "ben@example.com", verified=False)
    client = app.test_client()
    assert client.post("/forgot-password", data={"email": "ana@example.com"}).status_code == 302
    sign_in(client, ben.email, ben.password)
    with caplog.at_level(logging.ERROR):
        answer = client.post("/account/verify-email", follow_redirects=True)
    assert "The link could not be sent just now. Try again in a while." in answer.get_data(
        as_text=True
    )
    assert "Could not send the verify_email mail: the outbox is full" in caplog.text
    server.mailbox.wait_for("ana@example.com")
    assert mail_module.outbox(app).wait(10)
    assert server.mailbox.to("ben@example.com") == []


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
