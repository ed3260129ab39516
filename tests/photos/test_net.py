"""The network that reads each half (scorekeeper/photos/pips.onnx): it ships, it is small, and
it reads halves cut from photos the project draws."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from scorekeeper.photos import net
from scorekeeper.photos.decode import decode
from scorekeeper.photos.reader import read_photo
from training.synthetic import make_photo

ROOT = Path(__file__).resolve().parents[2]


def test_the_model_ships_in_the_repository_within_its_budget():
    assert net.MODEL.is_file()
    assert net.MODEL.stat().st_size < 2_000_000
    models = [p for ext in ("onnx", "pt", "tflite") for p in ROOT.glob(f"scorekeeper/**/*.{ext}")]
    assert sum(p.stat().st_size for p in models) <= 25 * 1024 * 1024


def test_each_half_gets_a_value_and_a_probability():
    crops = [np.full((net.CROP, net.CROP, 3), 230, np.uint8) for _ in range(3)]
    odds = net.probabilities(crops)
    assert odds.shape == (3, net.VALUES)
    assert np.allclose(odds.sum(axis=1), 1.0, atol=1e-4)
    assert net.probabilities([]).shape == (0, net.VALUES)
    # A blank face is a blank half, and never more than the set allows.
    for half in net.read(crops, set_max=6):
        assert half.value == 0 and 0.5 < half.sure <= 1.0 and not half.beyond
        assert half.agree == 1.0


@pytest.mark.parametrize("face, pips, table", [("white", "black", "dark wood"),
                                                ("black", "white", "light wood")])  # fmt: skip
def test_every_value_of_a_double_twelve_is_read_from_its_drawn_corners(face, pips, table):
    tiles = [(0, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, 11), (12, 12)]
    photo = make_photo(11, tiles=tiles, face=face, pips=pips, table=table, set_max="12",
                       arrangement="scattered", look="plain")  # fmt: skip
    img, scale = decode(photo.jpeg)
    crops = []
    for corners in photo.corners:
        crops.extend(net.halves(img, np.asarray(corners, np.float32) / scale))
    read = [half.value for half in net.read(crops, set_max=12)]
    assert read == [v for tile in photo.tiles for v in tile]


def test_a_hand_of_eight_tiles_is_read_exactly():
    hand = [(6, 4), (12, 0), (3, 3), (9, 11), (5, 1), (7, 10), (2, 8), (12, 12)]
    photo = make_photo(21, tiles=hand, arrangement="scattered", face="ivory", pips="coloured",
                       table="green felt", set_max="12", look="plain")  # fmt: skip
    reading = read_photo(photo.jpeg, set_max=12)
    assert sorted(sorted(t.pips) for t in reading.tiles) == sorted(sorted(t) for t in hand)
    assert reading.total == 105
    assert all(not t.low_confidence for t in reading.tiles)


def test_a_misread_tile_of_an_unfamiliar_pip_layout_is_marked_for_the_scorer():
    # A drawn photo (never trained on) whose pips are laid out as other double-12 sets lay them:
    # one tile is misread, and the network was sure of it from the half as cut (0.81), not
    # from all of its turns and mirrorings.
    photo = make_photo(40_014, varied=True)
    set_max = int(photo.kind.split()[0][1:])
    reading = read_photo(photo.jpeg, set_max=set_max)
    truth = [tuple(sorted(t)) for t in photo.tiles]
    wrong = []
    for tile in reading.tiles:
        if tuple(sorted(tile.pips)) in truth:
            truth.remove(tuple(sorted(tile.pips)))
        else:
            wrong.append(tile)
    assert wrong
    assert all(tile.low_confidence for tile in wrong)
