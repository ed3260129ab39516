"""The club document's schema and the checks it cannot say: each refusal names the place in
the file and what is wrong there, in plain words."""

from datetime import date, datetime

import pytest
from jsonschema import Draft202012Validator

from scorekeeper.services import import_schema

from .club_data import set_at


def _drop(key):
    def change(doc):
        del doc[key]
        return doc

    return change


HAND = ("games", 0, "rounds", 0, "hands", 0)
JUNK = [
    (lambda doc: [doc], "expected a JSON object"),
    (lambda doc: "hello", "expected a JSON object"),
    (set_at(("format",), "ihatemoney"), "format should be 'scorekeeper-club'"),
    (set_at(("version",), 2), "Unsupported export version 2"),
    (set_at(("version",), "1"), "Unsupported export version '1'"),
    (_drop("games"), "missing games"),
    (set_at(("club", "colour"), "red"), "club: unknown field colour"),
    (set_at((*HAND, "pips"), "12"), "games[0].rounds[0].hands[0].pips: expected a whole number"),
    (set_at((*HAND, "pips"), True), "hands[0].pips: expected a whole number"),
    (set_at((*HAND, "pips"), 2**40), "is out of range"),
    (set_at((*HAND, "pips"), 12.0), "hands[0].pips: expected a whole number"),
    (set_at((*HAND, "tiles"), 5), "hands[0].tiles: expected text or null"),
    (set_at(("version",), True), "Unsupported export version True"),
    (set_at(("games", 0, "finished_at"), "soon"), "finished_at: 'soon' is not an ISO 8601"),
    (set_at(("invites", 0, "created_by"), 5), "created_by: expected text or null"),
    (set_at((*HAND, "went_out"), "no"), "went_out: expected true or false"),
    (set_at(("games", 0, "created_at"), "yesterday"), "'yesterday' is not an ISO 8601"),
    (set_at(("games", 0, "rules", "game_type"), "poker"), "'poker' is not one of"),
    (set_at(("games", 0, "players", 1, "name"), "x" * 41), "longer than 40 characters"),
    (set_at(("games", 0, "history"), {}), "games[0].history: expected a list"),
    (set_at(("members", 0, "role"), "admin"), "members[0].role: 'admin' is not one of"),
    (set_at(("users", 0, "email"), "not-an-email"), "is not an email address"),
    (set_at(("club", "name"), "a\x00b"), "club.name: holds a NUL character"),
    (set_at(("club", "public_token"), ""), "a token cannot be empty"),
    (set_at(("club", "rules", "late_rule"), "never"), "'never' is not one of highest"),
    (set_at(("seasons", 0, "starts_on"), "spring"), "seasons[0].starts_on: 'spring' is not"),
    (set_at((*HAND, "late"), None), "hands[0].late: expected true or false"),
]


@pytest.mark.parametrize(("spoil", "message"), JUNK, ids=[message for _, message in JUNK])
def test_junk_is_refused_with_a_clear_message(document, spoil, message):
    with pytest.raises(import_schema.ImportProblem) as raised:
        import_schema.check_document(spoil(document))
    assert message in str(raised.value)


def test_an_export_passes_with_its_dates_and_times_parsed(document):
    document["games"][0]["created_at"] = "2026-03-01T20:30:00+02:00"
    checked = import_schema.check_document(document)
    assert checked["games"][0]["created_at"] == datetime(2026, 3, 1, 18, 30)
    assert checked["seasons"][0]["starts_on"] == date(2019, 6, 1)
    assert checked["invites"][0]["revoked_at"] is None
    assert checked["games"][0]["rounds"][0]["hands"][0]["pips"] == 28


def test_the_schema_is_a_valid_json_schema():
    Draft202012Validator.check_schema(import_schema.SCHEMA)
