"""Finding the tiles on a photo: what differs from the table (masks.py), cut into tile-shaped
boxes and judged (boxnet.py); then the tiles found around those (around.py); a close-up that is
the frame."""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np
from cv2.typing import RotatedRect
from numpy.typing import NDArray

from . import around, boxnet
from . import thresholds as th
from .boxes import Box, Found, choose
from .masks import Contour, border_band, distance, edge_regions, foreground, lab, otsu, outlines


def _upright(rect: RotatedRect) -> Box:
    """The rectangle's corners ordered so that 0-1 and 2-3 are the short sides."""
    pts = cv2.boxPoints(rect).astype(np.float32)
    if np.linalg.norm(pts[0] - pts[1]) > np.linalg.norm(pts[1] - pts[2]):
        pts = np.roll(pts, -1, axis=0)
    return pts


def _shapes(
    contours: Sequence[Contour], h: int, w: int, min_area: float, fill: float = 0.0
) -> list[tuple[Box, float, float]]:
    """The solid shapes among outlines (or with `fill`, the shapes filling from that much to
    less than MIN_FILL of their box): upright box, aspect (long / short) and box area."""
    out = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < min_area or area > th.MAX_SHAPE * h * w:
            continue
        rect = cv2.minAreaRect(contour)
        (rw, rh) = rect[1]
        if rw * rh <= 0:
            continue
        solid = area / (rw * rh) >= th.MIN_FILL
        if (not fill and not solid) or (fill and (solid or area / (rw * rh) < fill)):
            continue
        out.append((_upright(rect), max(rw, rh) / min(rw, rh), rw * rh))
    return out


def candidates(
    img: NDArray[np.uint8], wide: bool = False, grids: int = th.GRIDS
) -> list[tuple[float, Found]]:
    """Every tile-shaped box the masks propose, each with how well it fits (lower is better).
    `wide`: also the regions closed by fainter edges, the whole of a tile-shaped group cut as a
    grid, and the cells of the `grids` best grids of each touching group, for a judge
    (boxnet.py) to choose among."""
    h, w = img.shape[:2]
    min_area = (min(h, w) * th.MIN_TILE_SIDE) ** 2
    found: list[tuple[float, Found]] = []
    squares: list[Box] = []
    table_mask = foreground(img)
    sources = [outlines(table_mask), edge_regions(img)]
    if wide:
        sources.append(edge_regions(img, th.FAINT_EDGES))
    choices = grids if wide else 1
    for source, contours in enumerate(sources):
        for box, aspect, _area in _shapes(contours, h, w, min_area):
            if th.SINGLE_ASPECT[0] <= aspect <= th.SINGLE_ASPECT[1]:
                # Four tiles side by side make a 2:1 box too: their pips give them away.
                pieces = grid(img, box, crowded_only=True) if source == 0 else []
                if pieces:
                    found.extend((th.FIT_GRID, piece) for piece in pieces)
                    if not wide:
                        continue
                fit = abs(math.log(aspect / 2.0))
                found.append((fit + th.FIT_PER_SOURCE * source, Found(box)))
            elif source == 0:
                found.extend((th.FIT_GRID, piece) for piece in grid(img, box, choices=choices))
            elif aspect < th.SQUARE_ASPECT:
                squares.append(box)
    found.extend((th.FIT_PAIR, Found(box)) for box in _pairs(squares))
    # Touching tiles that make no full grid (an L, a cross, a row with one tile out of line):
    # the grid of their box, keeping the cells that are tile, not table.
    for box, _aspect, _area in _shapes(sources[0], h, w, min_area * th.PART_AREA, th.PART_FILL):
        cells = [
            c
            for c in grid(img, box, choices=choices)
            if _covered(table_mask, c) and _divided(img, c.box)
        ]
        found.extend((th.FIT_PART, cell) for cell in cells)
    return found


