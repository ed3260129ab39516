"""What on a photo is not table: the masks the segmenter cuts into tile-shaped boxes (segment.py).
The table's colour is the median of the photo's border; a tile on a busy cloth or a towel is
closed by strong edges instead."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
from cv2.typing import MatLike
from numpy.typing import NDArray

from . import thresholds as th

# An outline as OpenCV's findContours gives it (points as int32 rows).
Contour = MatLike


def lab(img: NDArray[np.uint8]) -> NDArray[np.float32]:
    """The image in OpenCV's 8-bit Lab, as floats."""
    return cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.float32)


def distance(lab_img: NDArray[np.float32], colour: NDArray[np.float32]) -> NDArray[np.float32]:
    """How far each pixel is from `colour`; chroma counts a little more than lightness."""
    return nearest(lab_img, [colour])


def nearest(
    lab_img: NDArray[np.float32], colours: list[NDArray[np.float32]]
) -> NDArray[np.float32]:
    """How far each pixel is from the nearest of `colours`, as `distance` measures it."""
    weights = np.asarray([1.0, th.CHROMA_WEIGHT, th.CHROMA_WEIGHT], np.float32)
    weighted = lab_img * weights
    squared: NDArray[np.float32] | None = None
    for colour in colours:
        diff = weighted - np.asarray(colour, np.float32) * weights
        d2 = np.einsum("...k,...k->...", diff, diff)
        squared = d2 if squared is None else np.minimum(squared, d2)
    assert squared is not None
    return np.sqrt(squared)


def otsu(values: NDArray[np.float32]) -> float:
    """Otsu's threshold of a set of distances (0-255)."""
    clipped = np.clip(values, 0, 255).astype(np.uint8).reshape(-1, 1)
    level, _ = cv2.threshold(clipped, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return float(level)


def border_band(lab_img: NDArray[np.float32]) -> NDArray[np.float32]:
    """The pixels of the photo's border band (1/BORDER_PARTS of its short side), as rows."""
    h, w = lab_img.shape[:2]
    band = max(th.BORDER_MIN, min(h, w) // th.BORDER_PARTS)
    return np.concatenate(
        [
            lab_img[:band].reshape(-1, 3),
            lab_img[-band:].reshape(-1, 3),
            lab_img[:, :band].reshape(-1, 3),
            lab_img[:, -band:].reshape(-1, 3),
        ]
    )


def table_colours(border: NDArray[np.float32]) -> list[NDArray[np.float32]]:
    """The table's colours: the border's median, and the main colours of a table of two or more
    (checks, tiles and grout, planks), each at least TABLE_COLOUR_SHARE of the border."""
    colours = [np.median(border, axis=0)]
    sample = np.ascontiguousarray(border[:: max(1, len(border) // th.TABLE_SAMPLE)], np.float32)
    if len(sample) < th.TABLE_COLOURS:
        return colours
    # Started from the border's darkest, middle and lightest thirds, so that a photo is read
    # alike whatever was read before it (OpenCV's own seeding draws from a shared generator).
    ranks = np.argsort(np.argsort(sample[:, 0], kind="stable"), kind="stable")
    start = (ranks * th.TABLE_COLOURS // len(sample)).astype(np.int32).reshape(-1, 1)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 10, 1.0)
    _, found, centres = cv2.kmeans(
        sample, th.TABLE_COLOURS, start, criteria, 1, cv2.KMEANS_USE_INITIAL_LABELS
    )
    shares = np.bincount(np.asarray(found).ravel(), minlength=th.TABLE_COLOURS) / len(sample)
    colours += [
        c
        for c, share in zip(np.asarray(centres), shares, strict=True)
        if share >= th.TABLE_COLOUR_SHARE
    ]
    return colours


def foreground(img: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """A mask of what is not table: the table's colour is the median of the photo's border."""
    h, w = img.shape[:2]
    lab_img = lab(np.asarray(cv2.GaussianBlur(img, (0, 0), th.TABLE_BLUR), dtype=np.uint8))
    border = border_band(lab_img)
    colours = table_colours(border)
    dist = nearest(lab_img, colours)
    near = nearest(border, colours)
    spread = float(np.percentile(near, th.TABLE_SPREAD_PERCENTILE))
    level = max(otsu(dist), th.TABLE_DISTANCE, spread * th.TABLE_SPREAD)
    mask = (dist > level).astype(np.uint8) * 255
    side = min(h, w)
    small = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (th.SPECK, th.SPECK))
    mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, small), dtype=np.uint8)
    # Close over pips the colour of the table, then fill whatever holes are left.
    k = max(th.SPECK, side // th.PIP_HOLE_PARTS) | 1
    mask = np.asarray(
        cv2.morphologyEx(
            mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
        ),
        dtype=np.uint8,
    )
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 255, thickness=cv2.FILLED)
    return filled


def outlines(mask: NDArray[np.uint8]) -> Sequence[Contour]:
    """The outer outline of each shape of a mask."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return contours


def edge_regions(img: NDArray[np.uint8], sensitivity: float = 1.0) -> Sequence[Contour]:
    """The outlines of the regions closed by strong edges (a tile on a busy cloth or a towel):
    each region's outer outline, so the pips and the dividing line inside it do not count.
    A `sensitivity` below 1 lowers the thresholds (fainter seams close more regions)."""
    grey = cv2.GaussianBlur(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), (0, 0), th.EDGE_BLUR)
    # Thresholds from how strong the photo's edges are, not how bright it is (white on white).
    gx, gy = cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1)
    strong = float(np.percentile(cv2.magnitude(gx, gy), th.EDGE_PERCENTILE))
    low, high = (
        max(th.EDGE_LOW, th.EDGE_LOW_SHARE * strong),
        max(th.EDGE_HIGH, th.EDGE_HIGH_SHARE * strong),
    )
    edges = cv2.Canny(grey, low * sensitivity, high * sensitivity)
    edges = cv2.dilate(edges, np.ones((th.SPECK, th.SPECK), np.uint8))
    regions = cv2.bitwise_not(edges)
    contours, hierarchy = cv2.findContours(regions, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    # Outer outlines only; the dilation ate a pixel or two of each region, which the
    # straightening's own inset makes up for.
    return [c for c, link in zip(contours, hierarchy[0], strict=True) if link[3] == -1]
