"""Reading a photo of a hand: each tile with its corners, two values and a confidence, the
total, and advice when the photo is poor. Pure: bytes in, a Reading out, nothing stored."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from scorekeeper.core.problems import N_

from . import around, boxes, models, net, segment
from .decode import decode
from .thresholds import (
    BLOWN,
    BLURRED,
    CUT_EDGE,
    DARK,
    DARK_PERCENTILE,
    DOUBTFUL_HALF,
    GLARE_BLOB,
    GLARE_SHARE,
    GLARE_STEP,
    LOW_CONFIDENCE,
    NOT_A_TILE,
    REPEATED,
    RIGHT_ODDS,
    TWICE,
    WASHED_OUT,
    WASHED_OUT_PERCENTILE,
)

# Advice, by code; the words are translated where they are shown.
ADVICE: dict[str, str] = {
    "none": N_("No tile was found. Lay the tiles face up on a plain table and fill the frame."),
    "blurred": N_("The photo is blurred: hold the phone still, or tap the screen to focus."),
    "dark": N_("The photo is too dark: turn on a light or move nearer to one."),
    "glare": N_("Glare hides some pips: tilt the phone or move away from the lamp."),
    "cut": N_("A tile is cut by the edge of the photo: step back so every tile is inside."),
    "beyond": N_(
        "Some tiles show more pips than this game's set allows: check the tiles marked, or the set."
    ),
}
# One photo, one core: the server's threads and processes already share the cores, and OpenCV's
# own thread pool would only make them compete (and the timing unlike a one-core server's).
cv2.setNumThreads(1)


@dataclass
class Tile:
    """A tile found on the photo: its two values, how sure the reader is, and its corners in the
    photo's own pixels (clockwise, a short side first)."""

    pips: tuple[int, int]
    confidence: float
    corners: list[tuple[float, float]]

    @property
    def low_confidence(self) -> bool:
        return self.confidence < LOW_CONFIDENCE


@dataclass
class Reading:
    """What a photo shows: its tiles, their total, advice codes (keys of ADVICE), its size."""

    tiles: list[Tile] = field(default_factory=list)
    advice: list[str] = field(default_factory=list)
    width: int = 0
    height: int = 0

    @property
    def total(self) -> int:
        return sum(a + b for a, b in (t.pips for t in self.tiles))


def read_photo(data: bytes, set_max: int = 12) -> Reading:
    """Read the tiles on a photo (JPEG, PNG, WebP or HEIC bytes) of a double-`set_max` set.
    Raises decode.NotAnImage or decode.Unreadable when the bytes are not a readable photo."""
    img, scale = decode(data)
    h, w = img.shape[:2]
    found = segment.tiles(img)
    kept, tiles, beyond = _judged(img, found, set_max, scale)
    if len(kept) < len(found):
        # What the segmenter measured the photo by was partly no tile (a checked cloth's
        # squares): the dividing lines and gaps looked at again, measured by the tiles kept.
        more = around.beside(img, kept)
        kept_more, tiles_more, beyond_more = _judged(img, more, set_max, scale, kept)
        kept, tiles, beyond = kept + kept_more, tiles + tiles_more, beyond or beyond_more
    # A set has one of each tile: two read alike are at most one right (thresholds.TWICE).
    read_as = Counter(tuple(sorted(t.pips)) for t in tiles)
    for t in tiles:
        if read_as[tuple(sorted(t.pips))] > 1:
            t.confidence = min(t.confidence, TWICE)
    reading = Reading(tiles, [], round(w * scale), round(h * scale))
    reading.advice = advice(img, kept)
    if beyond:
        reading.advice.append("beyond")
    return reading


def _judged(
    img: NDArray[np.uint8],
    found: list[boxes.Found],
    set_max: int,
    scale: float,
    kept_before: list[boxes.Found] | None = None,
) -> tuple[list[boxes.Found], list[Tile], bool]:
    """The boxes found read, and those unlikely a tile read right left out (thresholds
    NOT_A_TILE, REPEATED): the boxes kept, their tiles, and whether any shows more pips than
    the set allows. `kept_before`: tiles already kept, which the photo's typical tile is
    measured with too."""
    values = net.read([half for f in found for half in net.halves(img, f.box)], set_max)
    sizes = [float(cv2.contourArea(f.box)) for f in found]
    every = sizes + [float(cv2.contourArea(f.box)) for f in kept_before or []]
    typical = float(np.median(every)) if every else 0.0
    judged = []
    for i, f in enumerate(found):
        first, second = values[2 * i], values[2 * i + 1]
        confidence = how_sure(first, second, f, sizes[i], typical)
        over = first.beyond or second.beyond
        # Unlikely a tile read right (a square of a checked cloth, a thing beside the tiles, a
        # tile read too doubtfully to count): left out; the review screen adds a tile back.
        # A tile read surely as one of a bigger set than the game's is kept, and the scorer
        # told of it (a box that is no tile is seldom read surely as anything).
        if confidence < NOT_A_TILE and not (
            over
            and how_sure(first.of_any_set(), second.of_any_set(), f, sizes[i], typical)
            >= LOW_CONFIDENCE
        ):
            continue
        judged.append((f, (first.value, second.value), confidence, over))
    # A set holds one of each tile: many boxes read alike are a pattern of the table (a checked
    # cloth's squares read as its fullest double), not tiles (thresholds.REPEATED).
    read_as = Counter(
        tuple(sorted((values[2 * i].value, values[2 * i + 1].value))) for i in range(len(found))
    )
    kept: list[boxes.Found] = []
    tiles: list[Tile] = []
    beyond = False
    for f, pips, confidence, over in judged:
        if read_as[tuple(sorted(pips))] >= REPEATED:
            continue
        kept.append(f)
        beyond = beyond or over
        corners = [(round(float(x) * scale, 1), round(float(y) * scale, 1)) for x, y in f.box]
        tiles.append(Tile(pips, round(confidence, 2), corners))
    return kept, tiles, beyond


