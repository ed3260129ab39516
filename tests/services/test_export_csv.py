"""The club as CSV: one row per player per round, names as the roster has them now."""

import csv
import io
from datetime import date

import pytest

from scorekeeper.services import export_csv


def test_csv_has_one_row_per_player_per_round(exported, document):
    _, table = exported
    rows = list(csv.DictReader(io.StringIO(table)))
    assert list(rows[0]) == list(export_csv.CSV_HEADER)
    expected = sum(len(g["players"]) * len(g["rounds"]) for g in document["games"])
    assert len(rows) == expected == 5 * 3 + 4 * 1 + 3 * 2
    assert table.startswith("club,game_id,game_date,")


def test_csv_row_details(exported):
    _, table = exported
    rows = list(csv.DictReader(io.StringIO(table)))
    benny = rows[1]
    assert benny["club"] == "Thursday Trains ☕"
    assert benny["game_type"] == "mexican_train"
    assert (benny["round"], benny["engine"], benny["player"]) == ("1", "12-12", "Benny")
    assert benny["roster_name"] == "Benjamin"  # merged into Ben, who was renamed
    assert (benny["pips"], benny["penalties"], benny["score"]) == ("12", "10", "22")
    assert benny["penalty_detail"] == "open_train +10 (left open)"
    assert (benny["went_out"], benny["blocked"]) == ("no", "no")
    ana, dan = rows[0], rows[3]
    assert ana["tiles"] == "12-11 5-0" and ana["pips"] == "28"
    assert dan["roster_name"] == "" and dan["went_out"] == "yes"
    assert dan["penalty_detail"] == "adjustment -5 (miscount)" and dan["score"] == "-5"
    assert date.fromisoformat(ana["game_date"])
    fay = rows[4]
    assert (fay["player"], fay["pips"], fay["score"], fay["went_out"]) == ("Fay", "0", "35", "no")
    assert {row["blocked"] for row in rows[5:10]} == {"yes"}
    assert rows[5]["engine"] == "11-11"
    draw = rows[-6:]
    assert {row["engine"] for row in draw} == {""}
    assert draw[2]["player"] == "'=1+1"  # a spreadsheet shows it, does not run it


def test_export_of_an_unknown_club_is_a_lookup_error(app):
    with app.app_context(), pytest.raises(LookupError, match="no club with id 42"):
        export_csv.export_club_csv(42)
