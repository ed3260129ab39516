"""`make bench-photos`: how well the photo reader counts hands, on the synthetic set the project
draws and on the real development photos in ../shared/photos-dev/ (skipped when absent).

Prints, per set and per kind of photo: photos read with the exact total, within 2 pips, halves
read right on the tiles matched, tiles found, seconds per photo (median), the share of right
tiles marked "?" and of wrong tiles not marked, and the peak memory the reading added. The real
photos are only read here: never train or tune on them.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # noqa: E402

from scorekeeper.photos.reader import read_photo  # noqa: E402
from training.synthetic import make_photo  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
# ../shared/photos-dev beside the checkout (a worktree one level deeper looks two up), or
# wherever PHOTOS_DEV points.
DEV = Path(
    os.environ.get("PHOTOS_DEV")
    or next(
        (
            p
            for p in (
                ROOT.parent / "shared" / "photos-dev",
                ROOT.parent.parent / "shared" / "photos-dev",
            )
            if p.is_dir()
        ),
        ROOT.parent / "shared" / "photos-dev",
    )
)
# Seeds of the synthetic test set: far from the seeds the unit tests use, and apart from the
# tuning set (seeds from 20,000: `--first 20000`) that the reader's thresholds were set on.
SYNTHETIC_SEEDS = range(10_000, 10_000 + 120)
TUNING_FIRST = 20_000
# The held-out set of every layout (issue 32): each set its own pip layout, size and colours,
# close-ups, hands held at an angle, things beside the tiles, and every other photo on a table
# of a kind no network was trained on (textures.HELD_OUT). Never drawn for training (the
# trainers draw from 500,000 on) nor for choosing a threshold (`--every --first 90000`).
EVERY_SEEDS = range(70_000, 70_000 + 200)
EVERY_TUNING_FIRST = 90_000


def matched_halves(found: list[tuple[int, int]], truth: list[tuple[int, int]]) -> tuple[int, int]:
    """Halves right and halves compared on the tiles found: each found tile is paired with a
    true tile so that the pairs share as many halves as they can (the order of tiles and of
    halves does not matter; a tile missed is counted by "found", not here). Pairing each true
    tile in turn with its best match would pair a missed tile's neighbour wrongly."""
    n = min(len(found), len(truth))
    if not n:
        return 0, 0
    shared = [[_shared(f, t) for t in truth] for f in found]
    return _best_assignment(shared), 2 * n


def _best_assignment(weights: list[list[int]]) -> int:
    """The largest sum of weights[i][j] over pairs using each row and column at most once
    (the Hungarian method on costs max - weight, padded to a square)."""
    size = max(len(weights), len(weights[0]))
    top = max(max(row) for row in weights)
    cost = [
        [
            top - (weights[i][j] if i < len(weights) and j < len(weights[0]) else 0)
            for j in range(size)
        ]
        for i in range(size)
    ]
    inf = float("inf")
    u, v = [0.0] * (size + 1), [0.0] * (size + 1)
    match, way = [0] * (size + 1), [0] * (size + 1)
    for i in range(1, size + 1):
        match[0], j0 = i, 0
        least, used = [inf] * (size + 1), [False] * (size + 1)
        while match[j0]:
            used[j0] = True
            i0, delta, j1 = match[j0], inf, 0
            for j in range(1, size + 1):
                if not used[j]:
                    cur = cost[i0 - 1][j - 1] - u[i0] - v[j]
                    if cur < least[j]:
                        least[j], way[j] = cur, j0
                    if least[j] < delta:
                        delta, j1 = least[j], j
            for j in range(size + 1):
                if used[j]:
                    u[match[j]] += delta
                    v[j] -= delta
                else:
                    least[j] -= delta
            j0 = j1
        while j0:
            j1 = way[j0]
            match[j0] = match[j1]
            j0 = j1
    return sum(
        weights[match[j] - 1][j - 1]
        for j in range(1, size + 1)
        if match[j] - 1 < len(weights) and j - 1 < len(weights[0])
    )


def _shared(x: tuple[int, int], y: tuple[int, int]) -> int:
    rest = list(y)
    n = 0
    for v in x:
        if v in rest:
            rest.remove(v)
            n += 1
    return n


Case = tuple[str, str, bytes, list[tuple[int, int]], int, list[str]]


