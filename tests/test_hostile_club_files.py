"""Hostile club files (issue 25): each is refused with its reason, by `flask import-club` and by
the web upload alike, and nothing is written."""

from __future__ import annotations

import http.client
import io
import json
import shutil
import urllib.parse

import pytest
from sqlalchemy import func, select

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.models import Club, Game, User, utcnow
from scorekeeper.services import accounts as account_service
from scorekeeper.services import export_json
from tests.conftest import PASSWORD
from tests.helpers import bench_module
from tests.services.club_data import build_club

PLACEHOLDER = 424242


def _edit(change):
    def apply(doc: dict) -> str:
        change(doc)
        return export_json.dumps(doc)

    return apply


def _set_owners_to_scorers(doc: dict) -> None:
    for member in doc["members"]:
        member["role"] = "scorer"


def _season_backwards(doc: dict) -> None:
    doc["seasons"][0]["starts_on"], doc["seasons"][0]["ends_on"] = "2025-06-01", "2025-05-31"


def _huge_number(doc: dict) -> str:
    doc["club"]["rules"]["open_train_points"] = PLACEHOLDER
    return export_json.dumps(doc).replace(str(PLACEHOLDER), "9" * 5000)


def _duplicated_key(doc: dict) -> str:
    return '{"format": "scorekeeper-club",\n' + export_json.dumps(doc)[1:]


def _lone_surrogate(place: str, escape: str):
    """The file with a lone surrogate (JSON's escape of half a UTF-16 pair, valid JSON text)
    written where `place` stands: in a value ("NAME") or in a key ("KEY")."""

    def apply(doc: dict) -> str:
        doc["roster"][0]["display_name"] = "NAME"
        if place == "KEY":
            doc["club"]["KEY"] = 1
        return export_json.dumps(doc).replace(f'"{place}"', f'"{escape}Ana"')

    return apply


HOSTILE = {
    "5000-digit number": (_huge_number, "a number of more than 20 digits"),
    "path as edit token": (
        _edit(lambda doc: doc["games"][0].update(edit_token="../../etc/passwd")),
        "games[0].edit_token: '../../etc/passwd' is not a link token",
    ),
    "one-letter edit token": (
        _edit(lambda doc: doc["games"][0].update(edit_token="a")),
        "games[0].edit_token: 'a' is not a link token",
    ),
    "no owner": (_edit(_set_owners_to_scorers), "no member is the club's owner"),
    "season ends before it starts": (
        _edit(_season_backwards),
        "seasons[0].ends_on: 2025-05-31 is before the season starts",
    ),
    "empty club name": (
        _edit(lambda doc: doc["club"].update(name="")),
        "club.name: '' is not a name (it cannot be empty)",
    ),
    "blank club name": (
        _edit(lambda doc: doc["club"].update(name="   ")),
        "club.name: '   ' is not a name (it cannot be empty)",
    ),
    "duplicated key": (_duplicated_key, "names 'format' twice in one object"),
    "lone surrogate in a name": (
        _lone_surrogate("NAME", "\\ud800"),
        "roster[0].display_name: holds \\ud800, half of a character (a lone surrogate)",
    ),
    "lone surrogate in a key": (
        _lone_surrogate("KEY", "\\udfff"),
        "club: unknown field \\udfffAna",
    ),
}


@pytest.fixture(scope="module")
def exported(tmp_path_factory, migrated_database) -> dict:
    """A real club's export, made once: every hostile file is one change to it."""
    path = tmp_path_factory.mktemp("hostile") / "source.sqlite"
    shutil.copyfile(migrated_database, path)
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"}
    )
    with app.app_context():
        document = json.loads(export_json.dumps(export_json.export_club_json(build_club())))
        db.engine.dispose()
    return document


def written(app) -> tuple[int, int, int]:
    with app.app_context():
        return tuple(
            db.session.execute(select(func.count()).select_from(model)).scalar_one()
            for model in (Club, Game, User)
        )


@pytest.mark.parametrize("name", HOSTILE)
def test_the_command_line_refuses_a_hostile_file_with_its_reason(
    app, runner, exported, tmp_path, name
):
    make, reason = HOSTILE[name]
    path = tmp_path / "club.json"
    path.write_text(make(json.loads(json.dumps(exported))))
    before = written(app)
    result = runner.invoke(args=["import-club", str(path)])
    assert result.exit_code == 1, result.output
    assert reason in result.output
    assert "Traceback" not in result.output
    assert written(app) == before


@pytest.mark.parametrize("name", HOSTILE)
def test_the_web_refuses_a_hostile_file_with_its_reason(
    app, client, user_factory, sign_in, exported, name
):
    account = user_factory("Uploader")
    sign_in(client, account.email, account.password)
    make, reason = HOSTILE[name]
    content = make(json.loads(json.dumps(exported))).encode()
    before = written(app)
    response = client.post("/clubs/import", data={"file": (io.BytesIO(content), "club.json")})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "This file was refused" in page
    assert reason.replace("'", "&#39;") in page
    assert written(app) == before


@pytest.mark.load
def test_an_upload_over_20_mb_gets_the_reason_not_a_closed_connection(tmp_path):
    """Under gunicorn, as `make run` serves: the browser is still sending a 21 MB file when the
    app refuses it; the app reads the rest, so the answer arrives instead of a reset."""
    load = bench_module("load")
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    environ = {
        **load.server_environ(load.ROOT, url, tmp_path),
        "SCOREKEEPER_WTF_CSRF_ENABLED": "false",
    }
    load.migrate(load.ROOT, environ)
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        user = account_service.create_user("Up", "up@example.com", PASSWORD)
        user.email_verified_at = utcnow()
        db.session.commit()
        db.engine.dispose()
    with load.gunicorn(
        str(load.ROOT), environ, workers=1, threads=2, log=tmp_path / "g.log"
    ) as base:
        host = base.removeprefix("http://")
        connection = http.client.HTTPConnection(host, timeout=30)
        credentials = urllib.parse.urlencode({"email": "up@example.com", "password": PASSWORD})
        form = {"Content-Type": "application/x-www-form-urlencoded"}
        connection.request("POST", "/sign-in", body=credentials, headers=form)
        signed = connection.getresponse()
        signed.read()
        connection.close()
        assert signed.status == 302
        cookies = "; ".join(c.split(";")[0] for c in signed.msg.get_all("Set-Cookie"))
        head = (
            b'--B\r\nContent-Disposition: form-data; name="file"; filename="club.json"\r\n'
            b"Content-Type: application/json\r\n\r\n"
        )
        tail, megabyte = b"\r\n--B--\r\n", b" " * (1 << 20)
        upload = http.client.HTTPConnection(host, timeout=30)
        upload.putrequest("POST", "/clubs/import")
        upload.putheader("Cookie", cookies)
        upload.putheader("Content-Type", "multipart/form-data; boundary=B")
        upload.putheader("Content-Length", str(len(head) + 21 * len(megabyte) + len(tail)))
        upload.endheaders()
        upload.send(head)
        for _ in range(21):
            upload.send(megabyte)
        upload.send(tail)
        answer = upload.getresponse()
        page = answer.read().decode()
        upload.close()
    assert answer.status == 413
    assert "The file is larger than 20,971,520 bytes: it is not a club export." in page
    assert written(app) == (0, 0, 1)
