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
    rng: random.Random, width: int, height: int, base: tuple[float, float, float] | None = None
) -> Image:
    """A table of one of KINDS in `base` (BGR) or a colour drawn from `rng`."""
    gen = np.random.default_rng(rng.randrange(2**32))
    kind = rng.choice(KINDS)
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
