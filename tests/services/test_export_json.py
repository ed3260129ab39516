"""The club as JSON: every row a club holds, by local references, and no credentials."""

import json
from datetime import datetime

import pytest

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import (
    Change,
    Club,
    ClubNight,
    Game,
    Hand,
    Invite,
    Membership,
    Penalty,
    Player,
    RosterPlayer,
    Round,
    Season,
    User,
)
from scorekeeper.services import export_json

from .club_data import API_HASH, DEVICE, HOUSE, OWNER_HASH


def test_two_exports_of_a_club_are_byte_identical(exported):
    document, _ = exported
    assert document["format"] == "scorekeeper-club"
    assert document["version"] == 1
    text = export_json.dumps(document)
    assert text == export_json.dumps(json.loads(text))
    assert text.endswith("}\n")


def test_export_holds_the_club_its_rules_and_link_tokens(exported, document):
    club = document["club"]
    assert club["name"] == "Thursday Trains ☕"
    assert club["public"] is True
    assert len(club["public_token"]) >= 20
    assert club["rules"] == {
        "set_size": 12,
        "blank_scoring": "face",
        "rounds": 6,
        "order": "descending",
        **core.house_rule_values(HOUSE),
        "late_rule": "average",
    }
    assert club["created_at"].endswith("Z")
    datetime.fromisoformat(club["created_at"])
    assert all(game["edit_token"] and game["view_token"] for game in document["games"])


def test_export_has_members_and_referenced_users_but_no_credentials(document):
    assert document["users"] == [
        {"email": "fern@example.org", "name": "Fern"},
        {"email": "olga@example.org", "name": "Olga"},
        {"email": "sam@example.org", "name": "Sam"},
        {"email": "vic@example.org", "name": "Vic"},
    ]
    assert [(m["user"], m["role"]) for m in document["members"]] == [
        ("olga@example.org", "owner"),
        ("sam@example.org", "scorer"),
        ("vic@example.org", "viewer"),
    ]
    text = export_json.dumps(document)
    for secret in (OWNER_HASH, "sam-hash", "fern-hash", API_HASH, DEVICE, "zed@example.org"):
        assert secret not in text
    assert "password" not in text
    # Devices appear as the history shows them, not as the cookie that identifies the browser.
    history = document["games"][0]["history"]
    assert {change["device"] for change in history} == {DEVICE[:6], "api"}
    assert document["games"][0]["created_by"] == DEVICE[:6]


def test_export_keeps_every_invite_with_its_state(document):
    invites = document["invites"]
    assert [(i["role"], i["created_by"]) for i in invites] == [
        ("scorer", "olga@example.org"),
        ("viewer", "fern@example.org"),
        ("viewer", None),
    ]
    assert invites[0]["revoked_at"] is None and invites[1]["revoked_at"] is not None
    assert invites[2]["expires_at"] < invites[2]["created_at"]  # expired, kept as it was


def test_roster_uses_local_references(document):
    roster = {entry["display_name"]: entry for entry in document["roster"]}
    assert [entry["ref"] for entry in document["roster"]] == [1, 2, 3, 4, 5]
    assert roster["Ana"]["user"] == "olga@example.org"
    assert roster["Eve"]["user"] == "fern@example.org"
    assert roster["Cleo"]["archived"] is True
    assert roster["Benny"]["merged_into"] == roster["Benjamin"]["ref"]
    players = document["games"][0]["players"]
    assert [(p["seat"], p["name"], p["roster"]) for p in players] == [
        (0, "Ana", roster["Ana"]["ref"]),
        (1, "Benny", roster["Benny"]["ref"]),
        (2, "Cleo", roster["Cleo"]["ref"]),
        (3, "Dan", None),
        (4, "Fay", None),
    ]


def test_games_keep_rounds_hands_penalties_and_history(document):
    house, teams, draw = document["games"]
    assert [r["number"] for r in house["rounds"]] == [1, 2, 3]  # round 4 was undone
    first, blocked, edited = house["rounds"]
    assert first["engine"] == 12 and first["out_seat"] == 3
    assert first["hands"][0]["tiles"] == "12-11 5-0"
    assert [(p["seat"], p["kind"], p["points"], p["reason"]) for p in first["penalties"]] == [
        (1, "open_train", 10, "left open"),
        (2, "strategic_error", 28, ""),
        (3, "adjustment", -5, "miscount"),
    ]
    assert blocked["blocked"] is True and blocked["out_seat"] is None
    assert edited["version"] == 2
    assert [c["action"] for c in house["history"]].count("undone") == 4
    assert any(c["action"] == "edited" and c["device"] == "api" for c in house["history"])
    # Created, 4 rounds, an edit, an undo, a late arrival, then filed under a season and a night:
    # every change is a new version.
    assert house["finished_at"] is None and house["version"] == 9
    assert teams["ended_early"] is True and teams["finished_at"] is not None
    assert [p["team"] for p in teams["players"]] == [1, 2, 1, 2]
    assert draw["rules"]["game_type"] == "draw"
    assert [r["engine"] for r in draw["rounds"]] == [None, None]
    assert (house["season"], house["club_night"], house["table_number"]) == (2, 1, 2)
    assert (teams["season"], teams["club_night"], teams["table_number"]) == (None, None, None)
    assert [p["joined_round"] for p in house["players"]] == [1, 1, 1, 1, 4]
    assert [h["late"] for h in house["rounds"][0]["hands"]] == [False, False, False, False, True]
    # Fay's missed rounds: the highest score of each (the rule she joined under).
    assert [r["hands"][4]["score"] for r in house["rounds"]] == [35, 14, 8]
    # Final figures of the finished (ended early) game, as the games service stored them.
    assert [(p["place"], p["total"], p["rounds_played"]) for p in teams["players"]] == [
        (p["place"], p["total"], 1) for p in teams["players"]
    ]
    assert all(p["place"] is not None for p in teams["players"])
    assert all(p["place"] is None for p in house["players"])


