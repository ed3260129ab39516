"""The project's flask commands."""

import csv
import io
import json
import shutil
from datetime import timedelta

import pytest
from sqlalchemy import func, inspect, select
from werkzeug.security import check_password_hash

from scorekeeper import core, create_app
from scorekeeper.extensions import db
from scorekeeper.models import Club, Invite, Membership, RosterPlayer, User, utcnow
from scorekeeper.services import export_json
from scorekeeper.services import games as game_service
from tests.helpers import load_game


def test_init_db_upgrades_database(runner, app):
    result = runner.invoke(args=["init-db"])
    assert result.exit_code == 0, result.output
    assert "Database is up to date." in result.output
    with app.app_context():
        # Alembic records the head it reached, even before the first table exists.
        assert "alembic_version" in inspect(db.engine).get_table_names()


def test_init_db_help_comes_from_docstring(runner):
    result = runner.invoke(args=["init-db", "--help"])
    assert result.exit_code == 0
    assert "latest migration" in result.output


# Club export and import ----------------------------------------------------------------------


def make_club() -> int:
    """A small club: two members, a roster, a game with a penalty; returns its id."""
    owner = User(email="olga@example.org", name="Olga", password_hash="olga-secret-hash")
    scorer = User(email="sam@example.org", name="Sam", password_hash=None)
    club = Club(name="Café Trains", open_train_points=10)
    db.session.add_all([owner, scorer, club])
    db.session.flush()
    db.session.add_all(
        [
            Membership(club_id=club.id, user_id=owner.id, role="owner"),
            Membership(club_id=club.id, user_id=scorer.id, role="scorer"),
            Invite(club_id=club.id, created_by=owner.id, expires_at=utcnow() + timedelta(7)),
        ]
    )
    ana = RosterPlayer(club_id=club.id, display_name="Ana", user_id=owner.id)
    ben = RosterPlayer(club_id=club.id, display_name="Ben")
    db.session.add_all([ana, ben])
    db.session.commit()
    game = game_service.create_game(
        ["Ana", "Ben", "Gus"],
        core.GameRules(house_rules=core.HouseRules(open_train_points=10)),
        club_id=club.id,
        roster_ids=[ana.id, ben.id, None],
    )
    entry = core.RoundEntry(
        {"Ben": core.HandEntry(tiles=["6-4"]), "Gus": core.HandEntry(pips=3)},
        out="Ana",
        penalties=[core.PenaltyEntry("Gus", "open_train")],
    )
    assert game_service.record_round(load_game(game.id), entry).saved
    return club.id


@pytest.fixture
def club_id(app):
    with app.app_context():
        return make_club()


@pytest.fixture
def other_app(migrated_database, tmp_path):
    """A second, empty instance: where an exported club is imported."""
    path = tmp_path / "other.sqlite"
    shutil.copyfile(migrated_database, path)
    other = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"}
    )
    yield other
    with other.app_context():
        db.engine.dispose()


def test_export_club_writes_json_to_stdout(runner, app, club_id):
    result = runner.invoke(args=["export-club", str(club_id)])
    assert result.exit_code == 0, result.output
    with app.app_context():
        expected = export_json.export_club_json(club_id)
    assert result.output == export_json.dumps(expected)
    assert json.loads(result.output)["club"]["name"] == "Café Trains"
    assert "olga-secret-hash" not in result.output


def test_export_club_writes_csv_to_a_file(runner, club_id, tmp_path):
    out = tmp_path / "club.csv"
    result = runner.invoke(args=["export-club", str(club_id), "--format", "csv", "-o", str(out)])
    assert result.exit_code == 0, result.output
    data = out.read_bytes()
    assert data.startswith(
        b"club,game_id,game_date,night,table,season,game_type,round,engine,player,"
    )
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8"), newline="")))
    assert [(r["club"], r["player"], r["roster_name"], r["score"]) for r in rows] == [
        ("Café Trains", "Ana", "Ana", "0"),
        ("Café Trains", "Ben", "Ben", "10"),
        ("Café Trains", "Gus", "", "13"),
    ]
    assert rows[2]["penalty_detail"] == "open_train +10"
    assert data.count(b"\r\n") == 4  # RFC 4180 line ends, written as they are


