"""Issue 11's light pages, as a phone receives them: every main page's first load (the page,
its CSS and JS; charts, QR code and icons not counted) is at most 30 KB on the wire, headers
included, and nothing in it holds back the first paint.

Measured with bench/weight.py's own code and database (8-player games, one in progress with
its round form; a club season), in Chromium at 360x740 with an empty cache: the bytes are
Chromium's (`Network.loadingFinished.encodedDataLength`). The benchmark also times the first
paint on the Slow 3G profile (bench/README.md); here the test checks what makes it one round
trip: no stylesheet to fetch before painting, every script deferred.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from playwright.sync_api import Browser

WEIGHT_FILE = Path(__file__).resolve().parents[2] / "bench" / "weight.py"


@pytest.fixture(scope="module")
def weight() -> ModuleType:
    """bench/weight.py, imported from its file (bench/ is not a package)."""
    spec = importlib.util.spec_from_file_location("bench_weight", WEIGHT_FILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_every_main_page_weighs_at_most_30_kb_and_paints_in_one_round_trip(
    browser: Browser, weight: ModuleType, tmp_path: Path
):
    built = weight.build(tmp_path)
    server, base = weight.serve(built["app"])
    try:
        state = weight.signed_in_state(browser, base)
        pages = {
            name: weight.weigh(browser, base, path, state, throttle=False)
            for name, path in built["paths"].items()
        }
        context = browser.new_context(storage_state=state)
        page = context.new_page()
        page.goto(base + built["paths"]["game in progress (8 players)"])
        assert page.locator("fieldset.hand").count() == 8  # the heaviest page, form and all
        blocking = page.evaluate(
            """() => [...document.querySelectorAll('link[rel=stylesheet], script')]
                .filter(el => el.tagName === 'LINK' || !el.defer)
                .map(el => el.outerHTML)"""
        )
        context.close()
    finally:
        server.shutdown()
    weights = {name: row["bytes_html_css_js"] for name, row in pages.items()}
    print("\nbytes on the wire (HTML + CSS + JS, headers included):", weights)
    assert {name: size for name, size in weights.items() if size > 30_000} == {}
    # Its tile grid once, not once a hand (issue 24): 28.2 KB before, 25.4 KB measured.
    assert weights["game in progress (8 players)"] <= 26_000
    # The pages carry their CSS: no stylesheet to fetch, so no second round trip to paint.
    assert [name for name, row in pages.items() if "Stylesheet" in row["bytes_by_type"]] == []
    assert blocking == []
    assert all(row["compressed"] == ["gzip"] for row in pages.values())
