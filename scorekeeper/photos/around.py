"""Tiles no mask outlined, found around the tiles found (segment.py): by their dividing lines (a
white tile on a white cloth, one of a tangle), between two found ones, or next to one found in
a row; each judged by the box network (boxnet.py)."""

from __future__ import annotations

import math

import cv2
import numpy as np
from numpy.typing import NDArray

from . import boxnet
from . import thresholds as th
from .boxes import Box, Found, choose, overlap


def beside(img: NDArray[np.uint8], kept: list[Found]) -> list[Found]:
    """The tiles no mask outlined, found by the tiles `kept` (measured by them, none over them):
    by their dividing lines, then between two tiles a tile apart, then next to a tile found
    (NEXT_ROUNDS times, next to the last round's too)."""
    more = from_bars(img, kept)
    if more and not kept:
        # Measured by the tiles its first bars found, the rest of the photo's bars.
        more += from_bars(img, more)
    more += between(img, kept + more)
    for _ in range(th.NEXT_ROUNDS):
        added = next_to(img, kept + more)
        if not added:
            break
        more += added
    return more


def next_to(img: NDArray[np.uint8], kept: list[Found]) -> list[Found]:
    """A tile missed next to a found one, in a row or a column: the box a tile's width (or
    length) beside each tile found, inside the photo and over no tile found, kept when the box
    network judges it one whole tile."""
    h, w = img.shape[:2]
    proposals: list[Box] = []
    for a in kept:
        for side in (a.box[1] - a.box[0], a.box[2] - a.box[1]):
            for step in (side, -side):
                box = np.asarray(a.box + step, np.float32)
                if box.min() >= 0 and box[:, 0].max() < w and box[:, 1].max() < h:
                    proposals.append(box)
    return _boxnet_keeps(img, proposals, kept, th.KEEP_NEXT)


def _boxnet_keeps(
    img: NDArray[np.uint8], proposals: list[Box], kept: list[Found], need: float
) -> list[Found]:
    """The proposals over no tile found that the box network gives `need` odds of being one
    whole tile, none overlapping another."""
    areas = [float(cv2.contourArea(k.box)) for k in kept]
    proposals = [
        box
        for box in proposals
        if not any(
            overlap(box, k.box) > th.BAR_OVERLAP * a for k, a in zip(kept, areas, strict=True)
        )
    ]
    if not proposals:
        return []
    odds = boxnet.tile_odds(img, proposals)
    return choose(
        [
            (-float(p), Found(box, split=True, odds=float(p)))
            for box, p in zip(proposals, odds, strict=True)
            if p >= need
        ]
    )


def from_bars(img: NDArray[np.uint8], kept: list[Found]) -> list[Found]:
    """Tiles no mask outlined (white on a white cloth, one of a tangle of touching tiles), found
    by their dividing lines: a box the size of the tiles already found, centred on each bar
    that lies on none of them, kept when the box network is sure it is one whole tile."""
    width = float(np.median([np.linalg.norm(k.box[1] - k.box[0]) for k in kept])) if kept else 0
    areas = [float(cv2.contourArea(k.box)) for k in kept]
    proposals: list[Box] = []
    needs: list[float] = []  # the odds each proposal needs
    lines = [
        b for b in bars(img) if not width or th.BAR_LENGTH * width <= b[2] <= th.BAR_LONGEST * width
    ]
    # On a busy photo (print, weave, grain), the longest only: a dividing line is long.
    lines = sorted(lines, key=lambda b: -b[2])[: th.MAX_BARS]
    for centre, along, length, run in lines:
        if width:
            sizes = [th.BAR_SIZES[0] * width, width, th.BAR_SIZES[1] * width]
        else:
            # No tile to measure by: a dividing line spans most of its tile's width.
            sizes = [length / share for share in th.BAR_SPANS]
        across = np.array([-along[1], along[0]], np.float32)
        for size in sizes:
            half_w, half_l = along * size / 2, across * size
            box = np.array(
                [
                    centre - half_w - half_l,
                    centre + half_w - half_l,
                    centre + half_w + half_l,
                    centre - half_w + half_l,
                ],
                np.float32,
            )
            area = size * size * 2
            if not any(
                overlap(box, k.box) > th.BAR_OVERLAP * min(area, a)
                for k, a in zip(kept, areas, strict=True)
            ):
                proposals.append(box)
                needs.append(th.KEEP_FROM_RUN if run else th.KEEP_FROM_BAR)
    if not proposals:
        return []
    odds = boxnet.tile_odds(img, proposals)
    likely = [
        (-float(p), box) for box, p, need in zip(proposals, odds, needs, strict=True) if p >= need
    ]
    if not likely:
        return []
    strength = _gradient(img)
    ranked = [
        (rank, Found(box, split=True, odds=-rank))
        for rank, box in likely
        if _outlined(strength, box)
    ]
    return choose(ranked)


