"""bench/table_load.py (issue 31's club night) still runs: a small night through gunicorn gives
every figure, reads every photo, saves every round and shows the club's ratings without a 5xx.

Latency and memory are the benchmark's business (bench/results-table-load.json), not asserted
here: this machine may be busy with other work.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from tests.helpers import bench_module

pytestmark = pytest.mark.load


def draw_hands(folder: Path, count: int) -> None:
    """Photos of a white tile on green felt, drawn here: the development photos stay out of the
    repository's tests."""
    for n in range(count):
        image = Image.new("RGB", (800, 600), (30, 100, 50))
        pen = ImageDraw.Draw(image)
        pen.rounded_rectangle((250, 200, 550, 350), radius=12, fill="white", outline="black")
        pen.line((400, 210, 400, 340), fill="black", width=4)
        for x, y in ((300, 240), (350, 310), (450 + 20 * n, 275)):
            pen.ellipse((x - 10, y - 10, x + 10, y + 10), fill="black")
        image.save(folder / f"hand-{n}.jpg", quality=90)


def test_a_small_club_night_gives_every_figure_without_a_5xx(tmp_path):
    table_load = bench_module("table_load")
    draw_hands(tmp_path, 3)
    settings = table_load.Settings(
        photos=str(tmp_path), phones=2, photos_each=2, warm=False, lead=1.0,
        games=20, members=2, reload_for=2.0,
    )  # fmt: skip
    result = table_load.run_scenarios(settings)

    photos = result["photos"]
    assert photos["photos_read"] == 4, photos["photo_statuses"]
    assert photos["photo_500"] == 0
    assert photos["round_save_5xx"] == 0
    assert photos["round_save_failed"] == 0
    assert photos["round_save_alone_ms"]["n"] > 0
    assert photos["memory"]["workers_rss_mib_peak"] > 0
    assert photos["memory"]["processes_peak"] >= settings.workers

    ratings = result["ratings"]
    # The page was checked to list the club's players on its first view (the script refuses
    # otherwise); every reload and poll was answered.
    assert set(ratings["ratings_statuses"]) == {"200"}
    assert set(ratings["api_get_statuses"]) == {"200"}
    assert ratings["ratings_page_ms"]["n"] > 0
    assert ratings["api_get_ms"]["n"] > 0
    assert {target["figure"] for target in result["targets"]} == {
        "A round-save p99 ms",
        "A round saves 5xx (503 too)",
        "A photo answers 5xx but 503",
        "A workers' RSS peak MiB",
        "B game API GET p99 ms",
        "B ratings page p50 ms",
    }
