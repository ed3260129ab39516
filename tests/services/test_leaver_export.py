"""A game with players who left (RULES.md section 11) through the club export and import:
JSON round trip without loss, the CSV's away column, the rules checked on import."""

from __future__ import annotations

import csv
import io
import json

import pytest

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Club, Membership, User
from scorekeeper.services import export_csv, export_json, importer
from tests.helpers import import_club_json, load_game

from .club_data import OWNER_HASH, hands, record, source_instance


def _build() -> int:
    """A club with one game: example 11.1 with a return (Cy left after round 1, missed round
    2, came back for round 3), Ben left after round 3 and is still away; and a draw game Ana
    left after hand 1."""
    from scorekeeper.services import games as game_service

    owner = User(email="olive@example.org", name="Olive", password_hash=OWNER_HASH)
    club = Club(name="Leavers", late_rule="average")
    db.session.add_all([owner, club])
    db.session.flush()
    db.session.add(Membership(club_id=club.id, user_id=owner.id, role="owner"))
    db.session.commit()
    game = game_service.create_game(["Ana", "Ben", "Cy"], core.GameRules(rounds=4), club_id=club.id)
    game = record(load_game(game.id), core.RoundEntry(hands(Ben=20, Cy=15), out="Ana"))
    game_service.leave(game, "Cy")
    game = record(load_game(game.id), core.RoundEntry(hands(Ben=12), out="Ana"))
    game_service.come_back(game, "Cy")
    game = record(load_game(game.id), core.RoundEntry(hands(Ana=30, Cy=4), out="Ben"))
    game_service.leave(game, "Ben")
    draw = game_service.create_game(
        ["Ana", "Ben", "Cy"], core.GameRules(game_type=core.GameType.DRAW), club_id=club.id
    )
    draw = record(load_game(draw.id), core.RoundEntry(hands(Ben=10, Cy=4), out="Ana"))
    game_service.leave(draw, "Ana")
    record(load_game(draw.id), core.RoundEntry(hands(Cy=3), out="Ben"))
    return club.id


@pytest.fixture(scope="module")
def leavers_export(migrated_database, tmp_path_factory):
    """(JSON export, CSV export) of _build(), made on an instance of its own."""
    with source_instance(migrated_database, tmp_path_factory.mktemp("leavers")):
        club_id = _build()
        document = export_json.export_club_json(club_id)
        table = export_csv.export_club_csv(club_id)
    return document, table


@pytest.fixture
def document(leavers_export):
    return json.loads(export_json.dumps(leavers_export[0]))


def _game(document, game_type):
    return next(g for g in document["games"] if g["rules"]["game_type"] == game_type)


def test_the_export_says_who_left_and_which_rounds_they_missed(document):
    game = _game(document, "mexican_train")
    assert [(p["name"], p["left_after"]) for p in game["players"]] == [
        ("Ana", None),
        ("Ben", 3),
        ("Cy", None),
    ]
    assert [[h["away"] for h in r["hands"]] for r in game["rounds"]] == [
        [False, False, False],
        [False, False, True],
        [False, False, False],
    ]
    assert game["rounds"][1]["hands"][2]["score"] == 12
    actions = [(c["action"], c["round_number"], c["player"]) for c in game["history"]]
    assert ("left", 1, "Cy") in actions and ("came back", 3, "Cy") in actions


def test_round_trip_into_an_empty_instance_keeps_the_leavers(app, document):
    with app.app_context():
        club = import_club_json(document)
        again = export_json.export_club_json(club.id)
    assert export_json.dumps(again) == export_json.dumps(document)


def test_an_away_hand_that_is_not_the_rounds_highest_refuses_the_file(app, document):
    _game(document, "mexican_train")["rounds"][1]["hands"][2]["score"] = 5
    with app.app_context(), pytest.raises(importer.ImportProblem) as raised:
        importer.import_club(document)
    assert "round 2, Cy): the file says 5 but the rules make it 12" in str(raised.value)


def test_the_draw_game_leaver_is_ranked_last_after_the_import(app, document):
    with app.app_context():
        import_club_json(document)
        from scorekeeper.services import games as game_service

        token = _game(document, "draw")["edit_token"]
        game = game_service.game_by_token(token, edit=True)
        assert [(p.name, p.place) for p in game.players] == [
            ("Ana", None),
            ("Ben", None),
            ("Cy", None),
        ]
        state = game_service.snapshot_of(game).state
        assert [(line.name, line.place, line.left_after) for line in state.standings] == [
            ("Ben", 1, None),
            ("Cy", 2, None),
            ("Ana", 3, 1),
        ]


def test_a_file_from_before_players_could_leave_imports(app, exported):
    """The shared club (services/club_data.py: late arrivals, teams, a draw game) as a file
    written before left_after and away existed."""
    older = json.loads(export_json.dumps(exported[0]))
    for game in older["games"]:
        for player in game["players"]:
            player.pop("left_after")
        for row in game["rounds"]:
            for hand in row["hands"]:
                hand.pop("away")
    with app.app_context():
        club = import_club_json(older)
        again = export_json.export_club_json(club.id)
    assert export_json.dumps(again) == export_json.dumps(exported[0])


def test_the_csv_marks_the_rounds_missed_after_leaving(leavers_export):
    rows = list(csv.DictReader(io.StringIO(leavers_export[1])))
    away = [
        (r["game_type"], r["round"], r["player"], r["score"]) for r in rows if r["away"] == "yes"
    ]
    assert away == [("mexican_train", "2", "Cy", "12"), ("draw", "2", "Ana", "0")]
