"""Synthetic photos of domino hands with known tiles: what the tests and the benchmark read.

Every photo is drawn from a seed, so a test names its photo by a number. The drawing covers the
kinds of photo the reader must handle: double-6 to double-18 sets, white, ivory, coloured and
black tiles, black, coloured, pale and white pips, light, dark and coloured tables with a
texture, tiles scattered at any angle or standing side by side as a hand is held, a perspective,
uneven light, glare, blur, noise and JPEG compression. Nothing here is a real photo.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]
Point = tuple[float, float]

# Colours are BGR (OpenCV's order).
TILE_FACES: dict[str, tuple[int, int, int]] = {
    "white": (246, 246, 244),
    "ivory": (200, 230, 240),
    "pink": (190, 150, 235),
    "green": (120, 170, 90),
    "blue": (200, 140, 70),
    "black": (30, 30, 30),
}
TABLES: dict[str, tuple[int, int, int]] = {
    "black": (25, 25, 25),
    "dark wood": (30, 55, 90),
    "green felt": (50, 100, 30),
    "light wood": (120, 170, 210),
    "white cloth": (225, 228, 230),
    "grey": (140, 140, 140),
    "yellow towel": (60, 200, 230),
}
# The pip colour of each value in a coloured-pip double-12 set (0 has no pips).
NUMBER_COLOURS: tuple[tuple[int, int, int], ...] = (
    (0, 0, 0),
    (190, 120, 40),
    (40, 150, 40),
    (40, 40, 200),
    (120, 60, 60),
    (20, 140, 220),
    (190, 50, 120),
    (40, 160, 190),
    (150, 40, 90),
    (30, 90, 30),
    (160, 90, 20),
    (40, 40, 40),
    (70, 70, 160),
    (90, 90, 20),
    (20, 100, 160),
    (160, 30, 160),
    (40, 120, 120),
    (120, 40, 160),
    (60, 60, 130),
)


def pip_layout(value: int) -> list[Point]:
    """Where the pips of `value` sit in a unit square (the usual patterns, columns above 9)."""
    c, lo, hi = 0.5, 0.22, 0.78
    fixed: dict[int, list[Point]] = {
        0: [],
        1: [(c, c)],
        2: [(lo, lo), (hi, hi)],
        3: [(lo, lo), (c, c), (hi, hi)],
        4: [(lo, lo), (hi, lo), (lo, hi), (hi, hi)],
        5: [(lo, lo), (hi, lo), (c, c), (lo, hi), (hi, hi)],
        6: [(lo, y) for y in (lo, c, hi)] + [(hi, y) for y in (lo, c, hi)],
        7: [(lo, y) for y in (lo, c, hi)] + [(hi, y) for y in (lo, c, hi)] + [(c, c)],
        8: [(lo, y) for y in (lo, c, hi)] + [(hi, y) for y in (lo, c, hi)] + [(c, 0.36), (c, 0.64)],
        9: [(x, y) for x in (lo, c, hi) for y in (lo, c, hi)],
    }
    if value in fixed:
        return fixed[value]
    # Three columns: the outer two hold `side` pips, the middle the rest.
    side = (value + 2) // 3 if value <= 12 else min(6, (value + 2) // 3)
    middle = value - 2 * side
    points: list[Point] = []
    top, bottom = 0.12, 0.88
    for x, count in ((lo, side), (c, middle), (hi, side)):
        for i in range(count):
            points.append((x, top + (bottom - top) * (i + 0.5) / count))
    return points


@dataclass
class Photo:
    """A drawn photo: JPEG bytes, the tiles on it (as drawn) and their corners in pixels."""

    jpeg: bytes
    tiles: list[tuple[int, int]]
    corners: list[list[Point]] = field(default_factory=list)
    kind: str = ""

    @property
    def total(self) -> int:
        return sum(a + b for a, b in self.tiles)


def _tile_image(
    rng: random.Random, a: int, b: int, short: int, face: str, pips: str, set_max: int
) -> Image:
    """One upright tile (value a on top), `short` pixels wide and twice as tall."""
    height, width = 2 * short, short
    colour = np.array(TILE_FACES[face], dtype=np.float32)
    colour = np.clip(colour + rng.uniform(-12, 12), 0, 255)
    img = np.empty((height, width, 3), np.uint8)
    img[:] = colour.astype(np.uint8)
    # A darker bevel along the edge, as real tiles show one.
    edge = tuple(int(v * 0.72) for v in colour)
    cv2.rectangle(img, (0, 0), (width - 1, height - 1), edge, max(1, short // 30))
    dark_face = face == "black"
    line = (200, 200, 200) if dark_face else tuple(int(v * 0.55) for v in colour)
    margin = short // 8
    cv2.line(img, (margin, short), (width - margin, short), line, max(1, short // 28))
    # D6 and D9 pips are bigger; D15/D18 halves hold up to 18, so they are smaller.
    radius = short * (0.085 if set_max <= 9 else 0.06 if set_max <= 12 else 0.046)
    pip: tuple[int, ...]
    for half, value in ((0, a), (1, b)):
        for x, y in pip_layout(value):
            if pips == "coloured":
                pip = NUMBER_COLOURS[value]
            elif pips == "pale":
                pip = tuple(int(v * 0.72) for v in colour)
            elif pips == "white" or dark_face:
                pip = (235, 235, 235)
            elif pips == "yellow":
                pip = (40, 210, 235)
            else:
                pip = (25, 25, 25)
            centre = (x * width, half * short + y * short)
            r = radius * rng.uniform(0.95, 1.05)
            cv2.circle(
                img,
                (int(centre[0] * 16), int(centre[1] * 16)),
                int(r * 16),
                pip,
                -1,
                cv2.LINE_AA,
                4,
            )
            if pips == "raised":
                hi_pt = (int((centre[0] - r / 3) * 16), int((centre[1] - r / 3) * 16))
                cv2.circle(img, hi_pt, int(r * 5), (230, 230, 230), -1, cv2.LINE_AA, 4)
    return img


def _table(rng: random.Random, width: int, height: int, table: str) -> Image:
    """The table: a colour with texture and a soft light gradient."""
    base = np.array(TABLES[table], dtype=np.float32)
    noise = rng.uniform(3, 12)
    img = np.empty((height, width, 3), np.float32)
    img[:] = base
    grain = np.random.default_rng(rng.randrange(2**32)).normal(0, noise, (height, width, 1))
    img += cv2.GaussianBlur(grain.astype(np.float32), (0, 0), 1.5)[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def _place(
    rng: random.Random, count: int, short: int, width: int, height: int, row: bool
) -> list[tuple[Point, float]]:
    """Centres and angles of `count` tiles that do not overlap (a held row touches)."""
    if row:
        gap = rng.choice([0, 1, 2, 4])
        angle = rng.uniform(-12, 12)
        span = count * (short + gap)
        x0 = width / 2 - span / 2 + short / 2
        cy = height / 2 + rng.uniform(-0.1, 0.1) * height
        rad = math.radians(angle)
        out = []
        for i in range(count):
            dx = (i * (short + gap) + x0) - width / 2
            out.append(((width / 2 + dx * math.cos(rad), cy + dx * math.sin(rad)), angle))
        return out
    taken = np.zeros((height, width), np.uint8)
    out = []
    for _ in range(count):
        for _attempt in range(200):
            angle = rng.uniform(0, 180)
            centre = (
                rng.uniform(short * 1.3, width - short * 1.3),
                rng.uniform(short * 1.3, height - short * 1.3),
            )
            box = cv2.boxPoints((centre, (short + 6, 2 * short + 6), angle)).astype(np.int32)
            probe = np.zeros_like(taken)
            cv2.fillConvexPoly(probe, box, 1)
            if not (probe & taken).any():
                taken |= probe
                out.append((centre, angle))
                break
    return out


def make_photo(seed: int, *, tiles: list[tuple[int, int]] | None = None, **force: str) -> Photo:
    """The synthetic photo number `seed`; `tiles` and `force` (face, pips, table, set_max,
    arrangement) pin what a test needs, everything else is drawn from the seed."""
    rng = random.Random(seed)
    set_max = int(force.get("set_max", rng.choice([6, 9, 12, 12, 12, 15, 18])))
    face = force.get(
        "face", rng.choice(["white", "white", "ivory", "ivory", "pink", "green", "blue", "black"])
    )
    pip_styles = ["black", "coloured", "pale"] + (["raised", "yellow"] if face == "pink" else [])
    pips = force.get(
        "pips",
        "white"
        if face in ("black", "blue", "green") and rng.random() < 0.7
        else rng.choice(pip_styles),
    )
    tables = [t for t in TABLES if abs(sum(TABLES[t]) - sum(TILE_FACES[face])) > 60]
    table = force.get("table", rng.choice(tables))
    arrangement = force.get("arrangement", rng.choice(["scattered", "scattered", "row"]))
    if tiles is None:
        count = rng.randint(1, 10 if set_max >= 9 else 7)
        deck = [(x, y) for x in range(set_max + 1) for y in range(x, set_max + 1)]
        tiles = [_swapped(rng, t) if rng.random() < 0.5 else t for t in rng.sample(deck, count)]
    width, height = rng.choice([(1600, 1200), (1200, 1600), (1600, 900), (1280, 960)])
    fill = rng.uniform(0.35, 0.75)
    short = int(min(width, height) * fill / max(3.0, math.sqrt(len(tiles)) * 2.2))
    if arrangement == "row":
        short = int(min(short * 1.2, width * 0.85 / len(tiles)))
    short = max(short, 40)
    canvas = _table(rng, width, height, table)
    placed = _place(rng, len(tiles), short, width, height, arrangement == "row")
    tiles = tiles[: len(placed)]
    corners: list[list[Point]] = []
    for (a, b), (centre, angle) in zip(tiles, placed, strict=True):
        tile = _tile_image(rng, a, b, short, face, pips, set_max)
        h, w = tile.shape[:2]
        matrix = np.asarray(cv2.getRotationMatrix2D((w / 2, h / 2), -angle, 1.0), np.float64)
        matrix[:, 2] += (centre[0] - w / 2, centre[1] - h / 2)
        mask = np.full((h, w), 255, np.uint8)
        warped = cv2.warpAffine(tile, matrix, (width, height), flags=cv2.INTER_LINEAR)
        alpha = cv2.warpAffine(mask, matrix, (width, height)).astype(np.float32)[..., None] / 255
        # A soft shadow first, then the tile.
        shadow = cv2.GaussianBlur(alpha, (0, 0), short / 14)[..., None] * 0.45
        canvas = (canvas * (1 - shadow)).astype(np.float32)
        canvas = (canvas * (1 - alpha) + warped * alpha).astype(np.uint8)
        box = [(0.0, 0.0), (float(w), 0.0), (float(w), float(h)), (0.0, float(h))]
        corners.append([_apply(matrix, p) for p in box])
    canvas, corners = _camera(rng, canvas, corners, force.get("quality", ""))
    ok, buffer = cv2.imencode(".jpg", canvas, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(70, 92)])
    assert ok
    kind = f"D{set_max} {face} tiles, {pips} pips, {table} table, {arrangement}"
    return Photo(buffer.tobytes(), list(tiles), corners, kind)


def _swapped(rng: random.Random, tile: tuple[int, int]) -> tuple[int, int]:
    """The tile's halves in a random order (drawn as `rng.sample` draws them)."""
    first, second = rng.sample(tile, 2)
    return first, second


