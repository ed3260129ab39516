"""Every message the rules core sends is one whole sentence a translator can find, and pages
are translated into each reader's language."""

from __future__ import annotations

import shutil
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo

from scorekeeper import core, create_app

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


def french_catalogue(folder: Path) -> Path:
    """A tiny French catalogue (the app ships English only so far)."""
    catalog = Catalog(locale="fr")
    catalog.add("New game", "Nouvelle partie")
    catalog.add(("%(num)s point", "%(num)s points"), ("%(num)s point", "%(num)s points"))
    messages = folder / "fr" / "LC_MESSAGES"
    messages.mkdir(parents=True)
    with open(messages / "messages.mo", "wb") as out:
        write_mo(out, catalog)
    return folder


def test_each_request_reads_its_own_language(app_config, migrated_database, tmp_path):
    """Templates look the catalogue up once per request: a French reader gets French, and the
    next reader, in English, gets English (nothing carries over from one request to the next)."""
    shutil.copyfile(migrated_database, tmp_path / "test.sqlite")
    folder = french_catalogue(tmp_path / "translations")
    app = create_app({**app_config, "BABEL_TRANSLATION_DIRECTORIES": str(folder)})
    client = app.test_client()
    french = client.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    english = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Nouvelle partie" in french and ">New game<" not in french
    assert ">New game<" in english and "Nouvelle partie" not in english
    again = client.get("/", headers={"Accept-Language": "fr-FR,fr;q=0.9"}).get_data(as_text=True)
    assert "Nouvelle partie" in again
