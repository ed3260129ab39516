"""Reading each half of a tile with a small network: the half, cut out square and straightened
by the tile's corners, in; how many pips it shows (0-18), out.

The network (models.PIPS: pips.onnx beside this file) was trained only on halves cut from photos
that training/synthetic.py draws, by `make train-photos` (training/pips_data.py and
training/pips_train.py); docs/decisions.md says why. It runs on onnxruntime, on one thread.
"""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np
from numpy.typing import NDArray

from .boxes import Box
from .models import PIPS, run

MODEL = PIPS.path
# A half is read as a CROP x CROP colour square.
CROP = PIPS.height
# The values the network tells apart: 0 to 18 pips (a double-18 set).
VALUES = PIPS.labels


def halves(img: NDArray[np.uint8], box: Box) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]:
    """The two halves of the tile in `box` (corners clockwise, a short side first), each a
    CROP x CROP BGR square: the half by the first short side, then the other."""
    target = np.asarray([[0, 0], [CROP, 0], [CROP, 2 * CROP], [0, 2 * CROP]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(np.asarray(box, dtype=np.float32), target)
    flat = np.asarray(
        cv2.warpPerspective(
            img, matrix, (CROP, 2 * CROP), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
        ),
        dtype=np.uint8,
    )
    return flat[:CROP], flat[CROP:]


def batch(crops: list[NDArray[np.uint8]]) -> NDArray[np.float32]:
    """Crops of (CROP, CROP, 3) as the network takes them: (N, 3, CROP, CROP), 0-255. The
    network itself sets each crop less its own mean colour and divides it by its own spread,
    so light, exposure and the face's colour matter less than what stands out on it."""
    return np.ascontiguousarray(np.stack(crops).astype(np.float32).transpose(0, 3, 1, 2))


# Halves read at once, each in its eight views: a busy photo's halves do not hold every layer's
# output of all of them at once.
BATCH = 32


def probabilities(crops: list[NDArray[np.uint8]]) -> NDArray[np.float32]:
    """For each crop, the probability of each value 0-18 (rows sum to 1)."""
    if not crops:
        return np.zeros((0, VALUES), np.float32)
    parts = [
        np.asarray(run(PIPS, batch(crops[start : start + BATCH * 8])), dtype=np.float32)
        for start in range(0, len(crops), BATCH * 8)
    ]
    logits = np.concatenate(parts)
    logits -= logits.max(axis=1, keepdims=True)
    odds = np.exp(logits)
    return np.asarray(odds / odds.sum(axis=1, keepdims=True), dtype=np.float32)


def views(crop: NDArray[np.uint8]) -> list[NDArray[np.uint8]]:
    """The eight turns and mirrorings of a square half, the half as cut first. A count does not
    change under them, and the network was trained not to tell them apart."""
    out = []
    for quarter in range(4):
        turned = np.rot90(crop, quarter)
        out += [np.ascontiguousarray(turned), np.ascontiguousarray(turned[:, ::-1])]
    return out


class Half(NamedTuple):
    """What the network reads on one half: its value (at most the set's), how sure it is (the
    mean of its probability over the half's eight views), whether its likeliest value is beyond
    the set (a double-12 tile in a double-9 game: the wrong set chosen, or a misread), and the
    share of the eight views whose likeliest value is the value read; for a half read beyond
    the set, how sure the network is of its likeliest value of any set and how many views agree
    on that (whether it is a tile of another set at all, or no tile)."""

    value: int
    sure: float
    beyond: bool
    agree: float
    sure_any: float = 0.0
    agree_any: float = 0.0

    def of_any_set(self) -> Half:
        """The half as read in a game of the biggest set."""
        if not self.beyond:
            return self
        return Half(self.value, self.sure_any, False, self.agree_any, self.sure_any, self.agree_any)


def read(crops: list[NDArray[np.uint8]], set_max: int) -> list[Half]:
    """Each crop's value (at most `set_max`), how sure the network is of it, whether its
    likeliest value is beyond the set, and how many of the crop's views agree.

    The value is the network's reading of the half as cut. How sure: the mean of its
    probability over the half's eight views; where the views disagree the network is guessing
    (a layout of pips it has not learned), which one view's probability does not show
    (bench/README.md, "The '?' marks"). The probability is not scaled up to the set's values,
    so a half read beyond the set keeps a low confidence and is marked for the scorer."""
    if not crops:
        return []
    seen = probabilities([view for crop in crops for view in views(crop)])
    out = []
    for each in seen.reshape(len(crops), 8, VALUES):
        as_cut = each[0]
        value = int(np.argmax(as_cut[: set_max + 1]))
        sure = float(each[:, value].mean())
        agree = float((each.argmax(axis=1) == value).mean())
        likeliest = int(np.argmax(as_cut))
        sure_any = float(each[:, likeliest].mean())
        agree_any = float((each.argmax(axis=1) == likeliest).mean())
        out.append(Half(value, sure, likeliest > set_max, agree, sure_any, agree_any))
    return out
