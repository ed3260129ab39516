"""Club import: a new club in one transaction, every round through the rules, files read with
limits; anything wrong refuses the whole file and nothing is saved."""

import copy
import io
import json

import pytest
from sqlalchemy import func, select

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import ApiToken, Club, Membership, RosterPlayer, User
from scorekeeper.services import export_json, importer
from scorekeeper.services import games as game_service
from tests.helpers import import_club_json

from .club_data import counts, set_at


def test_round_trip_into_an_empty_instance_gives_the_same_club(app, document):
    with app.app_context():
        assert counts()["clubs"] == 0
        club = import_club_json(document)
        again = export_json.export_club_json(club.id)
    assert export_json.dumps(again) == export_json.dumps(document)


def test_round_trip_into_a_busy_instance_gives_the_same_club(app, document):
    """Database ids differ there; the document has none, so it is the same all the same."""
    with app.app_context():
        busy = Club(name="Already here")
        db.session.add(busy)
        db.session.add(User(email="SAM@example.org", name="Samuel", password_hash="kept"))
        db.session.commit()
        db.session.add(RosterPlayer(club_id=busy.id, display_name="Someone"))
        db.session.commit()
        game_service.create_game(["A", "B"], core.GameRules(), club_id=busy.id)
        club = import_club_json(document)
        assert club.id != 1
        again = export_json.export_club_json(club.id)
    # The existing account (found whatever the case of its email) keeps its own email and name.
    document["users"][2] = {"email": "SAM@example.org", "name": "Samuel"}
    document["members"][1]["user"] = "SAM@example.org"
    assert export_json.dumps(again) == export_json.dumps(document)


def test_import_creates_missing_accounts_without_a_password(app, document):
    with app.app_context():
        db.session.add(User(email="olga@example.org", name="Olga", password_hash="olga-own"))
        db.session.commit()
        report = importer.import_club(document)
        assert report.new_users == ["fern@example.org", "sam@example.org", "vic@example.org"]
        assert report.counts == {
            "members": 3,
            "invites": 3,
            "roster": 5,
            "seasons": 2,
            "club_nights": 2,
            "games": 3,
            "rounds": 6,
            "history": report.counts["history"],
        }
        users = {u.email: u for u in db.session.execute(select(User)).scalars()}
        assert users["olga@example.org"].password_hash == "olga-own"
        assert users["sam@example.org"].password_hash is None
        assert db.session.execute(select(func.count(ApiToken.id))).scalar_one() == 0
        roles = {
            m.user.email: m.role
            for m in db.session.execute(
                select(Membership).where(Membership.club_id == report.club.id)
            ).scalars()
        }
        assert roles == {
            "olga@example.org": "owner",
            "sam@example.org": "scorer",
            "vic@example.org": "viewer",
        }
        # Links people saved keep working: same tokens, scored the same.
        game = game_service.game_by_token(document["games"][0]["edit_token"], edit=True)
        assert game is not None and game.club_id == report.club.id
        state = game_service.state_of(game)
        assert state.rounds_played == 3


def test_import_stores_emails_as_accounts_look_them_up(app, document):
    document["users"][3]["email"] = " Vic@Example.org"
    document["members"][2]["user"] = "VIC@example.org"
    with app.app_context():
        report = importer.import_club(document)
        assert "vic@example.org" in report.new_users
        emails = db.session.execute(select(User.email).order_by(User.email)).scalars().all()
        assert emails == [
            "fern@example.org",
            "olga@example.org",
            "sam@example.org",
            "vic@example.org",
        ]


def test_importing_the_same_club_twice_is_refused_whole(app, document):
    with app.app_context():
        import_club_json(copy.deepcopy(document))
        before = counts()
        with pytest.raises(ValueError, match="already uses the club's public page token"):
            import_club_json(document)
        assert counts() == before


def test_a_token_taken_during_the_import_rolls_it_all_back(app, document, monkeypatch):
    with app.app_context():
        import_club_json(copy.deepcopy(document))
        before = counts()
        monkeypatch.setattr(importer, "_taken_tokens", lambda doc, owner: [])
        with pytest.raises(importer.ImportProblem, match="clashes"):
            import_club_json(document)
        assert counts() == before