def between(img: NDArray[np.uint8], kept: list[Found]) -> list[Found]:
    """A tile missed between two found ones of a row or a column (many pips that hide its
    seams and its dividing line): where two tiles lie side by side or end to end, alike, one
    tile's width (or length) apart, the box between them, kept when it overlaps no tile found
    and the box network judges it one whole tile."""
    areas = [float(cv2.contourArea(k.box)) for k in kept]
    proposals: list[Box] = []
    for a, area_a in zip(kept, areas, strict=True):
        short = a.box[1] - a.box[0]
        long = a.box[2] - a.box[1]
        for b, area_b in zip(kept, areas, strict=True):
            gap = b.box.mean(axis=0) - a.box.mean(axis=0)
            for side in (short, long):
                size = float(np.linalg.norm(side))
                if size < 1:
                    continue
                along = float(np.dot(gap, side)) / size
                off = float(np.linalg.norm(gap - along * side / size))
                if (
                    th.BETWEEN_SPAN[0] * size <= along <= th.BETWEEN_SPAN[1] * size
                    and off <= th.BETWEEN_OFF * size
                    and abs(area_b / max(area_a, 1.0) - 1) <= th.BETWEEN_SIZE
                ):
                    proposals.append(np.asarray(a.box + gap / 2, np.float32))
    return _boxnet_keeps(img, proposals, kept, th.KEEP_BETWEEN)


def _gradient(img: NDArray[np.uint8]) -> NDArray[np.float32]:
    """How strongly the brightness changes at each pixel."""
    grey = cv2.GaussianBlur(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), (0, 0), th.GRADIENT_BLUR)
    grey = grey.astype(np.float32)
    gx, gy = cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1)
    return np.asarray(cv2.magnitude(gx, gy), np.float32)


def _outlined(strength: NDArray[np.float32], box: Box) -> bool:
    """Whether at least three sides of the box lie on an edge (a tile's rim, its shadow, the
    seam with a touching tile): along each side, the strongest change within a tenth of the
    tile's width of it, at least OUTLINE times the typical change on the face (plus a little:
    a plain face changes nowhere). A line on a page or in wood grain has no such outline."""
    h, w = strength.shape
    centre = box.mean(axis=0)
    reach = max(th.OUTLINE_REACH_MIN, th.OUTLINE_REACH * float(np.linalg.norm(box[1] - box[0])))
    inner = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(inner, (centre + (box - centre) * th.OUTLINE_FACE).astype(np.int32), 1)
    face = float(np.median(strength[inner > 0])) if inner.any() else 0.0
    sides = []
    for i in range(4):
        start, end = box[i], box[(i + 1) % 4]
        normal = (start + end) / 2 - centre
        normal = normal / max(float(np.linalg.norm(normal)), 1e-6)
        along = start + (end - start) * np.linspace(*th.OUTLINE_SPAN, th.OUTLINE_SAMPLES)[:, None]
        points = (
            along[:, None, :] + normal * np.linspace(-reach, reach, th.OUTLINE_DEPTH)[None, :, None]
        )
        xs = np.clip(np.rint(points[..., 0]).astype(int), 0, w - 1)
        ys = np.clip(np.rint(points[..., 1]).astype(int), 0, h - 1)
        sides.append(float(np.median(strength[ys, xs].max(axis=1))))
    return sorted(sides)[1] >= th.OUTLINE * (face + th.OUTLINE_PLAIN)


