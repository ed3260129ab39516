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

from .textures import HELD_OUT, KINDS, MORE, textured_table
from .textures import colour as any_colour

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
    "paper": (238, 240, 242),
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


def varied_layout(rng: random.Random, value: int) -> list[Point]:
    """Where another set might put the pips of `value`: the usual patterns up to 6 (a six also
    across), and above that two or three columns, the middle one spread over the half or
    packed in its middle."""
    if value <= 5 or (value == 6 and rng.random() < 0.6):
        points = pip_layout(value)
    else:
        options = []
        if value % 2 == 0 and value // 2 <= 6:
            options.append((value // 2, 0))
        for side in range((value + 2) // 3, min(6, value // 2) + 1):
            if 0 < value - 2 * side <= side:
                options.append((side, value - 2 * side))
        if not options:
            return pip_layout(value)
        side, middle = rng.choice(options)
        lo, hi = rng.uniform(0.18, 0.26), rng.uniform(0.74, 0.82)
        top, bottom = rng.uniform(0.1, 0.2), rng.uniform(0.8, 0.9)
        step = (bottom - top) / side
        packed = rng.random() < 0.5
        points = []
        for x, count in ((lo, side), (0.5, middle), (hi, side)):
            for i in range(count):
                if x == 0.5 and packed:
                    y = 0.5 + (i - (count - 1) / 2) * step
                else:
                    y = top + (bottom - top) * (i + 0.5) / count
                points.append((x, y))
        if middle == 0:
            points = [(0.3 if x < 0.5 else 0.7, y) for x, y in points]
    if rng.random() < 0.5:
        points = [(y, x) for x, y in points]  # the same pattern across the half
    return [(x + rng.uniform(-0.03, 0.03), y + rng.uniform(-0.03, 0.03)) for x, y in points]


# How sets lay out their pips (`make_photo(..., every=True)`): a set keeps one way for all its
# values, so a photo draws its set's way once (SetStyle). "usual": the patterns above; "columns":
# varied_layout's two or three columns; "lattice": the value's pips on a grid of rows and
# columns, as a set that is symmetric under a half turn places them (a ten as 3-2-2-3 round a
# rectangle, or 4-2-4; an eight as 3-2-3 or two columns of four; a twelve as three columns of
# four or two of six), the outer places first or any; "scattered": anywhere on the half, no two
# touching, which only counting reads.
LAYOUT_FAMILIES = ("usual", "columns", "lattice", "scattered")


def lattice_layout(rng: random.Random, value: int) -> list[Point]:
    """`value` pips on a grid of rows x columns, symmetric under a half turn."""
    if value == 0:
        return []
    grids = [
        (rows, cols)
        for rows in range(1, 7)
        for cols in range(1, 5)
        if rows >= cols and value <= rows * cols + (rows * cols) % 2 <= 2 * value + 2
    ]
    for _ in range(20):
        rows, cols = rng.choice(grids)
        cells = [(i, j) for i in range(rows) for j in range(cols)]
        orbits: list[list[tuple[int, int]]] = []
        seen: set[tuple[int, int]] = set()
        for i, j in cells:
            if (i, j) in seen:
                continue
            other = (rows - 1 - i, cols - 1 - j)
            seen |= {(i, j), other}
            orbits.append([(i, j)] if other == (i, j) else [(i, j), other])
        pairs = [o for o in orbits if len(o) == 2]
        centre = [o for o in orbits if len(o) == 1]
        outer_first = rng.random() < 0.6
        rng.shuffle(pairs)
        if outer_first:
            pairs.sort(key=lambda o: min(o[0][0], rows - 1 - o[0][0], o[0][1], cols - 1 - o[0][1]))
        need = value
        chosen: list[tuple[int, int]] = []
        extra_centre = False
        if value % 2:
            if centre:
                chosen += centre[0]
            else:
                extra_centre = True
            need -= 1
        if need > 2 * len(pairs):
            continue
        for o in pairs[: need // 2]:
            chosen += o
        lo, top = rng.uniform(0.17, 0.27), rng.uniform(0.1, 0.2)
        hi, bottom = 1 - lo, 1 - top
        xs = [0.5] if cols == 1 else [lo + (hi - lo) * j / (cols - 1) for j in range(cols)]
        ys = [0.5] if rows == 1 else [top + (bottom - top) * i / (rows - 1) for i in range(rows)]
        points = [(xs[j], ys[i]) for i, j in chosen] + ([(0.5, 0.5)] if extra_centre else [])
        if _spacing(points) >= 0.11:
            return points
    return pip_layout(value)


def scattered_layout(rng: random.Random, value: int) -> list[Point]:
    """`value` pips anywhere on the half, none touching another."""
    gap = min(0.24, 0.62 / math.sqrt(max(value, 1)))
    for _ in range(50):
        points: list[Point] = []
        for _try in range(400):
            if len(points) == value:
                break
            p = (rng.uniform(0.14, 0.86), rng.uniform(0.14, 0.86))
            if all(math.dist(p, q) >= gap for q in points):
                points.append(p)
        if len(points) == value:
            return points
    return lattice_layout(rng, value)


def _spacing(points: list[Point]) -> float:
    """The least distance between two pips of a half (1.0 for fewer than two)."""
    return min(
        (math.dist(p, q) for i, p in enumerate(points) for q in points[i + 1 :]), default=1.0
    )


class SetStyle:
    """How one set draws its pips: one layout family, each value laid out once (every tile of
    the photo that shows a value shows it alike), pip size, and for coloured pips a colour per
    value of its own (colour says nothing of the count)."""

    def __init__(self, rng: random.Random, set_max: int) -> None:
        self.rng = rng
        self.family = rng.choice(LAYOUT_FAMILIES + ("lattice",))
        self.usual_to = rng.choice([0, 6, 6, 9])  # values drawn the usual way even so
        self.across = rng.random() < 0.5
        self.size = rng.uniform(0.06, 0.1) if set_max <= 9 else rng.uniform(0.045, 0.085)
        self.palette = [_any_colour(rng) for _ in range(19)]
        self._layouts: dict[int, list[Point]] = {}

    def layout(self, value: int) -> list[Point]:
        if value not in self._layouts:
            rng = self.rng
            if value <= self.usual_to or self.family == "usual":
                points = pip_layout(value)
            elif self.family == "columns":
                points = varied_layout(rng, value)
            elif self.family == "lattice":
                points = lattice_layout(rng, value)
            else:
                points = scattered_layout(rng, value)
            if self.across and self.family != "columns":
                points = [(y, x) for x, y in points]
            self._layouts[value] = points
        return self._layouts[value]

    def radius(self, value: int) -> float:
        """A pip's radius, a share of the half's side: the set's size, smaller where the
        value's pips sit close."""
        return min(self.size, 0.4 * _spacing(self.layout(value)))


def _any_colour(rng: random.Random) -> tuple[int, int, int]:
    """A strong pip colour (BGR) of any hue, or black or grey."""
    if rng.random() < 0.15:
        v = rng.choice([20, 40, 110, 150])
        return (v, v, v)
    hsv = np.asarray(
        [[[rng.uniform(0, 180), rng.uniform(120, 255), rng.uniform(90, 230)]]], np.uint8
    )
    b, g, r = np.asarray(cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR))[0, 0]
    return int(b), int(g), int(r)


@dataclass
class Photo:
    """A drawn photo: JPEG bytes, the tiles on it (as drawn) and their corners in pixels."""

    jpeg: bytes
    tiles: list[tuple[int, int]]
    corners: list[list[Point]] = field(default_factory=list)
    kind: str = ""
    # The hard kinds of photo this one is (see Look): "white on white", "pale pips", ...
    tags: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(a + b for a, b in self.tiles)


@dataclass
class Look:
    """What makes real photos hard, drawn for each photo apart from its tiles and table (its own
    random stream, so a test that pins the face, pips or table keeps the rest of its photo):
    rounded tiles with a visible side, a metal spinner on the dividing line, shaded pips with a
    highlight (glare inside pips), pale grey pips, a grey or low-resolution photo, tiles
    touching in a grid, white tiles on white cloth or paper."""

    corner: float = 0.0  # corner radius, a share of the tile's width
    side: float = 0.0  # the tile's thickness seen in the photo, a share of its width
    spinner: bool = False
    shaded_pips: bool = False
    highlights: bool = False
    grey_photo: bool = False
    low_res: int = 0  # the longest side of a low-resolution frame, 0 for a full photo
    # Bigger pips on the halves that hold few (many double-12 sets): 1 to 6 big, 10 to 12 small.
    sized_by_value: bool = False
    # Pips laid out as other sets lay them (two or three columns, the middle column spread or
    # packed), a little off their places and of uneven size: the training data's variety
    # (training/pips_data.py), never drawn for the tests or the benchmark.
    varied: bool = False
    # The set's own way of drawing its pips (make_photo(..., every=True)), None for the above.
    style: SetStyle | None = None
    tags: list[str] = field(default_factory=list)


def draw_look(seed: int) -> Look:
    """The look of photo `seed`."""
    rng = random.Random(f"look-{seed}")
    look = Look(
        corner=rng.choice([0.0, 0.06, 0.12]),
        side=rng.choice([0.0, 0.0, 0.05, 0.1]),
        spinner=rng.random() < 0.15,
        shaded_pips=rng.random() < 0.5,
        highlights=rng.random() < 0.35,
        grey_photo=rng.random() < 0.12,
        low_res=rng.choice([360, 480, 640]) if rng.random() < 0.15 else 0,
        sized_by_value=rng.random() < 0.3,
    )
    if look.grey_photo:
        # Pips are hollows: in a grey photo their shading is what still shows a yellow pip
        # on a pink tile.
        look.shaded_pips = True
    if look.highlights:
        look.tags.append("glare in pips")
    if look.low_res:
        look.tags.append("low resolution")
    return look


def _pip_colour(
    rng: random.Random,
    pips: str,
    value: int,
    colour: NDArray[np.float32],
    dark_face: bool,
    palette: list[tuple[int, int, int]] | None = None,
) -> tuple[int, ...]:
    if pips == "coloured":
        return NUMBER_COLOURS[value] if palette is None else palette[value]
    if pips == "pale":
        # Pale pips are a softer tone of the face: darker on a light tile, lighter on a black
        # one (a black tile's face darkened is all but invisible, as no real set is drawn).
        if dark_face:
            return tuple(int(v + (255 - v) * 0.45) for v in colour)
        return tuple(int(v * 0.72) for v in colour)
    if pips == "grey":
        return tuple(int(v) for v in colour * 0.78)
    if pips == "white" or dark_face:
        return (235, 235, 235)
    if pips == "yellow":
        return (40, 210, 235)
    return (25, 25, 25)


def _tile_image(
    rng: random.Random,
    a: int,
    b: int,
    short: int,
    face: str,
    pips: str,
    set_max: int,
    look: Look | None = None,
) -> tuple[Image, NDArray[np.uint8]]:
    """One upright tile (value a on top), `short` pixels wide and twice as tall (plus its side,
    seen below and to the right), and the mask of where it is."""
    look = look or Look()
    height, width = 2 * short, short
    side = int(round(look.side * short))
    colour = np.array(TILE_FACES[face], dtype=np.float32)
    colour = np.clip(colour + rng.uniform(-12, 12), 0, 255)
    img = np.empty((height + side, width + side, 3), np.uint8)
    img[:] = (colour * 0.62).astype(np.uint8)
    mask = np.zeros((height + side, width + side), np.uint8)
    radius = int(look.corner * short)
    # The face, and its side (darker) as the tile's outline pushed down and to the right.
    for k in range(side + 1):
        _rounded(mask, k, k, width - 1 + k, height - 1 + k, radius, 255)
    _rounded(img, 0, 0, width - 1, height - 1, radius, tuple(int(v) for v in colour))
    # A darker bevel along the edge, as real tiles show one.
    edge = tuple(int(v * 0.72) for v in colour)
    if radius < 2:
        cv2.rectangle(img, (0, 0), (width - 1, height - 1), edge, max(1, short // 30))
    dark_face = face == "black"
    line = (200, 200, 200) if dark_face else tuple(int(v * 0.55) for v in colour)
    margin = short // 8
    cv2.line(img, (margin, short), (width - margin, short), line, max(1, short // 28))
    if look.spinner:
        metal = rng.choice([(60, 160, 200), (190, 190, 190)])
        cv2.circle(img, (width // 2, short), max(2, int(short * 0.07)), metal, -1, cv2.LINE_AA)
    # D6 and D9 pips are bigger; D15/D18 halves hold up to 18, so they are smaller.
    size = short * (0.085 if set_max <= 9 else 0.06 if set_max <= 12 else 0.046)
    style = look.style
    for half, value in ((0, a), (1, b)):
        scale = rng.uniform(0.75, 1.3) if look.varied else 1.0
        if style is not None:
            # The set's layout, each tile a little off it, as a hand-set set is.
            layout = [
                (x + rng.uniform(-0.015, 0.015), y + rng.uniform(-0.015, 0.015))
                for x, y in style.layout(value)
            ]
        else:
            layout = varied_layout(rng, value) if look.varied else pip_layout(value)
        for x, y in layout:
            pip = _pip_colour(rng, pips, value, colour, dark_face, style.palette if style else None)
            centre = (x * width, half * short + y * short)
            r = size * rng.uniform(0.95, 1.05)
            if style is not None:
                r = style.radius(value) * short * rng.uniform(0.93, 1.07)
            elif look.sized_by_value and set_max >= 9:
                r = short * (
                    0.085 if value <= 6 else 0.07 if value <= 9 else 0.06 if value <= 12 else 0.046
                )
            r *= scale if value <= 9 else min(scale, 1.0)
            if look.shaded_pips:
                # A hollow pip: its far rim darker, its near rim catching the light.
                rim = tuple(int(v * 0.6) for v in pip)
                _disc(img, centre, r, rim)
                _disc(img, (centre[0] + r * 0.15, centre[1] + r * 0.15), r * 0.8, pip)
            else:
                _disc(img, centre, r, pip)
            if pips == "raised" or look.highlights:
                hi_pt = (centre[0] - r / 3, centre[1] - r / 3)
                _disc(img, hi_pt, r * (5 / 16 if pips == "raised" else 0.28), (235, 235, 235))
    return img, mask


def _disc(img: Image, centre: Point, r: float, colour: tuple[int, ...]) -> None:
    """A filled, antialiased circle at sub-pixel precision."""
    x, y = int(centre[0] * 16), int(centre[1] * 16)
    cv2.circle(img, (x, y), int(r * 16), colour, -1, cv2.LINE_AA, 4)


def _rounded(
    img: NDArray[np.uint8],
    x0: int,
    y0: int,
    x1: int,
    y1: int,
    r: int,
    colour: int | tuple[int, ...],
) -> None:
    """A filled rectangle with corners rounded to radius `r`."""
    fill = colour if isinstance(colour, tuple) else (colour,)
    if r < 2:
        cv2.rectangle(img, (x0, y0), (x1, y1), fill, -1)
        return
    cv2.rectangle(img, (x0 + r, y0), (x1 - r, y1), fill, -1)
    cv2.rectangle(img, (x0, y0 + r), (x1, y1 - r), fill, -1)
    for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
        cv2.circle(img, (cx, cy), r, fill, -1, cv2.LINE_AA)


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


def make_photo(
    seed: int,
    *,
    tiles: list[tuple[int, int]] | None = None,
    varied: bool = False,
    textured: bool = False,
    every: bool = False,
    unseen: bool = False,
    **force: str,
) -> Photo:
    """The synthetic photo number `seed`; `tiles` and `force` (face, pips, table, set_max,
    arrangement, quality, look) pin what a test needs, everything else is drawn from the seed.
    `textured`: the same photo on a busy table of any colour (textures.py) instead.
    `every`: the set draws its pips its own way (SetStyle: any layout family, any pip size, a
    colour per value of its own), and the photo may be a close-up of a tile or two filling the
    frame, a hand held on edge seen at an angle, or have things beside the tiles (a box, a
    card, a coin, a phone) that are no tile. `unseen`: a busy table of the kinds no network was
    trained on (textures.HELD_OUT), for the held-out test set.
    The hard kinds (`draw_look`, white on white, grey pips, a grid) are drawn unless
    look="plain"; a photo of pinned `tiles` is plain unless look="drawn"."""
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
    hard = force.get("look", "plain" if tiles is not None else "drawn") == "drawn"
    look = draw_look(seed) if hard else Look()
    look.varied = varied
    # What `every` adds is drawn from a stream of its own: the photos without it stay as they were.
    ev = random.Random(f"every-{seed}")
    closeup = held = False
    if every:
        look.style = SetStyle(ev, set_max)
        if "pips" not in force and face in ("white", "ivory") and ev.random() < 0.4:
            pips = "coloured"
        if "arrangement" not in force and tiles is None:
            scene = ev.random()
            closeup, held = scene < 0.14, 0.14 <= scene < 0.28
            if held:
                arrangement = "row"
                look.side = ev.uniform(0.12, 0.3)
                look.tags.append("held at an angle")
            if closeup:
                look.tags = [t for t in look.tags if t != "low resolution"] + ["close-up"]
                look.low_res = 0
        look.tags.append("every layout")
    pick = random.Random(f"pick-{seed}")
    if hard and "table" not in force and face in ("white", "ivory") and pick.random() < 0.2:
        table = pick.choice(["white cloth", "paper"])
    if table in ("white cloth", "paper") and face in ("white", "ivory"):
        look.tags.append("white on white")
    if hard and "pips" not in force and face in ("white", "ivory") and pick.random() < 0.2:
        pips = "grey"
    if pips in ("grey", "pale"):
        look.tags.append("pale pips")
    if hard and "arrangement" not in force and pick.random() < 0.15 and not (closeup or held):
        arrangement = "grid"
    if arrangement != "scattered":
        look.tags.append("touching " + arrangement)
    if face not in ("white", "ivory"):
        look.tags.append("coloured tiles")
    if tiles is None:
        count = rng.randint(1, 10 if set_max >= 9 else 7)
        deck = [(x, y) for x in range(set_max + 1) for y in range(x, set_max + 1)]
        tiles = [_swapped(rng, t) if rng.random() < 0.5 else t for t in rng.sample(deck, count)]
        if look.low_res:
            # A webcam frame of a tile or three, as a frame that small can show.
            tiles = tiles[:3]
        if closeup:
            tiles = tiles[: 1 + (ev.random() < 0.3)]
    width, height = rng.choice([(1600, 1200), (1200, 1600), (1600, 900), (1280, 960)])
    fill = rng.uniform(0.35, 0.75)
    short = int(min(width, height) * fill / max(3.0, math.sqrt(len(tiles)) * 2.2))
    if closeup:
        # The tile (or two side by side) fills most of a small frame, upright or across.
        width, height = ev.choice([(480, 640), (720, 960), (640, 480), (960, 720), (300, 560)])
        short = int(min(height / 2, width / len(tiles)) * ev.uniform(0.62, 0.84))
        arrangement = "row"
    if arrangement == "row":
        short = int(min(short * 1.2, width * 0.85 / len(tiles)))
    columns = math.ceil(math.sqrt(len(tiles) * 2))
    if arrangement == "grid":
        rows = math.ceil(len(tiles) / columns)
        short = int(min(short * 1.2, width * 0.85 / columns, height * 0.8 / (2 * rows)))
    short = max(short, 40)
    canvas = _table(rng, width, height, table)
    if textured or unseen:
        kinds = HELD_OUT if unseen else KINDS + MORE if every else KINDS
        canvas = textured_table(random.Random(f"texture-{seed}"), width, height, kinds=kinds)
        table = "textured"
        look.tags.append("unseen table" if unseen else "textured table")
    if arrangement == "grid":
        placed = _grid(pick, len(tiles), columns, short, width, height)
    elif closeup:
        placed = _closeup(ev, len(tiles), short, width, height)
    else:
        placed = _place(rng, len(tiles), short, width, height, arrangement == "row")
    tiles = tiles[: len(placed)]
    corners: list[list[Point]] = []
    for (a, b), (centre, angle) in zip(tiles, placed, strict=True):
        tile, mask = _tile_image(rng, a, b, short, face, pips, set_max, look)
        h, w = 2 * short, short
        matrix = np.asarray(cv2.getRotationMatrix2D((w / 2, h / 2), -angle, 1.0), np.float64)
        matrix[:, 2] += (centre[0] - w / 2, centre[1] - h / 2)
        warped = cv2.warpAffine(tile, matrix, (width, height), flags=cv2.INTER_LINEAR)
        alpha = cv2.warpAffine(mask, matrix, (width, height)).astype(np.float32)[..., None] / 255
        # A soft shadow first, then the tile.
        shadow = cv2.GaussianBlur(alpha, (0, 0), short / 14)[..., None] * 0.45
        canvas = (canvas * (1 - shadow)).astype(np.float32)
        canvas = (canvas * (1 - alpha) + warped * alpha).astype(np.uint8)
        box = [(0.0, 0.0), (float(w), 0.0), (float(w), float(h)), (0.0, float(h))]
        corners.append([_apply(matrix, p) for p in box])
    if every and not closeup and ev.random() < 0.35:
        canvas = _things(ev, canvas, corners, short)
        look.tags.append("things beside")
    canvas, corners = _camera(rng, canvas, corners, force.get("quality", ""), 3.0 if held else 1.0)
    canvas, corners = _frame(canvas, corners, look)
    if closeup and ev.random() < 0.35:
        # Closer still: the frame ends at the tile's rims, or just inside them.
        canvas, corners = _tight(ev, canvas, corners)
        look.tags.append("tile past the frame")
    ok, buffer = cv2.imencode(".jpg", canvas, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(70, 92)])
    assert ok
    kind = f"D{set_max} {face} tiles, {pips} pips, {table} table, {arrangement}"
    return Photo(buffer.tobytes(), list(tiles), corners, kind, look.tags)


def _closeup(
    rng: random.Random, count: int, short: int, width: int, height: int
) -> list[tuple[Point, float]]:
    """Centres and angle of a tile or two side by side filling the frame, turned a little."""
    angle = rng.uniform(-4, 4)
    gap = rng.choice([0, 2, 6])
    rad = math.radians(angle)
    out = []
    for i in range(count):
        dx = (i - (count - 1) / 2) * (short + gap)
        x = width / 2 + dx * math.cos(rad) + rng.uniform(-0.03, 0.03) * width
        y = height / 2 + dx * math.sin(rad) + rng.uniform(-0.03, 0.03) * height
        out.append(((x, y), angle))
    return out


def _tight(
    rng: random.Random, img: Image, corners: list[list[Point]]
) -> tuple[Image, list[list[Point]]]:
    """The photo cut to the tiles' outline, give or take a few hundredths of it."""
    pts = np.asarray([p for box in corners for p in box], np.float32)
    (x0, y0), (x1, y1) = pts.min(axis=0), pts.max(axis=0)
    margin = rng.uniform(-0.04, 0.02)
    dx, dy = (x1 - x0) * margin, (y1 - y0) * margin
    h, w = img.shape[:2]
    left, top = max(0, int(x0 - dx)), max(0, int(y0 - dy))
    right, bottom = min(w, int(x1 + dx) + 1), min(h, int(y1 + dy) + 1)
    moved = [[(x - left, y - top) for x, y in box] for box in corners]
    return np.ascontiguousarray(img[top:bottom, left:right]), moved


def _things(rng: random.Random, canvas: Image, corners: list[list[Point]], short: int) -> Image:
    """One or two things beside the tiles that are no tile, none over a tile: a box or a card
    (a rectangle of any colour, plain, printed with spots or lines), a coin, a phone."""
    h, w = canvas.shape[:2]
    taken = np.zeros((h, w), np.uint8)
    for box in corners:
        cv2.fillConvexPoly(taken, np.asarray(box, np.int32), 1)
    taken = cv2.dilate(taken, np.ones((9, 9), np.uint8))
    out = canvas.copy()
    for _ in range(rng.randint(1, 2)):
        kind = rng.choice(["box", "card", "coin", "phone"])
        for _attempt in range(60):
            size = short * rng.uniform(0.6, 2.2)
            centre = (rng.uniform(0, w), rng.uniform(0, h))
            if kind == "coin":
                probe = np.zeros_like(taken)
                cv2.circle(probe, (int(centre[0]), int(centre[1])), int(size * 0.4), 1, -1)
            else:
                aspect = {"box": rng.uniform(1.0, 2.6), "card": rng.uniform(1.3, 1.6),
                          "phone": rng.uniform(1.9, 2.2)}[kind]  # fmt: skip
                rect = (centre, (size, size * aspect), rng.uniform(0, 180))
                pts = cv2.boxPoints(rect).astype(np.int32)
                probe = np.zeros_like(taken)
                cv2.fillConvexPoly(probe, pts, 1)
            if probe.any() and not (probe & taken).any():
                break
        else:
            continue
        taken |= probe
        body = any_colour(rng)
        mask = probe.astype(bool)
        if kind == "phone":
            body = (20, 20, 25)
        out[mask] = body
        if kind in ("box", "card"):
            # A print: spots or lines of another colour, some of them pip-like.
            ink = any_colour(rng)
            ys, xs = np.nonzero(mask)
            for _spot in range(rng.randint(0, 14)):
                i = rng.randrange(len(xs))
                if rng.random() < 0.6:
                    cv2.circle(
                        out,
                        (int(xs[i]), int(ys[i])),
                        max(2, int(short * rng.uniform(0.03, 0.1))),
                        ink,
                        -1,
                        cv2.LINE_AA,
                    )
                else:
                    j = rng.randrange(len(xs))
                    cv2.line(
                        out,
                        (int(xs[i]), int(ys[i])),
                        (int(xs[j]), int(ys[j])),
                        ink,
                        max(1, short // 25),
                        cv2.LINE_AA,
                    )
            out[~mask] = canvas[~mask]
        elif kind == "coin":
            edge = tuple(int(v * 0.7) for v in body)
            cv2.circle(
                out,
                (int(centre[0]), int(centre[1])),
                int(size * 0.4),
                edge,
                max(2, short // 20),
                cv2.LINE_AA,
            )
    return out


def _grid(
    rng: random.Random, count: int, columns: int, short: int, width: int, height: int
) -> list[tuple[Point, float]]:
    """Centres and angle of `count` upright tiles laid touching in rows of `columns`."""
    gap = rng.choice([0, 1, 3])
    angle = rng.uniform(-10, 10)
    rows = math.ceil(count / columns)
    rad = math.radians(angle)
    out = []
    for i in range(count):
        col, row = i % columns, i // columns
        dx = (col - (columns - 1) / 2) * (short + gap)
        dy = (row - (rows - 1) / 2) * (2 * short + gap)
        x = width / 2 + dx * math.cos(rad) - dy * math.sin(rad)
        y = height / 2 + dx * math.sin(rad) + dy * math.cos(rad)
        out.append(((x, y), angle))
    return out


def _frame(img: Image, corners: list[list[Point]], look: Look) -> tuple[Image, list[list[Point]]]:
    """A grey photo, or a low-resolution frame (the corners scaled with it)."""
    if look.grey_photo:
        grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        img = np.asarray(cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR), np.uint8)
    if look.low_res:
        h, w = img.shape[:2]
        scale = look.low_res / max(h, w)
        size = (round(w * scale), round(h * scale))
        img = np.asarray(cv2.resize(img, size, interpolation=cv2.INTER_AREA), np.uint8)
        corners = [[(x * scale, y * scale) for x, y in box] for box in corners]
    return img, corners


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
    rng: random.Random, img: Image, corners: list[list[Point]], quality: str, lean: float = 1.0
) -> tuple[Image, list[list[Point]]]:
    """Perspective, uneven light, glare, blur and noise, as a phone camera adds them; `quality`
    forces one: "dark", "bright" (over-exposed, no glare), "glare" or "blurred". `lean`
    steepens the perspective (a hand held on edge, seen from above a player's shoulder)."""
    h, w = img.shape[:2]
    tilt = rng.uniform(0, 0.12) * lean
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
    out *= {"dark": 0.18, "bright": 1.25}.get(quality) or rng.uniform(0.75, 1.1)
    if quality == "glare" or (rng.random() < 0.3 and quality != "bright"):
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
