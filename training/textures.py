"""Busy tables for synthetic photos: towels, woven cloth, wood grain and printed cloth.

The plain tables of synthetic.py are a colour with a fine grain; real photos are also taken on
a towel's loops, a tablecloth's weave or print, or a plank's grain, whose edges are as strong as
a tile's and whose colour may be a tile's own. `make_photo(..., textured=True)` draws one of
these instead (the segmenter's training photos do; the benchmark can, `--textured`).
"""

from __future__ import annotations

import random

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]

KINDS = ("towel", "weave", "wood", "print")
# More tables for the networks' training photos of every kind (make_photo(..., every=True)):
# straight seams and regular spots that are no tile edge or pip: a striped cloth, planks, dots.
MORE = ("stripes", "planks", "dots")
# Tables no network is trained on, drawn only for the held-out test set (bench/photos.py
# --every): veined stone, a checked cloth, tiles of a floor or a table top.
HELD_OUT = ("marble", "checks", "floor")


def _noise(gen: np.random.Generator, height: int, width: int, sigma: float) -> NDArray[np.float32]:
    """Gaussian noise blurred to blobs of about `sigma` pixels, scaled to unit spread (wide
    blobs are made small and enlarged: a blur that wide would take seconds)."""
    shrink = max(1.0, sigma / 3)
    small = (max(2, round(height / shrink)), max(2, round(width / shrink)))
    raw = gen.normal(0, 1, small).astype(np.float32)
    blurred = np.asarray(cv2.GaussianBlur(raw, (0, 0), sigma / shrink), np.float32)
    if shrink > 1:
        blurred = np.asarray(cv2.resize(blurred, (width, height), interpolation=cv2.INTER_CUBIC))
    return blurred / max(float(blurred.std()), 1e-6)


def colour(rng: random.Random) -> tuple[float, float, float]:
    """Any table colour (BGR), from near black to near white, plain or saturated."""
    hue = rng.uniform(0, 180)
    sat = rng.choice([rng.uniform(0, 60), rng.uniform(60, 255)])
    val = rng.uniform(30, 250)
    hsv = np.asarray([[[hue, sat, val]]], np.uint8)
    b, g, r = np.asarray(cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR))[0, 0]
    return float(b), float(g), float(r)


