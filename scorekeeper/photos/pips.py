"""Counting the pips on each half of a tile: round spots that differ from the tile's face."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from .segment import Box, distance, lab, otsu

# Every tile is straightened to this size (a half is SIDE x SIDE) before its pips are counted.
SIDE = 96
# A half's own edges and the dividing line are left out.
MARGIN = 7
# Lightness/colour distance below which a spot is the face itself (noise, texture, shading).
FLOOR = 16.0


@dataclass
class Spot:
    """A round-ish spot on a half, in the straightened tile's pixels."""

    area: float
    roundness: float


@dataclass
class Half:
    """The spots found on one half."""

    spots: list[Spot]


def straighten(img: NDArray[np.uint8], box: Box) -> NDArray[np.uint8]:
    """The tile in `box` as an upright SIDE x 2*SIDE image (its corners pulled in a little)."""
    centre = box.mean(axis=0)
    inner = centre + (box - centre) * 0.97
    target = np.asarray([[0, 0], [SIDE, 0], [SIDE, 2 * SIDE], [0, 2 * SIDE]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(inner.astype(np.float32), target)
    flat = cv2.warpPerspective(img, matrix, (SIDE, 2 * SIDE), flags=cv2.INTER_AREA)
    return np.asarray(flat, dtype=np.uint8)


def halves(tile: NDArray[np.uint8]) -> tuple[Half, Half]:
    """The spots on the top and bottom halves of a straightened tile."""
    lab_tile = lab(tile)
    inner = lab_tile[MARGIN : 2 * SIDE - MARGIN, MARGIN : SIDE - MARGIN].reshape(-1, 3)
    face = np.median(inner, axis=0)
    dist = distance(lab_tile, face)
    level = max(FLOOR, otsu(dist[MARGIN:-MARGIN, MARGIN:-MARGIN]))
    mask = (dist > level).astype(np.uint8) * 255
    top = _spots(mask[MARGIN : SIDE - MARGIN // 2, MARGIN : SIDE - MARGIN])
    bottom = _spots(mask[SIDE + MARGIN // 2 : 2 * SIDE - MARGIN, MARGIN : SIDE - MARGIN])
    return Half(top), Half(bottom)


def _spots(mask: NDArray[np.uint8]) -> list[Spot]:
    """Filled outlines of the spots not touching the half's edge (edges, the dividing line)."""
    h, w = mask.shape
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    out = []
    for contour in contours:
        x, y, cw, ch = cv2.boundingRect(contour)
        area = cv2.contourArea(contour)
        if area < 4:
            continue
        touches = x <= 0 or y <= 0 or x + cw >= w or y + ch >= h
        if touches and max(cw, ch) > 0.45 * min(h, w):
            continue
        perimeter = cv2.arcLength(contour, True)
        roundness = 4 * np.pi * area / (perimeter * perimeter) if perimeter else 0.0
        out.append(Spot(float(area), float(roundness)))
    return out


def typical_pip(all_halves: list[Half]) -> float:
    """The area of one pip on this photo: the median of the round, pip-sized spots."""
    lo, hi = 0.0015 * SIDE * SIDE, 0.05 * SIDE * SIDE
    areas = [
        s.area for h in all_halves for s in h.spots if lo <= s.area <= hi and s.roundness > 0.7
    ]
    if not areas:
        return 0.0
    return float(np.median(areas))


def count(half: Half, pip: float) -> tuple[int, float]:
    """How many pips a half shows and how sure we are (0-1)."""
    if not pip:
        return 0, 0.9 if not half.spots else 0.5
    value, doubt = 0, 0.0
    for spot in half.spots:
        ratio = spot.area / pip
        if ratio < 0.25:
            continue
        if ratio < 0.45:
            doubt += 0.3 if spot.roundness > 0.5 else 0.1
        elif ratio <= 1.7:
            value += 1
            if spot.roundness < 0.55:
                doubt += 0.15
        elif ratio <= 6.5:
            # Pips that run together (a blurred photo, a tight column): as many as the area holds.
            value += round(ratio)
            doubt += 0.2
        else:
            doubt += 0.35
    return value, max(0.0, 1.0 - doubt)
