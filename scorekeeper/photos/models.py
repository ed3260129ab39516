"""The photo reader's networks, each declared once: its file, input name, crop, labels and
version, read by the runtime (net.py, boxnet.py) and by training/ alike; and each network's
onnxruntime session.

Standard library only at import: training/ loads this file by its path in a venv that has
PyTorch but not the app (training/spec.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
# What every model's ONNX metadata (metadata_props) holds, written when it is exported
# (training/spec.py) and checked by tests/photos/test_models.py.
METADATA = ("model", "version", "commit", "seed", "data", "data_sha256")


@dataclass(frozen=True)
class ModelSpec:
    """One network: `file` beside this module, fed `input` as (N, 3, height, width) 0-255 BGR,
    giving `labels` logits a row. `version` moves whenever the file is trained anew."""

    name: str
    file: str
    input: str
    height: int
    width: int
    labels: int
    version: int

    @property
    def path(self) -> Path:
        return HERE / self.file


# Reads a half of a tile, cut square: how many pips it shows, 0 to 18 (a double-18 set).
PIPS = ModelSpec("pips", "pips.onnx", "crops", height=40, width=40, labels=19, version=3)
# Judges a candidate box, widened and straightened long side down: one whole tile, or not.
TILES = ModelSpec("tiles", "tiles.onnx", "boxes", height=64, width=32, labels=1, version=1)
SPECS = {spec.name: spec for spec in (PIPS, TILES)}

# Each network's session, made on the first photo a process reads (a process that never reads
# one never loads onnxruntime).
_SESSIONS: dict[str, Any] = {}


def session(spec: ModelSpec) -> Any:
    """The network of `spec`, loaded once per process (each under 1 MB), run on one thread."""
    if spec.name not in _SESSIONS:
        import onnxruntime

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        _SESSIONS[spec.name] = onnxruntime.InferenceSession(
            str(spec.path), options, providers=["CPUExecutionProvider"]
        )
    return _SESSIONS[spec.name]


def run(spec: ModelSpec, batch: Any) -> Any:
    """The network's first output for `batch` (N, 3, height, width), float32."""
    return session(spec).run(None, {spec.input: batch})[0]


def metadata(spec: ModelSpec) -> dict[str, str]:
    """What the model's file says of itself: its ONNX metadata_props."""
    return dict(session(spec).get_modelmeta().custom_metadata_map)