def _log_odds(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


def how_sure(
    first: net.Half, second: net.Half, found: boxes.Found, size: float, typical: float
) -> float:
    """How likely the tile is read right, 0-1: a logistic (thresholds.RIGHT_ODDS, fitted on
    generated tuning photos; bench/README.md, "The '?' marks") of what the networks say of its
    halves (the less sure and the surer, each the mean over the half's eight views, and how
    many views agree on the less agreed half) and of its box (the box network's odds, cut out
    of a bigger shape or not), and of how unlike the photo's tiles its box is: its sides away
    from 1:2, its size away from the photo's typical tile. A half the network doubts caps it."""
    less, more = sorted((first.sure, second.sure))
    short = float(np.linalg.norm(found.box[1] - found.box[0]))
    long = float(np.linalg.norm(found.box[2] - found.box[1]))
    features = (
        1.0,
        _log_odds(less),
        _log_odds(more),
        _log_odds(found.odds),
        float(found.split),
        abs(math.log(max(long, 1.0) / max(short, 1.0) / 2)),
        abs(math.log(max(size, 1.0) / max(typical, 1.0))),
        min(first.agree, second.agree),
    )
    z = sum(w * x for w, x in zip(RIGHT_ODDS, features, strict=True))
    likely = 1 / (1 + math.exp(-min(max(z, -30.0), 30.0)))
    # A doubtful half: the tile is no likelier right than that half (thresholds.DOUBTFUL_HALF).
    return min(likely, less) if less < DOUBTFUL_HALF else likely


def load_models() -> None:
    """Load both networks now rather than on the first photo (a photo worker does so as it
    starts, so no reader waits for it)."""
    for spec in models.SPECS.values():
        models.session(spec)


def advice(img: NDArray[np.uint8], found: list[boxes.Found]) -> list[str]:
    """What is wrong with the photo, if anything (codes of ADVICE)."""
    h, w = img.shape[:2]
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    out = []
    if not found:
        out.append("none")
    inside = np.zeros((h, w), np.uint8)
    for f in found:
        cv2.fillConvexPoly(inside, f.box.astype(np.int32), 255)
    region = inside > 0 if found else np.ones((h, w), bool)
    sharpness = cv2.Laplacian(grey, cv2.CV_64F)[region].var()
    if sharpness < BLURRED:
        out.append("blurred")
    if np.percentile(grey, DARK_PERCENTILE) < DARK:
        out.append("dark")
    if found and _glare(img, grey, found) > GLARE_SHARE * region.sum():
        out.append("glare")
    edge = CUT_EDGE
    for f in found:
        xs, ys = f.box[:, 0], f.box[:, 1]
        if xs.min() < edge or ys.min() < edge or xs.max() > w - 1 - edge or ys.max() > h - 1 - edge:
            out.append("cut")
            break
    return out


def _glare(img: NDArray[np.uint8], grey: NDArray[Any], found: list[boxes.Found]) -> int:
    """How many pixels of the tiles are glare: blown-out blobs brighter than their tile's face,
    or whole tiles blown out with their pips washed away."""
    blown = (img.min(axis=2) >= BLOWN).astype(np.uint8)
    glare = 0
    for f in found:
        mask = np.zeros(grey.shape, np.uint8)
        cv2.fillConvexPoly(mask, f.box.astype(np.int32), 1)
        area = int(mask.sum())
        if not area:
            continue
        face, darkest = np.percentile(grey[mask > 0], [50, WASHED_OUT_PERCENTILE])
        if face >= BLOWN:
            glare += area if darkest > WASHED_OUT else 0
            continue
        if face > BLOWN - GLARE_STEP:
            continue
        _, _, stats, _ = cv2.connectedComponentsWithStats(blown & mask, connectivity=8)
        areas = stats[1:, cv2.CC_STAT_AREA]
        glare += int(areas[areas >= GLARE_BLOB * area].sum())
    return glare
