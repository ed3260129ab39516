"""A tile-shaped box on the working image (what the segmenter finds, the networks judge and the
reader reads), the area two boxes share, and the choice among boxes that overlap."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from . import thresholds as th

Box = NDArray[np.float32]  # four corners (x, y), the long sides first and last


@dataclass
class Found:
    """A tile-shaped box on the working image and whether it was cut out of a bigger shape."""

    box: Box
    split: bool = False  # cut out of a bigger shape, or proposed from its dividing line alone
    odds: float = 1.0  # the box network's odds that the box is one whole tile


def choose(ranked: list[tuple[float, Found]]) -> list[Found]:
    """The boxes in order of rank, leaving out any that overlaps one already kept (the same
    tile seen by two masks) and, among three or more, any much smaller than the others."""
    kept: list[Found] = []
    areas: list[float] = []
    for _rank, found in sorted(ranked, key=lambda c: c[0]):
        area = float(cv2.contourArea(found.box))
        if any(
            overlap(found.box, k.box) > th.SAME_TILE * min(area, a)
            for k, a in zip(kept, areas, strict=True)
        ):
            continue
        kept.append(found)
        areas.append(area)
    if len(areas) > 2:
        # A tile is not much smaller than the others on the same photo (a pip, a fleck).
        typical = float(np.median(areas))
        kept = [k for k, a in zip(kept, areas, strict=True) if a > th.SMALLEST_TILE * typical]
    return kept


def overlap(a: Box, b: Box) -> float:
    """The area two convex boxes share."""
    shared, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return float(shared)