def tiles(img: NDArray[np.uint8]) -> list[Found]:
    """Every tile on the photo, touching tiles cut apart along their seams: the candidates
    judged by the box network (boxnet.py), the likeliest first, none overlapping another."""
    found = candidates(img, wide=True)
    odds = boxnet.tile_odds(img, [f.box for _fit, f in found])
    for (_fit, f), p in zip(found, odds, strict=True):
        f.odds = float(p)
    ranked = sorted(
        (
            (-float(p) + th.FIT_WEIGHT * fit, f)
            for (fit, f), p in zip(found, odds, strict=True)
            if p >= th.KEEP
        ),
        key=lambda c: c[0],
    )
    kept = choose(ranked)
    tiles_found = kept + around.beside(img, kept)
    if (
        len(tiles_found) <= th.FRAME_FEW
        and all(_long_side(f.box) < th.FRAME_SMALL * max(img.shape[:2]) for f in tiles_found)
        and _like_the_border(img, tiles_found)
    ):
        return frame_tile(img) or tiles_found
    return tiles_found


def _like_the_border(img: NDArray[np.uint8], found: list[Found]) -> bool:
    """Whether each box found has the colour of the photo's border, as a part of a close-up's
    tile has (the border is the tile's own face there); a tile on a table differs from it."""
    lab_img = lab(img)
    table = np.median(border_band(lab_img), axis=0)
    for f in found:
        inside = np.zeros(img.shape[:2], np.uint8)
        cv2.fillConvexPoly(inside, f.box.astype(np.int32), 1)
        face = lab_img[inside > 0]
        if not len(face) or float(np.median(distance(face, table))) > th.TABLE_DISTANCE:
            return False
    return True


def _long_side(box: Box) -> float:
    return float(max(np.linalg.norm(box[1] - box[2]), np.linalg.norm(box[0] - box[1])))


def frame_tile(img: NDArray[np.uint8]) -> list[Found]:
    """A close-up of one tile that fills the frame, its rims outside the photo: no mask
    outlines it (a bar on it, a pip or a scratch may be boxed as a small tile), but the photo
    itself is tile-shaped and divided across its middle."""
    h, w = img.shape[:2]
    if not th.FRAME_ASPECT[0] <= max(h, w) / min(h, w) <= th.FRAME_ASPECT[1]:
        return []
    x1, y1 = w - 1.0, h - 1.0
    if h >= w:
        box = np.asarray([[0, 0], [x1, 0], [x1, y1], [0, y1]], np.float32)
    else:
        box = np.asarray([[x1, 0], [x1, y1], [0, y1], [0, 0]], np.float32)
    if not _divided(img, box):
        return []
    # The dividing line spans most of the frame's width, near its middle (a row of tiles
    # across a wide photo shows short lines there, one a tile).
    centre = np.asarray([w / 2, h / 2], np.float32)
    spans = any(
        length >= th.FRAME_LINE * min(h, w)
        and float(np.linalg.norm(middle - centre)) <= th.FRAME_LINE_OFF * max(h, w)
        for middle, _along, length, _run in around.bars(img)
    )
    return [Found(box, split=True, odds=0.5)] if spans else []


def classic(img: NDArray[np.uint8]) -> list[Found]:
    """The tiles as the segmenter chose them before the box network: the best-fitting shapes
    first (the pip reader's training data is cut by these, so it does not depend on
    tiles.onnx)."""
    return choose(candidates(img))


def _covered(mask: NDArray[np.uint8], found: Found) -> bool:
    """Whether the cell lies on what is not table for at least COVERED of its area."""
    cell = np.zeros(mask.shape, np.uint8)
    cv2.fillConvexPoly(cell, found.box.astype(np.int32), 1)
    inside = int(cell.sum())
    return inside > 0 and int(np.count_nonzero(mask[cell > 0])) >= th.COVERED * inside


