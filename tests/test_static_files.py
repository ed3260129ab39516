"""Static files as they go out (scorekeeper/web/static_files.py): scripts without comment lines and
indentation, icons with a lifetime."""

from __future__ import annotations

import re
from pathlib import Path

from scorekeeper.web.static_files import compact

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


def test_the_linked_stylesheets_are_kept_a_year_under_their_versioned_address(client):
    """Issue 24: a page carries its first screen's CSS and links the rest at its end by an
    address naming the file's version; only that address may be kept without asking again."""
    page = client.get("/").get_data(as_text=True)
    links = re.findall(r'<link rel="stylesheet" href="([^"]+)">', page)
    assert links and links[-1].startswith("/static/css/later.css?v=")
    assert page.rindex('<link rel="stylesheet"') > page.index("</footer>")  # after all it shows
    for link in links:
        response = client.get(link, headers={"Accept-Encoding": "identity"})
        served = response.get_data(as_text=True)
        response.close()
        assert response.status_code == 200 and response.mimetype == "text/css"
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert "/*" not in served and ";}" not in served  # compacted as the inline CSS is
    stale = client.get("/static/css/later.css?v=000000000000")
    stale.close()
    assert "immutable" not in stale.headers["Cache-Control"]


def test_the_service_worker_keeps_the_stylesheets_pages_link(client):
    page = client.get("/").get_data(as_text=True)
    links = re.findall(r'<link rel="stylesheet" href="([^"]+)">', page)
    worker = client.get("/sw.js")
    script = worker.get_data(as_text=True)
    worker.close()
    assert all(f'"{link}"' in script for link in links)
    again = client.get("/sw.js", headers={"If-None-Match": worker.headers["ETag"]})
    again.close()
    assert again.status_code == 304
