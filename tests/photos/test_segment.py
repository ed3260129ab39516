"""Finding tiles by their dividing lines (around.from_bars): a tile no mask outlined is found
again, nothing is found twice, and a table with nothing on it gives nothing. Drawn photos only."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scorekeeper.photos import around, segment
from scorekeeper.photos.boxes import Found
from scorekeeper.photos.decode import decode
from scorekeeper.photos.reader import read_photo
from tests.photos.boxes import iou
from training.synthetic import empty_table, make_photo


@pytest.mark.parametrize(
    ("face", "pips", "textured"),
    [("white", "black", False), ("black", "white", False), ("ivory", "coloured", True)],
)
def test_a_tile_no_mask_outlined_is_found_by_its_dividing_line(face, pips, textured):
    tiles = [(6, 2), (9, 4), (12, 0), (5, 5)]
    photo = make_photo(
        3,
        tiles=tiles,
        arrangement="scattered",
        face=face,
        pips=pips,
        set_max="12",
        textured=textured,
    )
    img, _scale = decode(photo.jpeg)
    found = segment.tiles(img)
    assert len(found) == len(tiles)
    for missed in found:
        rest = [f for f in found if f is not missed]
        again = around.from_bars(img, rest)
        assert len(again) == 1
        assert iou(again[0].box, missed.box) > 0.6
        assert again[0].split  # a guessed box: its confidence is lowered for the scorer


def test_a_tile_already_found_is_not_found_again():
    photo = make_photo(5, tiles=[(3, 1), (8, 8), (11, 7)], arrangement="scattered")
    img, _scale = decode(photo.jpeg)
    found = segment.tiles(img)
    assert len(found) == 3
    assert around.from_bars(img, found) == []


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_empty_table_has_no_tile_even_by_its_lines(seed):
    img, _scale = decode(empty_table(seed))
    assert segment.tiles(img) == []
    assert around.from_bars(img, []) == []


def test_a_page_of_writing_beside_the_tiles_is_not_read_as_tiles():
    # A score pad: rows of short dark strokes on white, every one a "dividing line" by shape.
    page = np.full((1200, 1600, 3), 230, np.uint8)
    for y in range(0, 1200, 14):
        for x in range(0, 1600, 60):
            cv2.line(page, (x, y), (x + 40, y), (20, 20, 20), 2)
    ok, jpeg = cv2.imencode(".jpg", page)
    assert ok
    img, _scale = decode(jpeg.tobytes())
    assert segment.tiles(img) == []


def test_a_small_photo_of_tiles_on_a_busy_cloth_is_read_exactly():
    # Shrunk to 0.6, some of these tiles' dividing lines touch their rims, so they make no
    # bar-shaped outline; the straight runs of the thin lines still find them.
    photo = make_photo(43, textured=True)
    img = cv2.imdecode(np.frombuffer(photo.jpeg, np.uint8), cv2.IMREAD_COLOR)
    small = cv2.resize(img, None, fx=0.6, fy=0.6, interpolation=cv2.INTER_AREA)
    ok, png = cv2.imencode(".png", small)
    assert ok
    reading = read_photo(png.tobytes(), set_max=6)
    assert reading.total == sum(a + b for a, b in photo.tiles)
    assert len(reading.tiles) == len(photo.tiles)


@pytest.mark.parametrize("seed", [70_036, 70_044, 70_128])
def test_a_close_up_past_the_frame_is_one_tile_the_frame_itself(seed):
    # Close-ups whose frame ends inside the tile's rims: no mask outlines the tile.
    photo = make_photo(seed, every=True)
    assert "tile past the frame" in photo.tags and len(photo.tiles) == 1
    img, _ = decode(photo.jpeg)
    h, w = img.shape[:2]
    found = segment.tiles(img)
    assert len(found) == 1
    frame = np.asarray([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    assert iou(found[0].box, frame) > 0.95


def test_a_small_tile_on_a_wide_photo_is_not_taken_for_a_close_up():
    photo = make_photo(4, tiles=[(3, 5)], arrangement="scattered", face="white", pips="black",
                       table="dark wood")  # fmt: skip
    img, scale = decode(photo.jpeg)
    # The photo cut to twice as wide as it is high about the tile: a tile-shaped frame.
    y = int(np.mean([p[1] for p in photo.corners[0]]) / scale)
    top = min(max(0, y - img.shape[1] // 4), img.shape[0] - img.shape[1] // 2)
    wide = np.ascontiguousarray(img[top : top + img.shape[1] // 2])
    found = segment.tiles(wide)
    assert len(found) == 1
    h, w = wide.shape[:2]
    assert w == 2 * h
    assert cv2.contourArea(found[0].box) < 0.1 * h * w


@pytest.mark.parametrize("seed", [90_040, 90_097])
def test_a_tile_crowded_with_pips_between_two_of_a_row_is_found(seed):
    # Tuning photos (bench/photos.py): a 10|12 in a touching row, its seams and its dividing
    # line lost among its pips, which no mask and no bar outlined.
    photo = make_photo(seed, every=True, unseen=seed % 2 == 0)
    img, scale = decode(photo.jpeg)
    found = segment.tiles(img)
    assert len(found) == len(photo.tiles)
    crowded = np.asarray(photo.corners[photo.tiles.index((10, 12))], np.float32) / scale
    assert max(iou(f.box, crowded) for f in found) > 0.6


def test_the_table_between_two_tiles_a_tile_apart_is_no_tile():
    # One tile on a plain table, and where a second would lie two widths away: the box
    # between them holds only table, which the box network does not take for a tile.
    photo = make_photo(5, tiles=[(3, 4)], arrangement="scattered", set_max="6")
    img, _ = decode(photo.jpeg)
    (tile,) = segment.tiles(img)
    h, w = img.shape[:2]
    step = tile.box[1] - tile.box[0]
    for way in (step, -step):
        far = Found(tile.box + 2 * way)
        if far.box.min() >= 0 and far.box[:, 0].max() < w and far.box[:, 1].max() < h:
            break
    else:
        pytest.fail("no room beside the tile")
    assert around.between(img, [tile, far]) == []
    # A tile where the box between them lies is found (the same box network judges both).
    assert around.between(img, [Found(tile.box - way), Found(tile.box + way)])


@pytest.mark.parametrize("seed", [90_024, 90_116])
def test_the_tiles_next_to_a_found_one_in_a_touching_row_are_found(seed):
    # Tuning photos (bench/photos.py): a touching row on a checked cloth, held at an angle or
    # flat, where the masks outlined one or two of its tiles and none of the others.
    photo = make_photo(seed, every=True, unseen=True)
    reading = read_photo(photo.jpeg, int(photo.kind.split()[0][1:]))
    for corners in photo.corners:
        truth = np.asarray(corners, np.float32)
        assert max(iou(np.asarray(t.corners), truth) for t in reading.tiles) > 0.6
