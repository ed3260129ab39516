"""Judging the segmenter's candidate boxes with a small network: is this box one whole tile?

segment.candidates proposes boxes from several masks and several ways of cutting touching
tiles apart; many overlap, and some are two tiles, half a tile, a cut across a seam or a patch
of a busy cloth. Each box, widened by a margin so the network sees what is around it, is
straightened to a CROP x 2*CROP colour image; the network (models.TILES: tiles.onnx beside this
file, trained only on boxes proposed on synthetic photos by `make train-photos`:
training/tiles_data.py and training/tiles_train.py) gives the odds that it is exactly one tile.
It runs on onnxruntime, on one thread. docs/decisions.md says why.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from .models import TILES, run

MODEL = TILES.path
# A box is seen as a CROP x 2*CROP colour image (its long side down), widened by MARGIN.
CROP = TILES.width
MARGIN = 1.3
# Boxes judged at once.
BATCH = 64


def crop(img: NDArray[np.uint8], box: NDArray[np.float32]) -> NDArray[np.uint8]:
    """The box (corners clockwise, a short side first) widened by MARGIN about its centre and
    straightened to (2*CROP, CROP, 3) BGR."""
    pts = np.asarray(box, dtype=np.float32)
    centre = pts.mean(axis=0)
    wide = centre + (pts - centre) * MARGIN
    target = np.asarray([[0, 0], [CROP, 0], [CROP, 2 * CROP], [0, 2 * CROP]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(wide.astype(np.float32), target)
    return np.asarray(
        cv2.warpPerspective(
            img, matrix, (CROP, 2 * CROP), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
        ),
        dtype=np.uint8,
    )


def tile_odds(img: NDArray[np.uint8], boxes: list[NDArray[np.float32]]) -> NDArray[np.float32]:
    """For each box, the network's odds (0-1) that it holds exactly one whole tile."""
    if not boxes:
        return np.zeros(0, np.float32)
    parts = []
    # In batches, so that a busy photo's hundreds of boxes do not hold every layer's output of
    # all of them at once (~0.2 MB a box).
    for start in range(0, len(boxes), BATCH):
        crops = np.stack([crop(img, box) for box in boxes[start : start + BATCH]])
        batch = np.ascontiguousarray(crops.astype(np.float32).transpose(0, 3, 1, 2))
        parts.append(np.asarray(run(TILES, batch), np.float32))
    logits = np.concatenate(parts).reshape(-1)
    return np.asarray(1 / (1 + np.exp(-np.clip(logits, -30, 30))), np.float32)
