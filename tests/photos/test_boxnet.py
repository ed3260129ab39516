"""The network that judges the segmenter's candidate boxes (scorekeeper/photos/tiles.onnx): it
ships, it is small, it tells one whole tile from two touching tiles or a cut across their seam,
and with it a held row of touching tiles on a busy cloth is read exactly. Drawn photos only."""

from __future__ import annotations

import numpy as np

from scorekeeper.photos import boxnet
from scorekeeper.photos.decode import decode
from scorekeeper.photos.reader import read_photo
from training.synthetic import make_photo

ROW = [(12, 11), (9, 3), (5, 0), (10, 10), (7, 4), (8, 1)]
# A held row of ivory tiles on a printed cloth, which the segmenter without the box network
# cut into 25 boxes.
TOWEL_SEED = 1


def towel_row():
    """The held row of ivory tiles (ROW) on a printed cloth."""
    return make_photo(
        TOWEL_SEED,
        tiles=ROW,
        arrangement="row",
        face="ivory",
        pips="black",
        set_max="12",
        textured=True,
    )


def test_the_box_model_ships_and_is_small():
    assert boxnet.MODEL.is_file()
    assert boxnet.MODEL.stat().st_size < 1_000_000
    assert boxnet.tile_odds(np.zeros((50, 50, 3), np.uint8), []).shape == (0,)


def test_one_tile_is_a_tile_and_two_touching_tiles_or_a_cut_across_their_seam_are_not():
    photo = towel_row()
    img, scale = decode(photo.jpeg)
    boxes = [np.asarray(c, np.float32) / scale for c in photo.corners]
    first, second = boxes[2], boxes[3]
    # The two tiles as one box, and a box slid half a tile across the seam between them.
    pair = np.asarray([first[0], second[1], second[2], first[3]], np.float32)
    across = (first + second) / 2
    odds = boxnet.tile_odds(img, [first, second, pair, across])
    assert odds[0] > 0.5 and odds[1] > 0.5
    assert odds[2] < 0.5 and odds[3] < 0.5


def test_a_held_row_of_touching_tiles_on_a_busy_cloth_is_read_exactly():
    photo = towel_row()
    assert "touching row" in photo.tags and "textured table" in photo.tags
    reading = read_photo(photo.jpeg, set_max=12)
    assert len(reading.tiles) == len(ROW)
    assert sorted(tuple(sorted(t.pips)) for t in reading.tiles) == sorted(
        tuple(sorted(t)) for t in ROW
    )
    assert reading.total == sum(a + b for a, b in ROW)