def textured_table(
    rng: random.Random,
    width: int,
    height: int,
    base: tuple[float, float, float] | None = None,
    kinds: tuple[str, ...] = KINDS,
) -> Image:
    """A table of one of `kinds` (KINDS, or HELD_OUT) in `base` (BGR) or a colour drawn from
    `rng`."""
    gen = np.random.default_rng(rng.randrange(2**32))
    kind = rng.choice(kinds)
    base = base or colour(rng)
    scale = min(width, height) / 1000
    strength = rng.uniform(10, 35)
    if kind == "towel":
        # Loops: coarse blobs over fine ones, the light catching their tops.
        light = 0.8 * _noise(gen, height, width, rng.uniform(1.2, 3.0) * scale)
        light += 0.5 * _noise(gen, height, width, rng.uniform(6, 14) * scale)
    elif kind == "weave":
        period = rng.uniform(4, 14) * scale
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        turn = rng.uniform(0, np.pi)
        u = xs * np.cos(turn) + ys * np.sin(turn)
        v = -xs * np.sin(turn) + ys * np.cos(turn)
        light = np.asarray(np.sin(2 * np.pi * u / period) * np.sin(2 * np.pi * v / period))
        light = light + 0.4 * _noise(gen, height, width, 1.0)
    elif kind == "wood":
        # Grain: noise stretched along one direction, with darker streaks.
        long = max(3, int(rng.uniform(40, 120) * scale)) | 1
        raw = gen.normal(0, 1, (height, width)).astype(np.float32)
        grain = np.asarray(cv2.blur(raw, (long, 1)), np.float32)
        grain = np.asarray(cv2.GaussianBlur(grain, (0, 0), max(0.8, 1.5 * scale)), np.float32)
        light = grain / max(float(grain.std()), 1e-6)
        light += 0.6 * _noise(gen, height, width, rng.uniform(20, 60) * scale)
        if rng.random() < 0.5:
            turned = cv2.rotate(cv2.resize(light, (height, width)), cv2.ROTATE_90_CLOCKWISE)
            light = np.asarray(turned, np.float32)
    elif kind == "stripes":
        period = rng.uniform(20, 120) * scale
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        turn = rng.uniform(0, np.pi)
        u = xs * np.cos(turn) + ys * np.sin(turn)
        light = -1.5 * (np.sin(2 * np.pi * u / period) > rng.uniform(-0.5, 0.5))
        light = light.astype(np.float32) + 0.3 * _noise(gen, height, width, 1.0)
    elif kind == "planks":
        # Boards of one width, their ends staggered, a dark seam round each.
        wide = rng.uniform(80, 220) * scale
        long = wide * rng.uniform(3, 8)
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        row = (ys / wide).astype(int)
        shift = (row * 0.37 % 1.0) * long
        seam = np.minimum(ys % wide, (xs + shift) % long) < max(2.0, 4 * scale)
        light = gen.normal(0, 0.5, row.max() + 2)[row].astype(np.float32) - 3.0 * seam
        light += 0.5 * _noise(gen, height, width, 2.0)
        if rng.random() < 0.5:
            light = np.asarray(cv2.resize(light.T.copy(), (width, height)), np.float32)
    elif kind == "dots":
        # Polka dots of one size in rows, darker or lighter than the cloth: pip-like spots.
        step = rng.uniform(25, 80) * scale
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        dx = (xs % step) - step / 2
        dy = (ys % step) - step / 2
        dots = (dx**2 + dy**2 < (step * rng.uniform(0.12, 0.3)) ** 2).astype(np.float32)
        light = rng.choice([-2.5, 2.5]) * dots + 0.3 * _noise(gen, height, width, 1.0)
    elif kind == "marble":
        # Veins: the level lines of a smooth noise, turned sharp.
        field = _noise(gen, height, width, rng.uniform(60, 160) * scale)
        field += 0.3 * _noise(gen, height, width, rng.uniform(8, 20) * scale)
        light = -2.5 * np.exp(-((np.sin(field * rng.uniform(3, 7)) / 0.12) ** 2))
        light += 0.3 * _noise(gen, height, width, 2.0)
    elif kind == "checks":
        # A checked cloth: bands of another colour across and down, darker where they cross.
        period = rng.uniform(30, 90) * scale
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        turn = rng.uniform(-0.3, 0.3)
        u = xs * np.cos(turn) + ys * np.sin(turn)
        v = -xs * np.sin(turn) + ys * np.cos(turn)
        bands = (np.sin(2 * np.pi * u / period) > 0).astype(np.float32)
        bands += (np.sin(2 * np.pi * v / period) > 0).astype(np.float32)
        light = -1.6 * bands + 0.3 * _noise(gen, height, width, 1.0)
    elif kind == "floor":
        # Square tiles with grout lines, each a little its own shade.
        side = rng.uniform(120, 320) * scale
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        shade = gen.normal(0, 0.5, (int(height / side) + 2, int(width / side) + 2))
        light = shade[(ys / side).astype(int), (xs / side).astype(int)].astype(np.float32)
        grout = (np.minimum(xs % side, ys % side) < max(2.0, 5 * scale)).astype(np.float32)
        light = light - 3.0 * grout + 0.3 * _noise(gen, height, width, 1.5)
    else:
        # A printed cloth: scattered flowers or dots of other colours.
        light = 0.5 * _noise(gen, height, width, 1.5 * scale)
    img = np.empty((height, width, 3), np.float32)
    img[:] = base
    img += (strength * light)[..., None]
    if kind == "print":
        spots = rng.randint(20, 120)
        for _ in range(spots):
            centre = (rng.randrange(width), rng.randrange(height))
            radius = max(2, int(rng.uniform(4, 30) * scale))
            cv2.circle(img, centre, radius, colour(rng), -1, cv2.LINE_AA)
    # Folds and uneven light over the whole cloth.
    img *= (1 + 0.12 * _noise(gen, height, width, min(width, height) / 6))[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)