def test_a_failure_halfway_leaves_nothing_behind(app, document, monkeypatch):
    real = importer._import_game
    calls = []

    def fail_on_second(*args):
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("disk full")
        return real(*args)

    monkeypatch.setattr(importer, "_import_game", fail_on_second)
    with app.app_context():
        before = counts()
        with pytest.raises(RuntimeError):
            import_club_json(document)
        assert counts() == before


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("games", 0, "players", 0, "roster"), 99, "games[0].players[0].roster: 99 is not a ref"),
        (("games", 0, "rounds", 0, "hands", 0, "pips"), "12", "pips: expected a whole number"),
    ],
)
def test_a_file_of_the_wrong_shape_is_refused_and_nothing_saved(
    app, document, path, value, message
):
    with app.app_context():
        before = counts()
        with pytest.raises(importer.ImportProblem) as raised:
            importer.import_club(set_at(path, value)(document))
        assert message in str(raised.value)
        assert counts() == before


# Every round through the rules --------------------------------------------------------------

HOUSE = ("games", 0)


def _two_out(doc):
    doc["games"][0]["rounds"][2]["hands"][1]["went_out"] = True  # Ana went out, and Benny?
    doc["games"][0]["rounds"][2]["hands"][1]["score"] = 0
    return doc


BROKEN = [
    (
        set_at((*HOUSE, "rounds", 1, "hands", 1, "pips"), -5),
        "games[0].rounds[1].hands[1].pips (game 1, round 2, Benny): "
        "Benny: a hand cannot be worth less than 0 (you entered -5).",
    ),
    (
        set_at((*HOUSE, "rounds", 1, "hands", 1, "score"), 99),
        "games[0].rounds[1].hands[1].score (game 1, round 2, Benny): the file says 99 but the "
        "rules make it 9: the file was changed or damaged. Nothing was imported.",
    ),
    (
        _two_out,
        "games[0].rounds[2].out_seat (game 1, round 3): "
        "Only one player can go out: Ana, Benny are all marked out.",
    ),
    (
        set_at((*HOUSE, "rounds", 0, "hands", 0, "pips"), 30),
        "games[0].rounds[0].hands[0].pips (game 1, round 1, Ana): the file says 30 but the "
        "rules make it 28",  # the tiles held say 28
    ),
    (
        set_at((*HOUSE, "rounds", 0, "hands", 1, "tiles"), "12-11"),
        "games[0].rounds[0].hands[1].tiles (game 1, round 1, Benny): "
        "12-11 cannot be in two hands: Ana and Benny.",
    ),
    (
        set_at((*HOUSE, "rounds", 0, "penalties", 1, "points"), 5),
        "games[0].rounds[0].penalties[1].points (game 1, round 1): the file says 5 but the "
        "rules make it 28",  # a strategic error costs the round's highest hand
    ),
    (
        set_at((*HOUSE, "rounds", 0, "hands", 4, "score"), 28),
        "games[0].rounds[0].hands[4].score (game 1, round 1, Fay): the file says 28 but the "
        "rules make it 35",  # Fay joined under the highest-score rule
    ),
    (
        set_at((*HOUSE, "rounds", 1, "engine"), 12),
        "games[0].rounds[1].engine (game 1, round 2): the file says 12 but the rules make it 11",
    ),
    (
        set_at((*HOUSE, "rounds", 2, "out_seat"), None),
        "games[0].rounds[2].out_seat (game 1, round 3): the file says null but the rules make "
        "it 0",  # Ana's hand says she went out
    ),
    (
        set_at(("games", 1, "ended_early"), False),
        "games[1].finished_at (game 2): the file says the game is finished, but by its rounds "
        "and rules it is not.",
    ),
    (
        set_at(("games", 2, "players", 2, "name"), "Ana"),
        "games[2] (game 3): Ana is in the list twice",
    ),
]


@pytest.mark.parametrize(("spoil", "message"), BROKEN, ids=[m[:50] for _, m in BROKEN])
def test_a_round_that_breaks_the_rules_refuses_the_file_and_saves_nothing(
    app, document, spoil, message
):
    with app.app_context():
        before = counts()
        with pytest.raises(importer.ImportProblem) as raised:
            importer.import_club(spoil(document))
        assert message in str(raised.value)
        assert counts() == before
        assert db.session.execute(select(func.count(Club.id))).scalar_one() == 0


