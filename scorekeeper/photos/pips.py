"""Counting the pips on each half of a tile: round spots that differ from the tile's face."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np
from cv2.typing import MatLike
from numpy.typing import NDArray

from .segment import Box, distance, lab, otsu

# Every tile is straightened to this size (a half is SIDE x SIDE) before its pips are counted.
SIDE = 96
# A half's own edges and the dividing line are left out.
MARGIN = 7
# Lightness/colour distance below which a spot is the face itself (noise, texture, shading).
FLOOR = 16.0
# The face around a pixel: the median of this square (pips are much smaller).
BACKGROUND = 31
# A half with this many round pips is counted by their own size.
OWN_PIPS = 3
# A spot this round (4 pi area / perimeter^2) is a single pip.
ROUND = 0.8
# The biggest one pip can be on a straightened tile (a share of SIDE squared; a double-6 pip is
# about 0.023): a round spot with one core no bigger is one pip, however small the photo's other
# pips (a one beside a fifteen drawn with small pips).
BIG_PIP = 0.028
# Pips run together part where the spot is narrower than this share of its widest.
CORE = 0.7
# A spot on a half's edge is a pip cut by the box only if it is this round.
EDGE_ROUNDNESS = 0.75
# How far from the middle the dividing line may be (a box that holds the tile's side too).
DIVIDER_SHIFT = 10


@dataclass
class Spot:
    """A round-ish spot on a half, in the straightened tile's pixels."""

    area: float
    roundness: float
    # How many round cores the spot has: pips run together in a blurred column count apart.
    cores: int = 1


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
    """The spots on the top and bottom halves of a straightened tile. Each pixel is compared
    with the face around it (light falling off across a tile, glare, a grey photo), each half
    gets its own threshold (pale pips on one half, dark ones on the other), and the dividing
    line is found wherever the tile's box put it: a spot belongs to the half its centre is in,
    so a pip near the line is neither cut nor lost."""
    lab_tile = lab(tile)
    around = lab(np.asarray(cv2.medianBlur(tile, BACKGROUND), dtype=np.uint8))
    dist = distance(lab_tile, around)
    across = slice(MARGIN, SIDE - MARGIN)
    band = dist[SIDE - DIVIDER_SHIFT : SIDE + DIVIDER_SHIFT, across].mean(axis=1)
    peak = int(np.argmax(band))
    # The line's rows: those around its peak that stand out half as much.
    first, last = peak, peak
    while first > 0 and band[first - 1] >= 0.5 * band[peak]:
        first -= 1
    while last < len(band) - 1 and band[last + 1] >= 0.5 * band[peak]:
        last += 1
    line = (SIDE - DIVIDER_SHIFT + first - 1, SIDE - DIVIDER_SHIFT + last + 2)
    mask = np.zeros(dist.shape, np.uint8)
    mask[: line[0]] = _mask(dist[: line[0]], dist[MARGIN : line[0], across])
    mask[line[1] :] = _mask(dist[line[1] :], dist[line[1] : 2 * SIDE - MARGIN, across])
    spots = _spots(mask[MARGIN : 2 * SIDE - MARGIN, across], (line[0] - MARGIN, line[1] - MARGIN))
    top = [spot for spot, centre in spots if centre < line[0] - MARGIN]
    bottom = [spot for spot, centre in spots if centre >= line[0] - MARGIN]
    return Half(top), Half(bottom)


def _mask(dist: NDArray[np.float32], inner: NDArray[np.float32]) -> NDArray[np.uint8]:
    """The pixels of a half that stand out from the face around them (the threshold from the
    half's inner part)."""
    level = max(FLOOR, otsu(inner))
    return (dist > level).astype(np.uint8) * 255


def _spots(mask: NDArray[np.uint8], line: tuple[int, int]) -> list[tuple[Spot, float]]:
    """Filled outlines of the spots with the row of their centre: not those touching the
    tile's edge unless they are round, nor the dividing line's ends, nor a spinner in its
    middle (`line` is the rows the line covers)."""
    h, w = mask.shape
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    out = []
    for contour in contours:
        x, y, cw, ch = cv2.boundingRect(contour)
        area = cv2.contourArea(contour)
        if area < 4:
            continue
        touches = x <= 0 or y <= 0 or x + cw >= w or y + ch >= h
        if touches and max(cw, ch) > 0.45 * w:
            continue
        at_line = y + ch >= line[0] and y <= line[1]
        if at_line and (abs(x + cw / 2 - w / 2) < 0.15 * w or cw > 0.45 * w):
            continue  # a spinner on the dividing line, or the line itself
        perimeter = cv2.arcLength(contour, True)
        roundness = 4 * np.pi * area / (perimeter * perimeter) if perimeter else 0.0
        if touches and roundness < EDGE_ROUNDNESS:
            continue  # the table in a rounded corner, the tile's side, a bevel
        cores = _cores(contour, x, y, cw, ch) if roundness < ROUND else 1
        out.append((Spot(float(area), float(roundness), cores), y + ch / 2))
    return out


def _cores(contour: MatLike, x: int, y: int, cw: int, ch: int) -> int:
    """The round cores of a spot: where it is at least CORE of its widest, apart."""
    blob = np.zeros((ch + 2, cw + 2), np.uint8)
    cv2.drawContours(blob, [contour], -1, 255, thickness=cv2.FILLED, offset=(1 - x, 1 - y))
    depth = cv2.distanceTransform(blob, cv2.DIST_L2, 3)
    inner = (depth >= CORE * float(depth.max())).astype(np.uint8)
    found, _ = cv2.connectedComponents(inner)
    return max(1, found - 1)


def typical_pip(all_halves: list[Half]) -> float:
    """The area of one pip on this photo: the median of the round, pip-sized spots."""
    lo, hi = 0.0015 * SIDE * SIDE, 0.05 * SIDE * SIDE
    areas = [
        s.area for h in all_halves for s in h.spots if lo <= s.area <= hi and s.roundness > 0.7
    ]
    if not areas:
        return 0.0
    return float(np.median(areas))


def own_size(half: Half, other: Half, pip: float) -> float:
    """The pip area to count a half with: its own pips' when it shows OWN_PIPS round ones
    (many sets draw a twelve's pips smaller than a two's), else the tile's, else the photo's."""
    for halves in ([half], [half, other]):
        areas = list(_round(halves, pip))
        if len(areas) >= OWN_PIPS:
            own = float(np.median(areas))
            return min(max(own, 0.25 * pip), 3.0 * pip)
    return pip


def _round(halves: list[Half], pip: float) -> Iterator[float]:
    """The areas of the round spots of these halves that could be pips near area `pip`."""
    for half in halves:
        for spot in half.spots:
            if spot.roundness > ROUND and 0.2 * pip <= spot.area <= 3.0 * pip:
                yield spot.area


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
        elif ratio <= 1.7 or (
            spot.roundness > ROUND
            and spot.cores == 1
            and (ratio <= 2.6 or spot.area <= BIG_PIP * SIDE * SIDE)
        ):
            # A round spot with one core is one pip, however big (tiles of mixed sizes, a box
            # that held less than its tile): pips run together are neither.
            value += 1
            if spot.roundness < 0.55:
                doubt += 0.15
        elif ratio <= 6.5 or spot.cores > 1:
            # Pips that run together (a blurred photo, a tight column): as many as the area
            # holds, or as many round cores as the spot shows.
            value += max(spot.cores, round(ratio)) if ratio <= 6.5 else spot.cores
            doubt += 0.2
        else:
            doubt += 0.35
    return value, max(0.0, 1.0 - doubt)