def measure(cases: list[Case]) -> dict[str, object]:
    """Read every case (name, kind, bytes, true tiles, set max, hard kinds); the figures per
    kind, per hard kind (white on white, pale pips, ...) and all."""
    rows = []
    for name, kind, data, truth, set_max, tags in cases:
        start = time.process_time()
        reading = read_photo(data, set_max)
        seconds = time.process_time() - start
        found = [t.pips for t in reading.tiles]
        right, compared = matched_halves(found, truth)
        right_flagged, wrong, wrong_unflagged = flags(reading.tiles, truth)
        marks = [
            (tile.confidence, ok)
            for tile, ok in zip(reading.tiles, rights(reading.tiles, truth), strict=True)
        ]
        total = sum(a + b for a, b in truth)
        rows.append(
            {
                "name": name,
                "kind": kind,
                "total": total,
                "read": reading.total,
                "tiles": len(truth),
                "found": len(found),
                "right": right,
                "compared": compared,
                "seconds": seconds,
                "tiles_read": len(found),
                "right_flagged": right_flagged,
                "wrong": wrong,
                "wrong_unflagged": wrong_unflagged,
                "advice": reading.advice,
                "tags": tags,
                "marks": marks,
            }
        )
    tags = sorted({t for r in rows for t in r["tags"]})
    return {
        "all": _summary(rows),
        "kinds": {
            k: _summary([r for r in rows if r["kind"] == k])
            for k in sorted({r["kind"] for r in rows})
        },
        "hard": {t: _summary([r for r in rows if t in r["tags"]]) for t in tags},
        "reliability": reliability([m for r in rows for m in r["marks"]]),
        "rows": rows,
    }


def rights(tiles: list, truth: list[tuple[int, int]]) -> list[bool]:
    """For each tile read, whether it is right: a true tile of the photo has its two values
    (each true tile answers once, the tiles taken in the reader's order)."""
    rest = [tuple(sorted(t)) for t in truth]
    out = []
    for tile in tiles:
        key = tuple(sorted(tile.pips))
        out.append(key in rest)
        if key in rest:
            rest.remove(key)
    return out


# The confidence bands of the reliability curve, and the thresholds the sweep tries.
BANDS = (0.0, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98, 1.01)
SWEEP = (0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95)


def reliability(marks: list[tuple[float, bool]]) -> dict[str, list]:
    """The reliability curve (per band of confidence: tiles, and the share of them right) and,
    for each threshold of SWEEP, the share of right tiles it would mark "?" and of wrong tiles
    it would catch."""
    curve = []
    for lo, hi in zip(BANDS, BANDS[1:], strict=False):
        inside = [ok for c, ok in marks if lo <= c < hi]
        share = round(sum(inside) / len(inside), 3) if inside else None
        curve.append([lo, min(hi, 1.0), len(inside), share])
    right = [c for c, ok in marks if ok]
    wrong = [c for c, ok in marks if not ok]
    sweep = [
        [
            t,
            round(sum(c < t for c in right) / len(right), 3) if right else 0.0,
            round(sum(c < t for c in wrong) / len(wrong), 3) if wrong else 1.0,
        ]
        for t in SWEEP
    ]
    return {"curve": curve, "sweep": sweep}


def flags(tiles: list, truth: list[tuple[int, int]]) -> tuple[int, int, int]:
    """How the "?" marks fall: right tiles marked, wrong tiles, wrong tiles not marked. A tile
    read is right when a true tile has its two values (each true tile answers once)."""
    rest = [tuple(sorted(t)) for t in truth]
    right_flagged = wrong = wrong_unflagged = 0
    for tile in tiles:
        key = tuple(sorted(tile.pips))
        if key in rest:
            rest.remove(key)
            right_flagged += tile.low_confidence
        else:
            wrong += 1
            wrong_unflagged += not tile.low_confidence
    return right_flagged, wrong, wrong_unflagged


def _summary(rows: list[dict]) -> dict[str, float]:
    n = len(rows)
    compared = sum(r["compared"] for r in rows)
    wrong = sum(r["wrong"] for r in rows)
    right = sum(r["tiles_read"] for r in rows) - wrong
    return {
        "photos": n,
        "exact": round(sum(r["read"] == r["total"] for r in rows) / n, 3),
        "within_2": round(sum(abs(r["read"] - r["total"]) <= 2 for r in rows) / n, 3),
        "halves_right": round(sum(r["right"] for r in rows) / compared, 3) if compared else 0.0,
        "tiles_found": round(
            sum(min(r["found"], r["tiles"]) for r in rows) / max(1, sum(r["tiles"] for r in rows)),
            3,
        ),
        "median_seconds": round(statistics.median(r["seconds"] for r in rows), 3),
        # The "?" marks: the share of right tiles marked, and of wrong tiles left unmarked.
        "right_flagged": round(sum(r["right_flagged"] for r in rows) / right, 3) if right else 0.0,
        "wrong_unflagged": round(sum(r["wrong_unflagged"] for r in rows) / wrong, 3)
        if wrong
        else 0.0,
        "wrong_tiles": wrong,
    }