def test_an_unlikely_hand_confirmed_when_saved_is_imported(app, document):
    """A hand worth more than the best tiles of a hand is a warning: it was confirmed."""
    document["games"][0]["rounds"][1]["hands"][2].update(pips=140, score=140)
    document["games"][0]["rounds"][1]["hands"][4]["score"] = 140  # Fay: the highest
    with app.app_context():
        club = import_club_json(document)
        game = game_service.game_by_token(document["games"][0]["edit_token"], edit=True)
        assert game.club_id == club.id
        assert game.round_rows[1].hands[2].score == 140


def test_final_figures_are_the_cores_standings_not_the_files(app, document):
    teams = document["games"][1]
    real = copy.deepcopy(teams["players"])
    for player in teams["players"]:
        player.update(place=9, total=999, zero_rounds=7)
    with app.app_context():
        club = import_club_json(document)
        again = export_json.export_club_json(club.id)
    assert again["games"][1]["players"] == real


# Reading the file ------------------------------------------------------------------------------


def test_a_file_larger_than_the_limit_is_refused_unread(app, document):
    app.config["IMPORT_MAX_BYTES"] = 1000
    text = export_json.dumps(document).encode()
    with app.app_context(), pytest.raises(importer.ImportProblem, match="larger than 1,000 bytes"):
        importer.read_document(io.BytesIO(text))
    app.config["IMPORT_MAX_BYTES"] = len(text)
    with app.app_context():
        assert importer.read_document(io.BytesIO(text)) == document


def test_a_deeply_nested_file_is_refused_before_it_is_parsed(app):
    deep = b"[" * 100_000 + b"]" * 100_000
    with app.app_context(), pytest.raises(importer.ImportProblem, match="more than 20 deep"):
        importer.read_document(deep)
    # Brackets inside strings (escaped quotes too) are text, not nesting.
    text = b'{"a": "\\"' + b"[" * 30 + b'\\\\", "b": [[1]]}'
    with app.app_context():
        assert importer.read_document(text) == {"a": '"' + "[" * 30 + "\\", "b": [[1]]}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe junk", "not UTF-8"),
        (b"{", "This is not a JSON file"),
        (b'"unterminated [[[', "This is not a JSON file"),
    ],
)
def test_a_file_that_is_not_json_is_refused(app, content, message):
    with app.app_context(), pytest.raises(importer.ImportProblem, match=message):
        importer.read_document(content)


def test_a_file_with_a_byte_order_mark_is_read(app, document):
    text = b"\xef\xbb\xbf" + json.dumps(document).encode()
    with app.app_context():
        assert importer.read_document(text) == document


def test_a_file_from_before_games_carried_their_day_is_dated_by_its_nights(app, document):
    """Files exported before played_on existed: a night's table gets the night's day, another
    game the day it was created; none counts as moved by hand."""
    from datetime import date, datetime

    from scorekeeper.models import Game

    old = copy.deepcopy(document)
    for game in old["games"]:
        for key in ("played_on", "played_at", "season_by_hand"):
            del game[key]
    nights = {night["ref"]: night["played_on"] for night in old["club_nights"]}
    expected = [
        nights[game["club_night"]] if game["club_night"] else game["created_at"][:10]
        for game in old["games"]
    ]
    with app.app_context():
        club = import_club_json(old)
        games = db.session.scalars(select(Game).where(Game.club_id == club.id).order_by(Game.id))
        got = [(g.played_on, g.season_by_hand) for g in games]
    assert got == [(date.fromisoformat(day), False) for day in expected]
    assert any(game["club_night"] for game in old["games"])
    assert datetime.fromisoformat(document["games"][0]["created_at"])


def test_the_club_language_travels_with_the_file(app, document):
    """The club's default language for its public and print pages is in the export and comes
    back on import."""
    document["club"]["locale"] = "hi"
    with app.app_context():
        club = import_club_json(document)
        assert club.locale == "hi"
        assert export_json.export_club_json(club.id)["club"]["locale"] == "hi"


def test_a_file_from_before_clubs_had_a_language_imports_with_none(app, document):
    del document["club"]["locale"]
    with app.app_context():
        assert import_club_json(document).locale is None


def test_a_club_language_this_server_does_not_speak_is_refused(app, document):
    document["club"]["locale"] = "de"
    with app.app_context(), pytest.raises(importer.ImportProblem) as refused:
        importer.import_club(document)
    assert str(refused.value).startswith("club.locale:")
    with app.app_context():
        assert counts()["clubs"] == 0