def test_export_club_of_an_unknown_club_is_an_error(runner, tmp_path):
    out = tmp_path / "none.json"
    result = runner.invoke(args=["export-club", "42", "--output", str(out)])
    assert result.exit_code == 1
    assert "There is no club with id 42." in result.output
    assert not out.exists()


def test_export_club_refuses_an_unknown_format(runner, club_id):
    result = runner.invoke(args=["export-club", str(club_id), "--format", "xml"])
    assert result.exit_code == 2
    assert "'xml' is not one of 'json', 'csv'" in result.output


def test_club_round_trip_through_files(runner, app, club_id, other_app, tmp_path):
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    assert runner.invoke(args=["export-club", str(club_id), "-o", str(first)]).exit_code == 0

    other = other_app.test_cli_runner()
    result = other.invoke(args=["import-club", str(first)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "Imported club 1 (Café Trains): 2 members, 1 invite, 2 roster players, 0 seasons, "
        "0 club nights, 1 game, 1 round, 4 history entries.",
        "New accounts without a password (flask --app scorekeeper set-password EMAIL): "
        "olga@example.org, sam@example.org",
    ]
    assert other.invoke(args=["export-club", "1", "--output", str(second)]).exit_code == 0
    assert second.read_bytes() == first.read_bytes()

    again = other.invoke(args=["import-club", str(first)])
    assert again.exit_code == 1
    assert "already uses the club's public page token" in again.output
    assert "Nothing was imported." in again.output


def test_import_club_reads_standard_input(runner, app, club_id, other_app):
    with app.app_context():
        text = export_json.dumps(export_json.export_club_json(club_id))
    result = other_app.test_cli_runner().invoke(args=["import-club", "-"], input=text)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Imported club 1 (Café Trains)")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not json at all", "is not a JSON file"),
        (b"\xff\xfe junk", "is not a JSON file"),
        (b'{"format": "scorekeeper-club", "version": 9}', "Unsupported export version 9"),
        (b"[1, 2]", "Not a club export"),
        (b"[" * 100_000 + b"]" * 100_000, "more than 20 deep"),
        (b'{"format": "scorekeeper-club", "version": 1, "club": ' * 30 + b"{}" + b"}" * 30, "deep"),
    ],
)
def test_import_club_refuses_junk(runner, app, tmp_path, content, message):
    path = tmp_path / "junk.json"
    path.write_bytes(content)
    result = runner.invoke(args=["import-club", str(path)])
    assert result.exit_code == 1
    assert message in result.output
    with app.app_context():
        assert db.session.execute(select(func.count(Club.id))).scalar_one() == 0


def test_import_club_refuses_a_file_over_the_size_limit_unread(runner, app, club_id, tmp_path):
    path = tmp_path / "club.json"
    assert runner.invoke(args=["export-club", str(club_id), "-o", str(path)]).exit_code == 0
    app.config["IMPORT_MAX_BYTES"] = 100
    result = runner.invoke(args=["import-club", str(path)])
    assert result.exit_code == 1
    assert result.output == (
        f"Error: {path}: The file is larger than 100 bytes (IMPORT_MAX_BYTES): it is not a club "
        "export. Nothing was imported.\n"
    )


def test_import_club_refuses_a_score_the_rules_do_not_give(runner, app, club_id, other_app):
    with app.app_context():
        document = export_json.export_club_json(club_id)
    document["games"][0]["rounds"][0]["hands"][2]["pips"] = -5
    result = other_app.test_cli_runner().invoke(
        args=["import-club", "-"], input=export_json.dumps(document)
    )
    assert result.exit_code == 1
    assert "games[0].rounds[0].hands[2].pips (game 1, round 1, Gus): Gus: a hand" in result.output
    assert "Traceback" not in result.output
    with other_app.app_context():
        assert db.session.execute(select(func.count(Club.id))).scalar_one() == 0


