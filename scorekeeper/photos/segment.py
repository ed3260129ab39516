"""Finding the tiles on a photo: what differs from the table, cut into tile-shaped boxes."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

Box = NDArray[np.float32]  # four corners (x, y), the long sides first and last

# A tile is about twice as long as it is wide; perspective and bevels stretch that.
SINGLE_ASPECT = (1.45, 2.7)
# A shape filling less of its rotated box than this is not a tile (glare, a hand, a cup).
MIN_FILL = 0.8


@dataclass
class Found:
    """A tile-shaped box on the working image and whether it was cut out of a bigger shape."""

    box: Box
    split: bool = False


def lab(img: NDArray[np.uint8]) -> NDArray[np.float32]:
    """The image in OpenCV's 8-bit Lab, as floats."""
    return cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.float32)


def distance(lab_img: NDArray[np.float32], colour: NDArray[np.float32]) -> NDArray[np.float32]:
    """How far each pixel is from `colour`; chroma counts a little more than lightness."""
    diff = lab_img - colour
    diff[..., 1:] *= 1.4
    return np.sqrt((diff**2).sum(axis=-1))


def otsu(values: NDArray[np.float32]) -> float:
    """Otsu's threshold of a set of distances (0-255)."""
    clipped = np.clip(values, 0, 255).astype(np.uint8).reshape(-1, 1)
    level, _ = cv2.threshold(clipped, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return float(level)


def foreground(img: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """A mask of what is not table: the table's colour is the median of the photo's border."""
    h, w = img.shape[:2]
    lab_img = lab(cv2.GaussianBlur(img, (0, 0), 1.2))
    band = max(2, min(h, w) // 25)
    border = np.concatenate(
        [
            lab_img[:band].reshape(-1, 3),
            lab_img[-band:].reshape(-1, 3),
            lab_img[:, :band].reshape(-1, 3),
            lab_img[:, -band:].reshape(-1, 3),
        ]
    )
    table = np.median(border, axis=0)
    dist = distance(lab_img, table)
    spread = float(np.percentile(distance(border, table), 90))
    level = max(otsu(dist), 22.0, spread * 1.6)
    mask = (dist > level).astype(np.uint8) * 255
    side = min(h, w)
    small = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, small)
    # Close over pips the colour of the table, then fill whatever holes are left.
    k = max(3, side // 120) | 1
    mask = cv2.morphologyEx(
        mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    )
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 255, thickness=cv2.FILLED)
    return filled


def _upright(rect: tuple[tuple[float, float], tuple[float, float], float]) -> Box:
    """The rectangle's corners ordered so that 0-1 and 2-3 are the short sides."""
    pts = cv2.boxPoints(rect).astype(np.float32)
    if np.linalg.norm(pts[0] - pts[1]) > np.linalg.norm(pts[1] - pts[2]):
        pts = np.roll(pts, -1, axis=0)
    return pts


def _cut(box: Box, pieces: int) -> list[Box]:
    """A box cut across its long sides into `pieces` equal boxes."""
    a, b, c, d = box  # a-b and c-d are the short sides
    out = []
    for i in range(pieces):
        t0, t1 = i / pieces, (i + 1) / pieces
        piece = np.float32([a + (d - a) * t0, b + (c - b) * t0, b + (c - b) * t1, a + (d - a) * t1])
        if np.linalg.norm(piece[0] - piece[1]) > np.linalg.norm(piece[1] - piece[2]):
            piece = np.roll(piece, -1, axis=0)
        out.append(piece.astype(np.float32))
    return out


def tiles(img: NDArray[np.uint8]) -> list[Found]:
    """Every tile-shaped region of the photo, touching tiles cut apart by size and shape."""
    mask = foreground(img)
    h, w = mask.shape
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    min_area = (min(h, w) * 0.035) ** 2
    shapes = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < min_area or area > 0.9 * h * w:
            continue
        rect = cv2.minAreaRect(contour)
        (rw, rh) = rect[1]
        if rw * rh <= 0 or area / (rw * rh) < MIN_FILL:
            continue
        shapes.append((_upright(rect), max(rw, rh) / min(rw, rh), rw * rh))
    singles = [
        area for _box, aspect, area in shapes if SINGLE_ASPECT[0] <= aspect <= SINGLE_ASPECT[1]
    ]
    unit = float(np.median(singles)) if singles else 0.0
    found: list[Found] = []
    for box, aspect, area in shapes:
        if SINGLE_ASPECT[0] <= aspect <= SINGLE_ASPECT[1] and (not unit or area < 1.6 * unit):
            found.append(Found(box))
            continue
        found.extend(_split(box, aspect, area, unit))
    return found


def _split(box: Box, aspect: float, area: float, unit: float) -> list[Found]:
    """Touching tiles in a line: n end to end make a box of aspect 2n, n side by side one of
    aspect n/2; the count whose pieces look most like a tile (and like the lone tiles) wins."""
    options = []
    for pieces in {max(1, round(aspect / 2)), max(1, round(aspect * 2))}:
        piece_aspect = max(aspect / pieces, pieces / aspect)
        fit = abs(math.log(piece_aspect / 2.0))
        if unit:
            fit += abs(math.log((area / pieces) / unit))
        options.append((fit, pieces))
    fit, pieces = min(options)
    if fit > 0.9 or pieces > 30:
        return []
    return [Found(piece, split=pieces > 1) for piece in _cut(box, pieces)]
