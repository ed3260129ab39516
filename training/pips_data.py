"""Halves of tiles cut from synthetic photos, with their values: the training data of the pip
reader (`make train-photos`). Runs in the app's venv (it draws with scorekeeper.photos).

Each photo is drawn by training/synthetic.py from a seed of TRAIN_SEEDS (far from
the benchmark's 10,000-10,119, its tuning set from 20,000 and the tests' small seeds), read at
the reader's working size, and its tiles cut out as the reader cuts them: by the boxes the
segmenter finds without its box network (segment.classic, so this data does not depend on
tiles.onnx; matched to the drawn tiles) and by the drawn corners shaken a little, as a
segmenter's box is never exact. No real photo is used.

    python training/pips_data.py OUT.npz [--photos N] [--first SEED] [--varied] [--workers W]

`make train-photos` cuts two sets: 1000 photos as the tests and the benchmark draw them (seeds
from 500,000) and 600 whose pips are laid out as other sets lay them (seeds from 600,000,
synthetic.varied_layout), since real double-12 sets do not all place a ten or a twelve alike.
"""

from __future__ import annotations

import argparse
import functools
import math
import random
import sys
from multiprocessing import Pool
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorekeeper.photos import net, segment  # noqa: E402
from scorekeeper.photos.decode import decode  # noqa: E402
from training.synthetic import make_photo  # noqa: E402

TRAIN_FIRST = 500_000
# Each drawn tile is also cut by its own corners, moved this share of its width at most.
SHAKE = 0.08
SHAKEN = 4


def _shaken(rng: random.Random, box: np.ndarray) -> np.ndarray:
    short = float(np.linalg.norm(box[1] - box[0]))
    moved = box + np.asarray(
        [[rng.uniform(-SHAKE, SHAKE) * short for _ in range(2)] for _ in range(4)]
    )
    # Sometimes a box that holds less or more of the tile (a bevel, a side, an inset).
    centre = moved.mean(axis=0)
    return np.asarray(centre + (moved - centre) * rng.uniform(0.9, 1.08), np.float32)


def _match(found: np.ndarray, truth: list[np.ndarray]) -> tuple[int, bool] | None:
    """The drawn tile a found box is, and whether the box starts at that tile's second half."""
    centre = found.mean(axis=0)
    for i, box in enumerate(truth):
        short = float(np.linalg.norm(box[1] - box[0]))
        if np.linalg.norm(box.mean(axis=0) - centre) > 0.3 * short:
            continue
        (x1, y1), (x2, y2) = found[1] - found[0], found[2] - found[1]
        area = abs(float(x1 * y2 - y1 * x2))
        if not 0.6 < area / (2 * short * short) < 1.6:
            continue
        first = (found[0] + found[1]) / 2
        top, bottom = (box[0] + box[1]) / 2, (box[2] + box[3]) / 2
        return i, bool(np.linalg.norm(first - bottom) < np.linalg.norm(first - top))
    return None


def photo_crops(
    seed: int, varied: bool = False, every: bool = False
) -> tuple[list[np.ndarray], list[int], list[int]]:
    """The halves cut from photo `seed`: crops, values and the photo's set maximum."""
    rng = random.Random(f"crops-{seed}")
    photo = make_photo(seed, varied=varied, every=every, textured=every and rng.random() < 0.3)
    set_max = int(photo.kind.split()[0][1:])
    img, scale = decode(photo.jpeg)
    truth = [np.asarray(c, np.float32) / scale for c in photo.corners]
    crops: list[np.ndarray] = []
    values: list[int] = []

    def cut(box: np.ndarray, a: int, b: int) -> None:
        first, second = net.halves(img, box)
        crops.extend([first, second])
        values.extend([a, b])

    for found in segment.classic(img):
        matched = _match(found.box, truth)
        if matched is not None:
            a, b = photo.tiles[matched[0]]
            cut(found.box, *((b, a) if matched[1] else (a, b)))
    for box, (a, b) in zip(truth, photo.tiles, strict=False):
        for _ in range(SHAKEN):
            cut(_shaken(rng, box), a, b)
    return crops, values, [set_max] * len(values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--photos", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--first", type=int, default=TRAIN_FIRST, help="first seed")
    parser.add_argument(
        "--varied", action="store_true", help="pips laid out as other sets lay them"
    )
    parser.add_argument(
        "--every",
        action="store_true",
        help="each set its own layout, pip size and colours; close-ups, held hands, things",
    )
    args = parser.parse_args()
    seeds = range(args.first, args.first + args.photos)
    work = functools.partial(photo_crops, varied=args.varied, every=args.every)
    crops: list[np.ndarray] = []
    values: list[int] = []
    maxima: list[int] = []
    with Pool(args.workers) as pool:
        for i, (c, v, m) in enumerate(pool.imap(work, seeds, chunksize=8)):
            crops.extend(c)
            values.extend(v)
            maxima.extend(m)
            if i % 200 == 0:
                print(f"photo {i}: {len(values)} halves", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        args.out,
        crops=np.stack(crops).astype(np.uint8),
        values=np.asarray(values, np.int64),
        set_max=np.asarray(maxima, np.int64),
    )
    counts = np.bincount(values, minlength=net.VALUES)
    print(f"{len(values)} halves from {args.photos} photos; per value: {counts.tolist()}")
    assert math.isfinite(float(counts.sum()))


if __name__ == "__main__":
    main()
