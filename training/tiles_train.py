"""Trains the box judge on the boxes training/tiles_data.py cut from synthetic photos and
exports it to scorekeeper/photos/tiles.onnx (`make train-photos`). Runs in .venv-train (a CPU
build of PyTorch), from a fixed seed.

    python training/tiles_train.py OUT.onnx DATA.npz [--epochs N]

Every box is shaken on the way in, so the network cannot lean on what the generator always
draws the same way: turned half round and mirrored (a tile is still a tile), its colours
swapped, scaled, greyed or inverted, contrast squeezed, blur, a low-resolution frame and noise.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from training.spec import TILES, metadata, stamp  # noqa: E402

SEED = 21
# The crop, as the runtime declares it (scorekeeper/photos/models.py): 2*CROP x CROP.
CROP = TILES.width


class TileNet(nn.Module):
    """A small convolutional network: a box (3 x 2*CROP x CROP, 0-255 BGR) to one logit, "one
    whole tile". Each box is first set less its own mean colour and divided by its spread."""

    def __init__(self) -> None:
        super().__init__()

        def block(cin: int, cout: int) -> list[nn.Module]:
            return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]

        self.features = nn.Sequential(
            *block(3, 16),
            nn.MaxPool2d(2),  # 32 x 16
            *block(16, 32),
            nn.MaxPool2d(2),  # 16 x 8
            *block(32, 48),
            nn.MaxPool2d(2),  # 8 x 4
            *block(48, 64),
        )
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(64 * 8 * 4, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x - x.mean(dim=(2, 3), keepdim=True)
        x = x / (x.std(dim=(1, 2, 3), keepdim=True) + 8.0)
        return self.head(self.features(x))


def shake(x: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """Augment a batch of boxes (N, 3, 2*CROP, CROP), 0-255."""
    n = x.shape[0]

    def u(lo: float, hi: float, *shape: int) -> torch.Tensor:
        return lo + (hi - lo) * torch.rand(*(shape or (n,)), generator=gen)

    def some(p: float) -> torch.Tensor:
        return torch.rand(n, generator=gen) < p

    # Half turns and mirrorings, by quarters of the batch.
    out = []
    for i, part in enumerate(x.chunk(4)):
        part = torch.flip(part, dims=(2,)) if i % 2 else part
        out.append(torch.flip(part, dims=(3,)) if i >= 2 else part)
    x = torch.cat(out)
    perm = torch.stack([torch.randperm(3, generator=gen) for _ in range(n)])
    x = torch.gather(x, 1, perm[:, :, None, None].expand_as(x))
    x = x * u(0.6, 1.3, n, 3)[:, :, None, None] + u(-40, 40, n, 1)[:, :, None, None]
    grey = x.mean(dim=1, keepdim=True).expand_as(x)
    x = torch.where(some(0.15)[:, None, None, None], grey, x)
    x = torch.where(some(0.1)[:, None, None, None], 255 - x, x)
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    x = mean + (x - mean) * torch.where(some(0.3), u(0.4, 1.0), torch.ones(n))[:, None, None, None]
    blurred = F.avg_pool2d(F.pad(x, (1, 1, 1, 1), mode="replicate"), 3, stride=1)
    x = torch.where(some(0.25)[:, None, None, None], blurred, x)
    side = int(u(10, 24, 1).item())
    small = F.interpolate(
        F.interpolate(x, size=(2 * side, side), mode="area"), size=(2 * CROP, CROP), mode="bilinear"
    )
    x = torch.where(some(0.2)[:, None, None, None], small, x)
    x = x + torch.randn(x.shape, generator=gen) * u(0, 8)[:, None, None, None]
    return x.clamp(0, 255)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("data", type=Path, nargs="+")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--batch", type=int, default=128)
    args = parser.parse_args()
    torch.manual_seed(SEED)
    torch.set_num_threads(2)
    gen = torch.Generator().manual_seed(SEED)
    parts = [np.load(path) for path in args.data]
    crops = torch.from_numpy(np.concatenate([p["crops"] for p in parts])).permute(0, 3, 1, 2)
    crops = crops.float()
    labels = torch.from_numpy(np.concatenate([p["labels"] for p in parts])).float()
    order = torch.randperm(len(labels), generator=gen)
    cut = max(1, len(order) // 20)
    held, train = order[:cut], order[cut:]
    model = TileNet()
    steps = args.epochs * math.ceil(len(train) / args.batch)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    start = time.time()
    for epoch in range(args.epochs):
        model.train()
        shuffled = train[torch.randperm(len(train), generator=gen)]
        loss_sum = 0.0
        for i in range(0, len(shuffled), args.batch):
            idx = shuffled[i : i + args.batch]
            logits = model(shake(crops[idx], gen)).reshape(-1)
            loss = F.binary_cross_entropy_with_logits(logits, labels[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            loss_sum += float(loss.detach()) * len(idx)
        model.eval()
        with torch.no_grad():
            said = torch.cat(
                [model(crops[held[i : i + 512]]).reshape(-1) > 0 for i in range(0, len(held), 512)]
            )
        truth = labels[held] > 0.5
        missed = float((~said & truth).sum()) / max(1, int(truth.sum()))
        wrong = float((said & ~truth).sum()) / max(1, int((~truth).sum()))
        print(
            f"epoch {epoch + 1}: loss {loss_sum / len(train):.3f}, held-out boxes right "
            f"{float((said == truth).float().mean()):.3f} (tiles missed {missed:.3f}, "
            f"not-tiles taken {wrong:.3f}), {time.time() - start:.0f} s",
            flush=True,
        )
        export(model, args.out, list(args.data))


def export(model: TileNet, out: Path, data: list[Path]) -> None:
    """The network as ONNX, its metadata stamped (training/spec.py): input "boxes"
    (N, 3, 2*CROP, CROP), output "logits" (N, 1)."""
    model.eval()
    torch.onnx.export(
        model,
        (torch.zeros(1, 3, 2 * CROP, CROP),),
        str(out),
        input_names=[TILES.input],
        output_names=["logits"],
        dynamic_axes={TILES.input: {0: "n"}, "logits": {0: "n"}},
        opset_version=17,
        dynamo=False,
    )
    # What it was made from, in the file itself (checked by tests/photos/test_models.py).
    stamp(out, metadata(TILES, SEED, data))
    print(f"wrote {out} ({out.stat().st_size / 1e6:.2f} MB)", flush=True)


if __name__ == "__main__":
    main()