def _divided(img: NDArray[np.uint8], box: Box) -> bool:
    """Whether the region in `box` has a line across its middle, as a tile has."""
    target = np.asarray([[0, 0], [32, 0], [32, 64], [0, 64]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(box.astype(np.float32), target)
    flat = np.asarray(cv2.warpPerspective(img, matrix, (32, 64)), dtype=np.uint8)
    grey = cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY).astype(np.float32)[4:60, 8:24]
    rows = np.abs(grey - float(np.median(grey))).mean(axis=1)
    middle = float(rows[24:32].max())
    return middle > th.DIVIDED * max(1.0, float(np.median(rows)))


def _pairs(squares: list[Box]) -> list[Box]:
    """Two halves of one tile, split apart by a dividing line that reaches the tile's edges:
    squares of the same size side by side make one tile."""
    out = []
    squares = squares[: th.MAX_SQUARES]
    for i, first in enumerate(squares):
        for second in squares[i + 1 :]:
            a1, a2 = cv2.contourArea(first), cv2.contourArea(second)
            if not th.PAIR_AREAS[0] < a1 / max(a2, 1.0) < th.PAIR_AREAS[1]:
                continue
            side = math.sqrt((a1 + a2) / 2)
            gap = float(np.linalg.norm(first.mean(axis=0) - second.mean(axis=0)))
            if not th.PAIR_GAP[0] * side < gap < th.PAIR_GAP[1] * side:
                continue
            rect = cv2.minAreaRect(np.concatenate([first, second]))
            (rw, rh) = rect[1]
            if min(rw, rh) > 0 and abs(math.log(max(rw, rh) / min(rw, rh) / 2.0)) < th.PAIR_ASPECT:
                out.append(_upright(rect))
    return out


def grid(
    img: NDArray[np.uint8], box: Box, crowded_only: bool = False, choices: int = 1
) -> list[Found]:
    """Tiles touching in rows and columns, as one shape: the grid of 2:1 cells whose cell size
    suits the pips inside and whose cut lines run along the darkest seams. `crowded_only`: a
    tile-shaped box, cut only when its pips are far too small for one tile. `choices`: the
    cells of that many of the best-scored grids."""
    a, b, c, d = box
    short, long = float(np.linalg.norm(b - a)), float(np.linalg.norm(c - b))
    if short < th.GRID_SMALLEST:
        return []
    scale = min(1.0, th.GRID_LONGEST / long)
    sw, lw = max(th.GRID_SMALLEST, int(short * scale)), max(th.GRID_SMALLEST, int(long * scale))
    target = np.asarray([[0, 0], [0, sw], [lw, sw], [lw, 0]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(np.asarray([a, b, c, d], dtype=np.float32), target)
    flat = np.asarray(cv2.warpPerspective(img, matrix, (lw, sw)), dtype=np.uint8)
    grey = cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY).astype(np.float32)
    pip, spots = _pip_diameter(flat)
    if crowded_only and not (pip and sw > th.CELL_PIPS[1] * pip):
        return []
    level = float(np.median(grey))
    scored: list[tuple[float, int, int]] = []
    for nx in range(1, th.GRID_ALONG + 1):
        for ny in range(1, th.GRID_ACROSS + 1):
            cw, ch = lw / nx, sw / ny
            aspect = max(cw, ch) / min(cw, ch)
            if (
                abs(math.log(aspect / 2.0)) > th.CELL_ASPECT
                or nx * ny < 2
                or nx * ny > th.GRID_CELLS
            ):
                continue
            if pip and not th.CELL_PIPS[0] * pip <= min(cw, ch) <= th.CELL_PIPS[1] * pip:
                continue
            score = _grid_score(grey, spots, level, nx, ny) - th.GRID_ASPECT_COST * abs(
                math.log(aspect / 2.0)
            )
            scored.append((score, nx, ny))
    back = np.linalg.inv(matrix)
    out = []
    for _score, nx, ny in sorted(scored, reverse=True)[:choices]:
        xs = _settle(grey, spots, [i * lw / nx for i in range(nx + 1)], axis=0)
        ys = _settle(grey, spots, [j * sw / ny for j in range(ny + 1)], axis=1)
        for i in range(nx):
            for j in range(ny):
                corners = [
                    [xs[i], ys[j]],
                    [xs[i + 1], ys[j]],
                    [xs[i + 1], ys[j + 1]],
                    [xs[i], ys[j + 1]],
                ]
                cell = np.array([corners], dtype=np.float32)
                piece = cv2.perspectiveTransform(cell, back)[0]
                if np.linalg.norm(piece[0] - piece[1]) > np.linalg.norm(piece[1] - piece[2]):
                    piece = np.roll(piece, -1, axis=0)
                out.append(Found(piece.astype(np.float32), split=True))
    return out


def _settle(
    grey: NDArray[np.float32], spots: NDArray[np.bool_], cuts: list[float], axis: int
) -> list[float]:
    """Each inner cut moved, within a fifth of a cell, to the darkest line that crosses no pip:
    tiles in a real row are not all the same width, nor evenly spaced."""
    if len(cuts) < 3:
        return cuts
    step = cuts[1] - cuts[0]
    # The mean brightness and the pips crossed by each line across the stretch.
    profile = grey.mean(axis=axis)
    crossed = spots.mean(axis=axis)
    settled = [cuts[0]]
    for cut in cuts[1:-1]:
        lo, hi = (
            int(max(1, cut - step / th.SETTLE_PARTS)),
            int(min(len(profile) - 2, cut + step / th.SETTLE_PARTS)),
        )
        if hi <= lo:
            settled.append(cut)
            continue
        window = profile[lo : hi + 1] + th.SETTLE_PIP_COST * crossed[lo : hi + 1]
        settled.append(float(lo + int(np.argmin(window))))
    settled.append(cuts[-1])
    return settled


def _grid_score(
    grey: NDArray[np.float32], spots: NDArray[np.bool_], level: float, nx: int, ny: int
) -> float:
    """How well a grid fits: its cuts run along dark seams and through no pip, and each cell
    has a dividing line (darker or lighter than the face) across its middle."""
    sw, lw = grey.shape
    cw, ch = lw / nx, sw / ny
    cut_cols = [int(i * cw) for i in range(1, nx)]
    cut_rows = [int(j * ch) for j in range(1, ny)]
    seam = [grey[:, max(0, x - 1) : x + 2].mean() for x in cut_cols]
    seam += [grey[max(0, y - 1) : y + 2, :].mean() for y in cut_rows]
    through = [spots[:, x].mean() for x in cut_cols] + [spots[y, :].mean() for y in cut_rows]
    dividers = []
    for i in range(nx):
        for j in range(ny):
            x0, x1, y0, y1 = int(i * cw), int((i + 1) * cw), int(j * ch), int((j + 1) * ch)
            if cw > ch:  # the cell lies along the stretch: its divider is a column
                mid, lo, hi = (x0 + x1) // 2, y0 + (y1 - y0) // 5, y1 - (y1 - y0) // 5
                band = grey[lo:hi, max(0, mid - 1) : mid + 2]
            else:
                mid, lo, hi = (y0 + y1) // 2, x0 + (x1 - x0) // 5, x1 - (x1 - x0) // 5
                band = grey[max(0, mid - 1) : mid + 2, lo:hi]
            dividers.append(abs(float(band.mean()) - level) if band.size else 0.0)
    return (
        float(np.mean(dividers))
        + th.SEAM_WEIGHT * (level - float(np.mean(seam)))
        - th.THROUGH_PIP_COST * float(np.mean(through))
    )


def _pip_diameter(flat: NDArray[np.uint8]) -> tuple[float, NDArray[np.bool_]]:
    """The typical diameter of the round spots on a stretch of tiles (0 when there are fewer
    than three) and a mask of those spots."""
    lab_img = lab(flat)
    dist = distance(lab_img, np.median(lab_img.reshape(-1, 3), axis=0))
    mask = (dist > max(th.PIP_DISTANCE, otsu(dist))).astype(np.uint8) * 255
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    total = flat.shape[0] * flat.shape[1]
    areas = []
    spots = np.zeros(mask.shape, np.uint8)
    for contour in contours:
        area = cv2.contourArea(contour)
        perimeter = cv2.arcLength(contour, True)
        if th.PIP_AREA[0] * total < area < th.PIP_AREA[1] * total and perimeter:
            if 4 * math.pi * area / perimeter**2 > th.PIP_ROUND:
                areas.append(area)
                cv2.drawContours(spots, [contour], -1, 1, thickness=cv2.FILLED)
    if len(areas) < th.PIP_FEWEST:
        return 0.0, spots > 0
    return math.sqrt(4 * float(np.median(areas)) / math.pi), spots > 0
