"""What the segmenter takes for table (masks.foreground): a table of one colour, or checks of
two (a red-and-white cloth, a tiled floor), which the border's median alone does not describe."""

from __future__ import annotations

import numpy as np
import pytest

from scorekeeper.photos import masks

WHITE, BLACK, RED = (235, 235, 235), (25, 25, 25), (40, 40, 200)
BLUE, MAROON, YELLOW = (150, 60, 20), (60, 30, 120), (40, 210, 230)


def _table(checks: list[tuple[int, int, int]], tile: tuple[int, int, int]) -> np.ndarray:
    """A 600 x 800 table in squares of 50 px of `checks` in turn, a tile of colour `tile` on it
    (rows 200-300, columns 300-500), light noise over all (BGR)."""
    img = np.zeros((600, 800, 3), np.uint8)
    for row in range(0, 600, 50):
        for col in range(0, 800, 50):
            img[row : row + 50, col : col + 50] = checks[(row // 50 + col // 50) % len(checks)]
    img[200:300, 300:500] = tile
    noise = np.random.default_rng(1).normal(0, 4, img.shape)
    return np.clip(img + noise, 0, 255).astype(np.uint8)


@pytest.mark.parametrize(
    ("checks", "tile"),
    [
        ([MAROON], BLACK),
        ([WHITE, RED], BLUE),
        ([WHITE, BLACK], MAROON),
        ([BLACK, YELLOW], WHITE),
    ],
    ids=["plain", "red-and-white", "black-and-white", "black-and-yellow"],
)
def test_a_tile_stands_out_from_a_table_of_one_colour_or_two(checks, tile):
    mask = masks.foreground(_table(checks, tile)) > 0
    assert mask[205:295, 305:495].mean() > 0.95
    table = np.ones(mask.shape, bool)
    table[190:310, 290:510] = False
    # Where two checks meet their blurred seam is like neither: thin lines, never tile-shaped.
    assert mask[table].mean() < 0.08


def test_a_tables_colours_are_its_checks():
    lab = masks.lab(_table([WHITE, RED], BLUE))
    colours = masks.table_colours(masks.border_band(lab))
    for check in (WHITE, RED):
        want = masks.lab(np.full((1, 1, 3), check, np.uint8))[0, 0]
        assert min(float(np.linalg.norm(c - want)) for c in colours) < 8
