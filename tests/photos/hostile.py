"""Files a photo reader must refuse before decoding them, made here (no file from elsewhere)."""

from __future__ import annotations

import io
import struct
import zlib

from PIL import Image

from training.synthetic import make_photo


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_header(width: int, height: int) -> bytes:
    """A PNG of `width` x `height` pixels by its header, with almost no picture data."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(b"\x00" * 10))
        + _chunk(b"IEND", b"")
    )


def cut_png() -> bytes:
    """The first 170 bytes of a real 4000 x 3000 PNG: its header, then the file ends."""
    rows = (b"\x00" + bytes(range(256)) * 47)[: 1 + 4000 * 3] * 3000
    header = struct.pack(">IIBBBBB", 4000, 3000, 8, 2, 0, 0, 0)
    whole = b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(rows))
    return whole[:170]


def photo_as(kind: str) -> bytes:
    """A drawn photo of a hand saved as `kind` (a Pillow format: "GIF", "BMP", "EPS"...)."""
    image = Image.open(io.BytesIO(make_photo(1).jpeg))
    out = io.BytesIO()
    image.save(out, kind)
    return out.getvalue()
