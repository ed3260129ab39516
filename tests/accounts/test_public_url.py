"""Links in mails come from PUBLIC_URL, never from the Host header a request brings, and
requests for any other host are refused: a forged Host cannot send a genuine reset link to
someone else's server (issue 25, host poisoning)."""

from __future__ import annotations

import time

import pytest

from scorekeeper import create_app
from scorekeeper.config import InsecureConfig

PUBLIC = "https://scores.example.org"


@pytest.fixture
def app_config(app_config, smtp_server):
    return {**app_config, **smtp_server.config, "PUBLIC_URL": PUBLIC}


def test_a_forged_host_is_refused_and_no_mail_goes_out(client, user_factory, mailbox):
    user_factory("Owner", "owner@example.com")
    answer = client.post(
        "/forgot-password",
        data={"email": "owner@example.com"},
        headers={"Host": "evil.example"},
    )
    assert answer.status_code == 400
    assert "evil.example" not in answer.get_data(as_text=True)
    time.sleep(0.2)  # a mail sent by mistake would have arrived
    assert mailbox.to("owner@example.com") == []


def test_links_in_mails_are_built_from_the_public_url(app_config, user_factory, mailbox):
    # Even a host the app trusts (here the test client's own) does not go into a link.
    app = create_app({**app_config, "TRUSTED_HOSTS": ["scores.example.org", "localhost"]})
    user_factory("Owner", "owner@example.com")
    answer = app.test_client().post("/forgot-password", data={"email": "owner@example.com"})
    assert answer.status_code == 302
    link = mailbox.wait_for("owner@example.com").link("/reset-password/")
    assert link.startswith(f"{PUBLIC}/reset-password/")


def test_the_public_host_is_served(client):
    answer = client.get("/sign-in", headers={"Host": "scores.example.org"})
    assert answer.status_code == 200


def test_mail_without_a_public_url_refuses_to_start_outside_debug(app_config):
    config = {**app_config, "TESTING": False, "PUBLIC_URL": ""}
    with pytest.raises(InsecureConfig, match="PUBLIC_URL"):
        create_app({**config, "SECRET_KEY": "x" * 8 + "a-long-random-secret-key-9f3k"})


@pytest.mark.parametrize("url", ["scores.example.org", "ftp://scores.example.org", "https://"])
def test_a_public_url_that_is_not_one_is_refused(app_config, url):
    with pytest.raises(ValueError, match="PUBLIC_URL"):
        create_app({**app_config, "PUBLIC_URL": url})