def synthetic_cases(
    count: int, first: int = SYNTHETIC_SEEDS[0], textured: bool = False, every: bool = False
) -> list[Case]:
    cases = []
    for seed in range(first, first + count):
        if every:
            photo = make_photo(seed, every=True, unseen=seed % 2 == 0)
        else:
            photo = make_photo(seed, textured=textured)
        set_max = int(photo.kind.split()[0][1:])
        kind = photo.kind.split(",")[-1].strip() + " / " + photo.kind.split(",")[0].split()[1]
        cases.append((f"synthetic-{seed}", kind, photo.jpeg, photo.tiles, set_max, photo.tags))
    return cases


def dev_cases() -> list:
    labels = json.loads((DEV / "labels.json").read_text())
    cases = []
    for name, label in sorted(labels.items()):
        tiles = [tuple(t) for t in label["tiles"]]
        set_max = (
            12 if max(max(t) for t in tiles) > 9 else 9 if max(max(t) for t in tiles) > 6 else 6
        )
        cases.append((name, name.split("__")[0], (DEV / name).read_bytes(), tiles, set_max, []))
    return cases


def table(title: str, result: dict, *, rows: bool) -> None:
    print(f"\n{title}")
    print(
        f"{'kind':42} {'photos':>6} {'exact':>6} {'±2':>6} {'halves':>7} {'found':>6}"
        f" {'s/photo':>8} {'right ?':>8} {'wrong no ?':>12}"
    )
    hard = [(f"hard: {k}", s) for k, s in result["hard"].items()]
    items = list(result["kinds"].items()) + hard + [("ALL", result["all"])]
    for kind, s in items:
        print(
            f"{kind[:42]:42} {s['photos']:>6} {s['exact']:>6.0%} {s['within_2']:>6.0%} "
            f"{s['halves_right']:>7.0%} {s['tiles_found']:>6.0%} {s['median_seconds']:>8.3f}"
            f" {s['right_flagged']:>8.1%} {s['wrong_unflagged']:>7.0%} of {s['wrong_tiles']:<3}"
        )
    curve = result["reliability"]["curve"]
    print(
        "  reliability: "
        + ", ".join(
            f"{lo:.2f}-{hi:.2f}: {n} tiles, {share:.0%} right" for lo, hi, n, share in curve if n
        )
    )
    print(
        "  threshold -> right tiles marked / wrong tiles caught: "
        + ", ".join(f"{t}: {r:.1%} / {w:.1%}" for t, r, w in result["reliability"]["sweep"])
    )
    if rows:
        for r in result["rows"]:
            print(
                f"  {r['name'][:40]:40} total {r['total']:>3} read {r['read']:>3} "
                f"tiles {r['tiles']:>2} found {r['found']:>2} {','.join(r['advice'])}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--synthetic",
        type=int,
        help=f"photos to draw (the test set {len(SYNTHETIC_SEEDS)}, every layout"
        f" {len(EVERY_SEEDS)}; 0 for the real photos alone)",
    )
    parser.add_argument(
        "--first",
        type=int,
        default=SYNTHETIC_SEEDS[0],
        help=f"first seed (the test set; {TUNING_FIRST} for the tuning set)",
    )
    parser.add_argument(
        "--textured",
        action="store_true",
        help="the same photos on busy tables of any colour (towel, weave, wood, print)",
    )
    parser.add_argument(
        "--every",
        action="store_true",
        help=f"the held-out set of every layout (seeds from {EVERY_SEEDS[0]}) instead",
    )
    parser.add_argument(
        "--all",
        action="store_true",
        help="the test set, then the held-out set of every layout (what `make bench-photos` runs)",
    )
    parser.add_argument("--rows", action="store_true", help="print every photo")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    args = parser.parse_args()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    out = {}
    if args.synthetic != 0 and not args.every:
        count = args.synthetic or len(SYNTHETIC_SEEDS)
        out["synthetic"] = measure(synthetic_cases(count, args.first, args.textured))
        table(
            "Synthetic photos (drawn by training/synthetic.py)",
            out["synthetic"],
            rows=args.rows,
        )
    if (args.every or args.all) and args.synthetic != 0:
        first = args.first if args.every and args.first != SYNTHETIC_SEEDS[0] else EVERY_SEEDS[0]
        count = len(EVERY_SEEDS) if args.all else args.synthetic or len(EVERY_SEEDS)
        out["every"] = measure(synthetic_cases(count, first, every=True))
        table(
            f"Held out: every layout, unseen tables (seeds {first}-{first + count - 1})",
            out["every"],
            rows=args.rows,
        )
    if DEV.is_dir():
        out["dev"] = measure(dev_cases())
        table(f"Development photos ({DEV.resolve()})", out["dev"], rows=True)
    else:
        print(f"\n{DEV} is missing: the real photos are skipped.")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        f"\npeak memory of this process: {peak / 1024:.0f} MB"
        f" ({(peak - before) / 1024:.0f} MB added by reading)"
    )
    if args.json:
        for part in out.values():
            part.pop("rows", None)
        args.json.write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