def bars(
    img: NDArray[np.uint8],
) -> list[tuple[NDArray[np.float32], NDArray[np.float32], float, bool]]:
    """The straight bars of the photo, darker or lighter than what is around them (a tile's
    dividing line, but also a seam, a letter or a line of wood): centre, unit direction, length."""
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape
    side = min(h, w)
    # What is darker (black-hat) or lighter (top-hat) than its surroundings by BAR_CONTRAST and
    # thinner than the kernel: lines and small pips, not the edge of a tile or of a shadow.
    size = max(th.BAR_KERNEL_MIN, side // th.BAR_KERNEL_PARTS) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (size, size))
    block = max(th.BAR_BLOCK_MIN, side // th.BAR_BLOCK_PARTS) | 1
    masks: list[NDArray[np.uint8]] = [
        ((cv2.morphologyEx(grey, op, kernel) > th.BAR_CONTRAST) * 255).astype(np.uint8)
        for op in (cv2.MORPH_BLACKHAT, cv2.MORPH_TOPHAT)
    ]
    # And what is darker than the mean of a wider block around it by BAR_LOCAL: a dividing
    # line that the black-hat joins to the seams at its ends, between touching tiles.
    masks.append(
        np.asarray(
            cv2.adaptiveThreshold(
                grey, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, th.BAR_LOCAL
            ),
            dtype=np.uint8,
        )
    )
    out = []
    for found in masks:
        # A line a pixel thin (a small photo, a slanting line) has no area until thickened.
        mask = cv2.dilate(found, np.ones((th.SPECK, th.SPECK), np.uint8))
        contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        for contour in contours:
            (cx, cy), (rw, rh), angle = cv2.minAreaRect(contour)
            long, thick = max(rw, rh), min(rw, rh)
            if thick < 1 or long < th.BAR_SHORTEST * side or long < th.BAR_ASPECT * thick:
                continue
            if cv2.contourArea(contour) < th.BAR_FILL * rw * rh:
                continue
            theta = math.radians(angle if rw >= rh else angle + 90)
            along = np.array([math.cos(theta), math.sin(theta)], np.float32)
            out.append((np.array([cx, cy], np.float32), along, float(long), False))
    # A dividing line that touches something else (the seams at its ends on a small photo, a
    # pip) makes no bar-shaped outline: the straight runs of the thin lines' masks.
    shortest = max(th.RUN_MIN, int(th.RUN_SHORTEST * side))
    step = max(th.RUN_STEP_MIN, th.RUN_STEP * side)
    seen: set[tuple[int, int, int]] = set()
    for found in masks[:2]:
        runs = cv2.HoughLinesP(
            found,
            1,
            math.pi / th.RUN_ANGLES,
            threshold=shortest,
            minLineLength=shortest,
            maxLineGap=1,
        )
        for x1, y1, x2, y2 in runs.reshape(-1, 4) if runs is not None else []:
            start, end = np.array([x1, y1], np.float32), np.array([x2, y2], np.float32)
            length = float(np.linalg.norm(end - start))
            centre = ((start + end) / 2).astype(np.float32)
            along = ((end - start) / max(length, 1e-6)).astype(np.float32)
            key = (
                round(float(centre[0]) / step),
                round(float(centre[1]) / step),
                round(
                    math.degrees(math.atan2(float(along[1]), float(along[0])))
                    % 180
                    / th.RUN_SAME_ANGLE
                )
                % (180 // th.RUN_SAME_ANGLE),
            )
            if key not in seen:
                seen.add(key)
                out.append((centre, along, length, True))
    return out