@pytest.mark.parametrize(
    ("path", "value", "line"),
    [
        (
            ("games", 0, "rounds", 0, "hands", 0, "pips"),
            "12",
            "Error: games[0].rounds[0].hands[0].pips: expected a whole number",
        ),
        (("games", 0, "season"), 7, "Error: games[0].season: 7 is not a season ref"),
        (
            ("games", 0, "rounds", 0, "hands", 2, "score"),
            9999,
            "Error: games[0].rounds[0].hands[2].score (game 1, round 1, Gus): the file says "
            "9999 but the rules make it 13: the file was changed or damaged. Nothing was imported.",
        ),
    ],
    ids=["schema", "reference", "rules"],
)
def test_import_club_says_why_in_english(runner, app, club_id, other_app, path, value, line):
    """The operator's command prints the reason in the shell's language (English here), the
    place in the file first."""
    with app.app_context():
        document = export_json.export_club_json(club_id)
    target = document
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    result = other_app.test_cli_runner().invoke(
        args=["import-club", "-"], input=export_json.dumps(document)
    )
    assert result.exit_code == 1
    assert result.output == line + "\n"


def test_import_club_says_why_in_the_shell_language(app, club_id, other_app, monkeypatch):
    with app.app_context():
        document = export_json.export_club_json(club_id)
    document["games"][0]["rounds"][0]["hands"][2]["score"] = 9999
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    result = other_app.test_cli_runner().invoke(
        args=["import-club", "-"], input=export_json.dumps(document)
    )
    assert result.exit_code == 1
    assert result.output.startswith("Error: games[0].rounds[0].hands[2].score (")
    assert "9999" in result.output and "13" in result.output
    assert "Rien n’a été importé." in result.output
    assert "the file was changed" not in result.output


def test_import_club_of_a_missing_file_is_a_usage_error(runner, tmp_path):
    result = runner.invoke(args=["import-club", str(tmp_path / "nope.json")])
    assert result.exit_code == 2
    assert "No such file or directory" in result.output


def test_set_password_asks_twice_without_echo(runner, app, club_id):
    result = runner.invoke(
        args=["set-password", "sam@example.org"],
        input="first try!\nsecond try\nsam's password\nsam's password\n",
    )
    assert result.exit_code == 0, result.output
    assert "The two entered values do not match." in result.output
    assert "sam's password" not in result.output  # hidden input is not echoed
    assert "Password set for sam@example.org." in result.output
    with app.app_context():
        user = db.session.execute(select(User).where(User.email == "sam@example.org")).scalar_one()
        assert check_password_hash(user.password_hash, "sam's password")


def test_set_password_refuses_unknown_accounts_and_short_passwords(runner, app):
    result = runner.invoke(args=["set-password", "nobody@example.org"], input="long enough\n" * 2)
    assert result.exit_code == 1
    assert "There is no account with the email 'nobody@example.org'." in result.output
    with app.app_context():
        db.session.add(User(email="vic@example.org", name="Vic"))
        db.session.commit()
    result = runner.invoke(args=["set-password", "vic@example.org"], input="short\nshort\n")
    assert result.exit_code == 1
    assert "A password needs 10 to 500 characters." in result.output


@pytest.mark.parametrize(
    ("command", "words"),
    [
        ("export-club", "Export club CLUB_ID"),
        ("import-club", "Import a club from FILE"),
        ("set-password", "Set the password of the account EMAIL"),
    ],
)
def test_club_commands_help_comes_from_docstring(runner, command, words):
    result = runner.invoke(args=[command, "--help"])
    assert result.exit_code == 0
    assert words in result.output
