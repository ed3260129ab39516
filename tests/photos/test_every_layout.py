"""The photos of every kind the generator draws (training/synthetic.py, `every=True`): what the
networks are trained on and the held-out set is measured on. A layout that miscounts its own
pips, or a close-up whose tile leaves the frame, would teach the reader wrong."""

from __future__ import annotations

import io
import math
import random

import pytest
from PIL import Image

from training.synthetic import (
    SetStyle,
    lattice_layout,
    make_photo,
    scattered_layout,
)

VALUES = range(19)


@pytest.mark.parametrize("value", VALUES)
def test_a_lattice_lays_out_as_many_pips_as_its_value_symmetric_under_a_half_turn(value):
    for seed in range(40):
        points = lattice_layout(random.Random(seed), value)
        assert len(points) == value
        # A half turn about the half's centre maps the pips onto themselves.
        for x, y in points:
            assert min(math.dist((1 - x, 1 - y), p) for p in points) < 1e-6
        assert all(0.05 < c < 0.95 for p in points for c in p)


@pytest.mark.parametrize("value", VALUES)
def test_scattered_pips_are_as_many_as_the_value_and_never_touch(value):
    for seed in range(20):
        points = scattered_layout(random.Random(seed), value)
        assert len(points) == value
        style = SetStyle(random.Random(seed), 18)
        style.family, style.usual_to = "scattered", 0
        laid = style.layout(value)
        gap = min((math.dist(p, q) for i, p in enumerate(laid) for q in laid[i + 1 :]), default=1)
        # Two pips of the set's radius at most, with room between them.
        assert 2 * style.radius(value) < gap


def test_a_set_draws_each_value_alike_on_every_tile():
    style = SetStyle(random.Random(5), 12)
    assert style.layout(10) is style.layout(10)
    assert len(style.layout(10)) == 10


def test_every_kind_is_drawn_across_the_held_out_seeds():
    tags = {t for seed in range(70_000, 70_040) for t in make_photo(seed, every=True).tags}
    assert {"close-up", "held at an angle", "things beside", "every layout"} <= tags


def test_a_close_up_fills_the_frame_with_its_tile():
    closeups = [
        p
        for seed in range(70_000, 70_040)
        if "close-up" in (p := make_photo(seed, every=True)).tags
    ]
    assert closeups
    for photo in closeups:
        w, h = Image.open(io.BytesIO(photo.jpeg)).size
        assert 1 <= len(photo.tiles) <= 2
        for c in photo.corners:
            long = max(math.dist(c[0], c[3]), math.dist(c[0], c[1]))
            assert long > 0.55 * min(w, h)
        # Inside the frame, or for the closest ones just past it (the frame ends inside the
        # tile's rims, by at most 4% of the tiles' outline).
        out = 0.05 * max(w, h) if "tile past the frame" in photo.tags else 2
        for x, y in (p for c in photo.corners for p in c):
            assert -out <= x <= w + out and -out <= y <= h + out


def test_held_out_tables_are_drawn_only_when_asked():
    seen = make_photo(70_002, every=True)
    unseen = make_photo(70_002, every=True, unseen=True)
    assert "unseen table" in unseen.tags and "unseen table" not in seen.tags
    assert seen.tiles == unseen.tiles
