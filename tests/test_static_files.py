"""Static files as they go out (scorekeeper/static_files.py): scripts without comment lines and
indentation, icons with a lifetime."""

from __future__ import annotations

from pathlib import Path

from scorekeeper.static_files import compact

STATIC_JS = Path(__file__).resolve().parents[1] / "static" / "js"


def test_comment_lines_and_indentation_go_and_the_code_stays():
    source = '  // why\nvar a = 1; // stays\n    if (a) {\n      b("http://x");\n    }\n'
    assert compact(source) == 'var a = 1; // stays\nif (a) {\nb("http://x");\n}\n'


def test_a_static_script_is_served_compacted_and_keeps_every_line_of_code(client):
    response = client.get("/static/js/game.js", headers={"Accept-Encoding": "identity"})
    served = response.get_data(as_text=True)
    response.close()
    assert response.status_code == 200
    assert response.headers["Content-Length"] == str(len(served.encode()))
    source = (STATIC_JS / "game.js").read_text()
    code = [line.strip() for line in source.splitlines() if not line.strip().startswith("//")]
    assert served.splitlines() == code
    assert len(served) < 0.8 * len(source)


def test_a_revalidated_script_still_answers_304(client):
    first = client.get("/static/js/round.js")
    first.close()
    again = client.get("/static/js/round.js", headers={"If-None-Match": first.headers["ETag"]})
    again.close()
    assert again.status_code == 304


def test_icons_are_kept_a_day_and_scripts_are_asked_for_again(client):
    icon = client.get("/static/img/favicon.svg")
    icon.close()
    assert icon.cache_control.max_age == 24 * 3600
    assert not icon.cache_control.no_cache
    script = client.get("/static/js/app.js")
    script.close()
    assert script.cache_control.max_age is None