def test_seasons_and_club_nights_use_local_references(document):
    assert document["club"]["rules"]["late_rule"] == "average"
    assert [(s["ref"], s["name"], s["starts_on"]) for s in document["seasons"]] == [
        (1, "Summer", "2019-06-01"),
        (2, "Spring", "2019-03-01"),
    ]
    assert document["seasons"][0]["rules"] == {
        "set_size": None,
        "blank_scoring": "double_blank_50",
        "rounds": None,
    }
    assert document["seasons"][1]["method"] == "games_won"
    assert [(n["ref"], n["season"], n["name"]) for n in document["club_nights"]] == [
        (1, 2, ""),
        (2, None, "Picnic"),
    ]


HOUSE_RULES = {rule.name for rule in core.HOUSE_RULES}

# Every column of every table a club owns is exported, or left out on purpose. A new column
# fails this test until export_json.py (and docs/export.md) decide what to do with it.
COLUMNS = {
    Club: {"id"}
    | {"name", "created_at", "public", "public_token", "set_size", "blank_scoring", "rounds"}
    | {"order", "late_rule"}
    | HOUSE_RULES  # exported from the core's declaration (tests/test_house_rules.py)
    | {"locale"}  # the public pages' language: not exported yet (issue 12's report)
    | {"table_links"},  # not exported yet: an imported club has table links on (the default)
    User: {"id", "email", "name"}
    | {"password_hash", "session_version", "created_at"}  # credentials / this instance's
    | {"locale"}  # a person's own reading language, not the club's data
    | {"email_verified_at"},  # proven to this instance: an import proves it again
    Membership: {"id", "club_id", "user_id", "role", "joined_at"},
    Invite: {"id", "club_id", "token", "role", "created_by", "created_at", "expires_at"}
    | {"revoked_at"},
    RosterPlayer: {"id", "club_id", "display_name", "user_id", "archived", "merged_into_id"}
    | {"created_at"},
    Season: {"id", "club_id", "name", "starts_on", "ends_on", "method", "min_games"}
    | {"points_table", "set_size", "blank_scoring", "rounds", "created_at"},
    ClubNight: {"id", "club_id", "season_id", "name", "played_on", "created_at"},
    Game: {"id", "club_id", "created_at", "updated_at", "game_type", "set_size", "blank_scoring"}
    | {"start_double", "rounds", "order", "hand_size", "target"}
    | HOUSE_RULES
    | {"ended_early", "finished_at", "version", "edit_token"}
    | {"view_token", "created_by", "season_id", "club_night_id", "table_number"}
    | {"played_on", "played_at", "season_by_hand"}
    | {"table_token"},  # not exported yet: an imported game gets a table link of its own
    Player: {"id", "game_id", "seat", "name", "team", "roster_player_id", "joined_round"}
    | {"place", "place_shared", "total", "rounds_played", "zero_rounds", "left_after"},
    Round: {"id", "game_id", "number", "engine", "out_seat", "blocked", "created_at"}
    | {"updated_at", "version"},
    Hand: {"id", "round_id", "seat", "pips", "tiles", "penalty", "score", "went_out", "late"}
    | {"away"},
    Penalty: {"id", "round_id", "seat", "kind", "points", "reason"},
    Change: {"id", "game_id", "at", "action", "round_number", "player", "old_value"}
    | {"new_value", "device"},
}


@pytest.mark.parametrize("model", COLUMNS, ids=lambda model: model.__tablename__)
def test_every_column_of_club_data_is_accounted_for(model):
    assert {column.name for column in model.__table__.columns} == COLUMNS[model]


def test_every_table_that_points_at_a_club_or_game_is_accounted_for():
    """Tables left out on purpose: devices' game lists, accounts' tokens, sign-in attempts and
    sessions (this server's secrets), the keys of round writes (only this server's answer
    to a repeat), rate-limit counts (per client address, not a club's), the kept ratings (worked
    out from the games), and for now the club's history of deletions."""
    left_out = {"device_games", "api_tokens", "sign_in_attempts", "user_sessions", "round_writes"}
    left_out.add("rate_limit_counts")
    # A club's ratings as last replayed (derived from its games, which are exported; replayed
    # again on the importing server at its first view).
    left_out.add("kept_ratings")
    # Hands players sent for a round not yet saved: they count only once the scorer saves.
    left_out.add("sent_hands")
    # Not yet exported (docs/export.md): who deleted which season or night in the club.
    left_out.add("club_events")
    covered = {model.__tablename__ for model in COLUMNS}
    assert set(db.metadata.tables) - covered - left_out == set()


def test_export_of_an_unknown_club_is_a_lookup_error(app):
    with app.app_context(), pytest.raises(LookupError, match="no club with id 42"):
        export_json.export_club_json(42)
