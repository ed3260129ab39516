"""The networks' declarations (scorekeeper/photos/models.py) as the trainers see them, and the
metadata every exported model carries: the commit it was trained from, its seed and a hash of its
data. Runs in either venv: models.py is loaded by its path, so the trainers' venv (PyTorch, no
Flask) need not import the app's package.

    python training/spec.py show scorekeeper/photos/pips.onnx   # a model's metadata
"""

from __future__ import annotations

import hashlib
import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _models() -> ModuleType:
    path = ROOT / "scorekeeper" / "photos" / "models.py"
    spec = importlib.util.spec_from_file_location("photo_models", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("photo_models", module)
    spec.loader.exec_module(module)
    return module


models = _models()
PIPS = models.PIPS
TILES = models.TILES


def commit() -> str:
    """The commit the working tree is at, marked "+dirty" when it has changes (but for the
    models themselves, which training rewrites)."""
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no", "--", ".", ":!*.onnx"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    return head + ("+dirty" if dirty else "")


def data_sha256(paths: list[Path]) -> str:
    """One hash of the training data files, in the order given."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _field(number: int, payload: bytes) -> bytes:
    """A length-delimited protobuf field."""
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def stamp(onnx_file: Path, props: dict[str, str]) -> None:
    """Add `props` to a freshly exported model's metadata_props (ModelProto field 14, entries of
    key 1 and value 2). A protobuf message's fields may come in any order and repeated fields
    add up, so appending them to the file is a valid edit; no onnx package is needed."""
    extra = b"".join(
        _field(14, _field(1, key.encode()) + _field(2, value.encode()))
        for key, value in props.items()
    )
    onnx_file.write_bytes(onnx_file.read_bytes() + extra)


def metadata(spec: Any, seed: int, data: list[Path]) -> dict[str, str]:
    """What a model trained now from `data` with `seed` says of itself (models.METADATA)."""
    return {
        "model": spec.name,
        "version": str(spec.version),
        "commit": commit(),
        "seed": str(seed),
        "data": " ".join(p.name for p in data),
        "data_sha256": data_sha256(data),
    }


def main() -> None:
    import onnxruntime

    for path in sys.argv[2:]:
        meta = onnxruntime.InferenceSession(path, providers=["CPUExecutionProvider"])
        print(path, dict(meta.get_modelmeta().custom_metadata_map))


if __name__ == "__main__":
    main()
