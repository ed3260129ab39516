"""The checks a schema cannot say: references point at something in the file, nothing twice."""

import pytest

from scorekeeper.services import import_refs, import_schema

from .club_data import set_at


def _second_game_reuses_first_token(doc):
    doc["games"][1]["edit_token"] = doc["games"][0]["edit_token"]
    return doc


HAND = ("games", 0, "rounds", 0, "hands", 0)
BROKEN = [
    (set_at(("games", 0, "rounds", 2, "number"), 5), "rounds[2].number: expected round 3"),
    (set_at((*HAND, "seat"), 9), "hands[0].seat: no player sits there"),
    (set_at(("games", 0, "rounds", 1, "number"), 1), "games[0].rounds: number 1 appears twice"),
    (set_at(("games", 0, "players", 0, "roster"), 99), "players[0].roster: 99 is not a ref"),
    (set_at(("members", 0, "user"), "nobody@example.org"), "is not in users"),
    (set_at(("roster", 0, "merged_into"), 99), "roster[0].merged_into: 99 is not another"),
    (set_at(("roster", 0, "merged_into"), 1), "is not another roster ref"),
    (set_at(("roster", 1, "ref"), 1), "roster: ref 1 appears twice"),
    (set_at(("seasons", 1, "ref"), 1), "seasons: ref 1 appears twice"),
    (set_at(("club_nights", 0, "season"), 7), "club_nights[0].season: 7 is not a ref"),
    (set_at(("games", 0, "season"), 7), "games[0].season: 7 is not a season ref"),
    (set_at(("games", 0, "club_night"), 7), "games[0].club_night: 7 is not a club night ref"),
    (_second_game_reuses_first_token, "appears twice"),
]


@pytest.mark.parametrize(("spoil", "message"), BROKEN, ids=[message for _, message in BROKEN])
def test_a_broken_reference_is_refused_naming_where(document, spoil, message):
    doc = import_schema.check_document(spoil(document))
    with pytest.raises(import_schema.ImportProblem) as raised:
        import_refs.check_references(doc)
    assert message in str(raised.value)


def test_an_export_has_no_broken_reference(document):
    import_refs.check_references(import_schema.check_document(document))