def _apply(matrix: NDArray[np.float64], point: Point) -> Point:
    x, y = point
    return (
        float(matrix[0, 0] * x + matrix[0, 1] * y + matrix[0, 2]),
        float(matrix[1, 0] * x + matrix[1, 1] * y + matrix[1, 2]),
    )


def _camera(
    rng: random.Random, img: Image, corners: list[list[Point]], quality: str
) -> tuple[Image, list[list[Point]]]:
    """Perspective, uneven light, glare, blur and noise, as a phone camera adds them."""
    h, w = img.shape[:2]
    tilt = rng.uniform(0, 0.12)
    src = np.asarray([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    dst = np.asarray(
        [
            [w * tilt * rng.random(), h * tilt * rng.random()],
            [w - w * tilt * rng.random(), h * tilt * rng.random()],
            [w, h],
            [0, h],
        ],
        dtype=np.float32,
    )
    homography = cv2.getPerspectiveTransform(src, dst)
    img = np.asarray(
        cv2.warpPerspective(img, homography, (w, h), borderMode=cv2.BORDER_REPLICATE), np.uint8
    )
    moved = []
    for box in corners:
        pts = cv2.perspectiveTransform(np.asarray([box], dtype=np.float32), homography)[0]
        moved.append([(float(x), float(y)) for x, y in pts])
    out = img.astype(np.float32)
    # Light falling off across the table.
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, 2 * math.pi)
    ramp = (xx * math.cos(angle) + yy * math.sin(angle)) / max(w, h)
    out *= (1 + rng.uniform(0, 0.35) * (ramp - 0.5))[..., None]
    out *= rng.uniform(0.75, 1.1) if quality != "dark" else 0.18
    if quality == "glare" or rng.random() < 0.3:
        gx, gy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
        size = rng.uniform(0.03, 0.08) * max(w, h) * (3 if quality == "glare" else 1)
        glare = np.exp(-(((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * size**2)))
        out += (glare * rng.uniform(120, 220))[..., None]
    sigma = rng.uniform(0, 1.2) if quality != "blurred" else 9.0
    if sigma > 0.3:
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), sigma), dtype=np.float32)
    out += np.random.default_rng(rng.randrange(2**32)).normal(0, rng.uniform(1, 5), out.shape)
    return np.clip(out, 0, 255).astype(np.uint8), moved


def empty_table(seed: int, table: str = "light wood") -> bytes:
    """A photo of a table with no tile on it."""
    rng = random.Random(seed)
    img, _ = _camera(rng, _table(rng, 1200, 900, table), [], "")
    ok, buffer = cv2.imencode(".jpg", img)
    assert ok
    return bytes(buffer.tobytes())
