"""Candidate boxes cut from synthetic photos, each marked one whole tile or not: the training
data of the box judge (scorekeeper/photos/boxnet.py, `make train-photos`). Runs in the app's
venv (it draws with scorekeeper.photos).

Each photo is drawn by training/synthetic.py from a seed of TRAIN_FIRST on (far from
the benchmark's 10,000-10,119, its tuning set from 20,000, the pip reader's 500,000-600,599 and
the tests' small seeds), half of them on a busy table (textures.py), and read at the reader's
working size. The boxes are those the segmenter proposes (segment.candidates, wide), and beside
them the drawn tiles shaken a little (whole tiles), and what a segmenter gets wrong: two
touching tiles as one box, a box across the seam of two touching tiles, half a tile, a patch of
table. A box is a tile when it covers a drawn tile with an overlap (intersection over union) of
at least TILE, not one when it overlaps every drawn tile less than NOT_TILE; the boxes between
are left out. No real photo is used.

    python training/tiles_data.py OUT.npz [--photos N] [--first SEED] [--workers W]
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorekeeper.photos import boxnet, segment  # noqa: E402
from scorekeeper.photos.decode import decode  # noqa: E402
from training.synthetic import make_photo  # noqa: E402

TRAIN_FIRST = 700_000
TILE = 0.7
NOT_TILE = 0.45
# The grids of each touching group proposed here: tiles.onnx was trained on the two best (the
# reader proposes segment.GRIDS, more, and the network judges each cell alone).
GRIDS = 2


def overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex boxes."""
    shared, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    union = cv2.contourArea(a.astype(np.float32)) + cv2.contourArea(b.astype(np.float32))
    return float(shared) / max(float(union) - float(shared), 1.0)


def _upright(points: np.ndarray) -> np.ndarray:
    rect = cv2.minAreaRect(points.astype(np.float32))
    pts = cv2.boxPoints(rect).astype(np.float32)
    if np.linalg.norm(pts[0] - pts[1]) > np.linalg.norm(pts[1] - pts[2]):
        pts = np.roll(pts, -1, axis=0)
    return pts


def wrong_boxes(rng: random.Random, truth: list[np.ndarray], h: int, w: int) -> list[np.ndarray]:
    """Boxes a segmenter gets wrong, made from the drawn tiles, and the drawn tiles shaken."""
    out = []
    for i, box in enumerate(truth):
        short = float(np.linalg.norm(box[1] - box[0]))
        across = (box[1] - box[0]) / max(short, 1.0)
        along = (box[3] - box[0]) / max(float(np.linalg.norm(box[3] - box[0])), 1.0)
        for _ in range(2):
            centre = box.mean(axis=0)
            moved = box + np.asarray(
                [[rng.uniform(-0.06, 0.06) * short for _ in range(2)] for _ in range(4)]
            )
            out.append(centre + (moved - centre) * rng.uniform(0.93, 1.06))
        # Across a seam, and along: the box slid by part of a tile.
        out.append(box + across * short * rng.choice([-1, 1]) * rng.uniform(0.4, 0.6))
        out.append(box + along * short * rng.choice([-1, 1]) * rng.uniform(0.6, 1.1))
        # Half a tile, and a tile and a half.
        mid = (box[0] + box[3]) / 2, (box[1] + box[2]) / 2
        out.append(np.asarray([box[0], box[1], mid[1], mid[0]]))
        for other in truth[i + 1 :]:
            if np.linalg.norm(other.mean(axis=0) - box.mean(axis=0)) < 1.6 * short:
                out.append(_upright(np.concatenate([box, other])))
    for _ in range(3):
        size = rng.uniform(0.03, 0.2) * min(h, w)
        centre = (rng.uniform(0, w), rng.uniform(0, h))
        rect = (centre, (size, size * rng.uniform(1.6, 2.4)), rng.uniform(0, 180))
        out.append(cv2.boxPoints(rect).astype(np.float32))
    return [np.asarray(b, np.float32) for b in out]


def photo_boxes(seed: int, every: bool = False) -> tuple[list[np.ndarray], list[int]]:
    """The crops of the boxes on photo `seed` and whether each is a tile (1) or not (0)."""
    rng = random.Random(f"boxes-{seed}")
    photo = make_photo(seed, textured=rng.random() < 0.5, every=every)
    img, scale = decode(photo.jpeg)
    h, w = img.shape[:2]
    truth = [np.asarray(c, np.float32) / scale for c in photo.corners]
    boxes = [f.box for _fit, f in segment.candidates(img, wide=True, grids=GRIDS)]
    boxes += wrong_boxes(rng, truth, h, w)
    crops, labels = [], []
    for box in boxes:
        best = max((overlap(box, t) for t in truth), default=0.0)
        if best >= TILE or best < NOT_TILE:
            crops.append(boxnet.crop(img, box))
            labels.append(int(best >= TILE))
    return crops, labels


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--photos", type=int, default=1500)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--first", type=int, default=TRAIN_FIRST, help="first seed")
    parser.add_argument(
        "--every",
        action="store_true",
        help="photos of every kind: close-ups, held hands, things beside, more tables",
    )
    args = parser.parse_args()
    crops: list[np.ndarray] = []
    labels: list[int] = []
    seeds = range(args.first, args.first + args.photos)
    with Pool(args.workers) as pool:
        work = functools.partial(photo_boxes, every=args.every)
        for i, (c, v) in enumerate(pool.imap(work, seeds, chunksize=8)):
            crops.extend(c)
            labels.extend(v)
            if i % 200 == 0:
                print(f"photo {i}: {len(labels)} boxes, {sum(labels)} tiles", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        args.out, crops=np.stack(crops).astype(np.uint8), labels=np.asarray(labels, np.int64)
    )
    print(f"{len(labels)} boxes from {args.photos} photos, {sum(labels)} of them tiles")


if __name__ == "__main__":
    main()
