"""Every message the rules core sends is one whole sentence a translator can find."""

from __future__ import annotations

from pathlib import Path

from babel.messages.extract import extract_from_dir

from scorekeeper import core

CORE = Path(__file__).resolve().parents[1] / "scorekeeper" / "core"


def core_catalog() -> set[str]:
    return {
        message
        for _file, _line, message, _comments, _context in extract_from_dir(
            str(CORE), method_map=[("**.py", "python")], keywords={"N_": None}
        )
    }


def test_every_core_problem_is_in_the_translation_catalogue():
    catalog = core_catalog()
    game = core.new_game(["Ana", "Ben", "Cy"])
    draw = core.new_game(["Ana", "Ben", "Cy"], core.GameRules(game_type=core.GameType.DRAW))
    entries = [
        (game, core.RoundEntry({"Ana": core.HandEntry("x"), "Ben": core.HandEntry(-1)})),
        (game, core.RoundEntry({"Ana": core.HandEntry(1212), "Ben": core.HandEntry(1)}, "Cy")),
        (game, core.RoundEntry({"Ana": core.HandEntry(600), "Ben": core.HandEntry(600)}, "Cy")),
        (game, core.RoundEntry({"Ana": core.HandEntry(tiles=["zz", "12-12", "13-1"])}, "Cy")),
        (draw, core.RoundEntry({"Ana": core.HandEntry(100), "Ben": core.HandEntry(100)}, "Cy")),
        (draw, core.RoundEntry({"Ana": core.HandEntry(169), "Ben": core.HandEntry(1)}, "Cy")),
        (game, core.RoundEntry({"Ana": core.HandEntry(300), "Ben": core.HandEntry(1)}, "Cy")),
    ]
    seen = 0
    for setup, entry in entries:
        check = core.check_round(setup, 1, entry)
        for problem in (*check.errors, *check.warnings):
            assert problem.template in catalog, problem.template
            seen += 1
    assert seen >= 9
