"""Trains the pip reader on the halves training/pips_data.py cut from synthetic photos and
exports it to scorekeeper/photos/pips.onnx (`make train-photos`). Runs in .venv-train (a CPU
build of PyTorch), on the machine's cores, from a fixed seed.

    python training/pips_train.py OUT.onnx DATA.npz [DATA.npz ...] [--epochs N]

Every half is shaken on the way in, so the network cannot lean on what the generator always
draws the same way: any of the eight turns and mirrorings of the square (a count does not
change), a shift, a turn and a zoom (a segmenter's box is never exact), its colours swapped,
scaled, greyed or inverted (tiles and pips of every colour), blur, a low-resolution frame,
noise and a bright patch of glare.
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

from training.spec import PIPS, metadata, stamp  # noqa: E402

SEED = 20
# The crop and the values, as the runtime declares them (scorekeeper/photos/models.py).
CROP = PIPS.height
VALUES = PIPS.labels


class PipNet(nn.Module):
    """A small convolutional network: a half (3 x CROP x CROP, 0-255 BGR) to 19 logits. Each
    half is first set less its own mean colour and divided by its own spread."""

    def __init__(self) -> None:
        super().__init__()

        def block(cin: int, cout: int) -> list[nn.Module]:
            return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]

        self.features = nn.Sequential(
            *block(3, 16),
            nn.MaxPool2d(2),  # 20
            *block(16, 32),
            nn.MaxPool2d(2),  # 10
            *block(32, 64),
            *block(64, 64),
            nn.MaxPool2d(2),  # 5
            *block(64, 128),
        )
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(128 * 25, VALUES))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x - x.mean(dim=(2, 3), keepdim=True)
        x = x / (x.std(dim=(1, 2, 3), keepdim=True) + 8.0)
        return self.head(self.features(x))


def shake(x: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """Augment a batch of halves (N, 3, CROP, CROP), 0-255."""
    n = x.shape[0]

    def u(lo: float, hi: float, *shape: int) -> torch.Tensor:
        return lo + (hi - lo) * torch.rand(*(shape or (n,)), generator=gen)

    def some(p: float) -> torch.Tensor:
        return torch.rand(n, generator=gen) < p

    # The eight turns and mirrorings, by quarters of the batch.
    out = []
    for i, part in enumerate(x.chunk(8)):
        part = torch.rot90(part, i % 4, dims=(2, 3))
        out.append(torch.flip(part, dims=(3,)) if i >= 4 else part)
    x = torch.cat(out)
    # A box a little off: shift, turn, zoom.
    angle = u(-0.2, 0.2)
    zoom = u(0.88, 1.12)
    theta = torch.zeros(n, 2, 3)
    theta[:, 0, 0] = torch.cos(angle) * zoom
    theta[:, 0, 1] = -torch.sin(angle) * zoom
    theta[:, 1, 0] = torch.sin(angle) * zoom
    theta[:, 1, 1] = torch.cos(angle) * zoom
    theta[:, :, 2] = u(-0.1, 0.1, n, 2)
    moved = some(0.7)
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    x = torch.where(
        moved[:, None, None, None],
        F.grid_sample(x, grid, padding_mode="border", align_corners=False),
        x,
    )
    # Colours: channels swapped, scaled, offset; some greyed, some inverted.
    perm = torch.stack([torch.randperm(3, generator=gen) for _ in range(n)])
    x = torch.gather(x, 1, perm[:, :, None, None].expand_as(x))
    x = x * u(0.6, 1.3, n, 3)[:, :, None, None] + u(-40, 40, n, 1)[:, :, None, None]
    grey = x.mean(dim=1, keepdim=True).expand_as(x)
    x = torch.where(some(0.15)[:, None, None, None], grey, x)
    x = torch.where(some(0.15)[:, None, None, None], 255 - x, x)
    # Contrast squeezed towards the mean (pale pips).
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    x = mean + (x - mean) * torch.where(some(0.3), u(0.35, 1.0), torch.ones(n))[:, None, None, None]
    # Glare: a bright soft patch.
    yy, xx = torch.meshgrid(torch.arange(CROP), torch.arange(CROP), indexing="ij")
    cx, cy, r = u(0, CROP), u(0, CROP), u(2, 10)
    blob = torch.exp(
        -((xx - cx[:, None, None]) ** 2 + (yy - cy[:, None, None]) ** 2)
        / (2 * r[:, None, None] ** 2)
    )
    x = x + (some(0.2) * u(60, 200))[:, None, None, None] * blob[:, None]
    # Blur, or a low-resolution frame.
    blurred = F.avg_pool2d(F.pad(x, (1, 1, 1, 1), mode="replicate"), 3, stride=1)
    x = torch.where(some(0.25)[:, None, None, None], blurred, x)
    side = int(u(14, 30, 1).item())
    small = F.interpolate(F.interpolate(x, size=side, mode="area"), size=CROP, mode="bilinear")
    x = torch.where(some(0.2)[:, None, None, None], small, x)
    x = x + torch.randn(x.shape, generator=gen) * u(0, 10)[:, None, None, None]
    return x.clamp(0, 255)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("data", type=Path, nargs="+")
    parser.add_argument("--epochs", type=int, default=16)
    parser.add_argument("--batch", type=int, default=128)
    args = parser.parse_args()
    torch.manual_seed(SEED)
    torch.set_num_threads(2)
    gen = torch.Generator().manual_seed(SEED)
    parts = [np.load(path) for path in args.data]
    crops = torch.from_numpy(np.concatenate([p["crops"] for p in parts])).permute(0, 3, 1, 2)
    crops = crops.float()
    values = torch.from_numpy(np.concatenate([p["values"] for p in parts]))
    order = torch.randperm(len(values), generator=gen)
    held = order[: len(order) // 20]
    train = order[len(order) // 20 :]
    model = PipNet()
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
            x = shake(crops[idx], gen)
            loss = F.cross_entropy(model(x), values[idx], label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            loss_sum += float(loss.detach()) * len(idx)
        model.eval()
        with torch.no_grad():
            right = sum(
                int((model(crops[held[i : i + 512]]).argmax(1) == values[held[i : i + 512]]).sum())
                for i in range(0, len(held), 512)
            )
        print(
            f"epoch {epoch + 1}: loss {loss_sum / len(train):.3f}, held-out halves right "
            f"{right / len(held):.3f}, {time.time() - start:.0f} s",
            flush=True,
        )
        export(model, args.out, list(args.data))


def export(model: PipNet, out: Path, data: list[Path]) -> None:
    """The network as ONNX, its metadata stamped (training/spec.py): input "crops"
    (N, 3, CROP, CROP), output "logits" (N, 19)."""
    model.eval()
    torch.onnx.export(
        model,
        (torch.zeros(1, 3, CROP, CROP),),
        str(out),
        input_names=[PIPS.input],
        output_names=["logits"],
        dynamic_axes={PIPS.input: {0: "n"}, "logits": {0: "n"}},
        opset_version=17,
        dynamo=False,
    )
    # What it was made from, in the file itself (checked by tests/photos/test_models.py).
    stamp(out, metadata(PIPS, SEED, data))
    print(f"wrote {out} ({out.stat().st_size / 1e6:.2f} MB)", flush=True)


if __name__ == "__main__":
    main()
