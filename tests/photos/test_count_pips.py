"""`flask count-pips PHOTO...`: a JSON line per photo, the API's answer (or refusal) and path."""

from __future__ import annotations

import json

from training.synthetic import empty_table, make_photo


def test_each_photo_gets_a_json_line(runner, tmp_path):
    hand = tmp_path / "hand.jpg"
    hand.write_bytes(make_photo(3, tiles=[(6, 4), (12, 0)], arrangement="scattered",
                                face="white", pips="black", table="dark wood",
                                look="plain").jpeg)  # fmt: skip
    table = tmp_path / "table.jpg"
    table.write_bytes(empty_table(1))
    notes = tmp_path / "notes.txt"
    notes.write_text("six-four")
    result = runner.invoke(args=["count-pips", str(hand), str(table), str(notes)])
    assert result.exit_code == 0, result.output
    first, second, third = (json.loads(line) for line in result.output.splitlines())
    assert sorted(sorted(t["pips"]) for t in first["tiles"]) == [[0, 12], [4, 6]]
    assert first["total"] == 22 and all(len(t["corners"]) == 4 for t in first["tiles"])
    assert second["tiles"] == [] and second["advice"][0].startswith("No tile was found")
    assert third == {
        "photo": str(notes),
        "error": "That file is not a photo: choose a JPEG, PNG or HEIC picture.",
    }
    # The API's answer, the photo's path first (POST /api/v1/games/{id}/photos).
    assert list(first) == ["photo", "tiles", "total", "advice"]
    assert [set(tile) for tile in first["tiles"]] == [{"pips", "confidence", "corners"}] * 2


def test_an_empty_file_is_called_empty(runner, tmp_path):
    empty = tmp_path / "hand.jpg"
    empty.write_bytes(b"")
    result = runner.invoke(args=["count-pips", str(empty)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {
        "photo": str(empty),
        "error": "That photo file is empty: take the photo again or choose another.",
    }
