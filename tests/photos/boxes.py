"""How alike two boxes on a photo are, for tests that check a tile was found where it lies."""

from __future__ import annotations

import cv2
import numpy as np


def iou(a: np.ndarray, b: np.ndarray) -> float:
    """The area two convex boxes share over the area they cover together."""
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    shared, _ = cv2.intersectConvexConvex(a, b)
    union = cv2.contourArea(a) + cv2.contourArea(b)
    return float(shared) / (float(union) - float(shared))
