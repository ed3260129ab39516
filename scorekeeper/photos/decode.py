"""Photo bytes to pixels: JPEG, PNG, WebP and iPhone HEIC, turned upright, at a working size."""

from __future__ import annotations

import io

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageOps, UnidentifiedImageError
from pillow_heif import register_heif_opener

register_heif_opener()

# What the reader works on: a 1600 px phone photo is read at this size (pips stay >= 6 px wide).
WORK_SIDE = 1200
# A decompression bomb is refused before its pixels are allocated.
MAX_PIXELS = 60_000_000


class NotAnImage(ValueError):
    """The bytes are not a picture in any format we read."""


class Unreadable(ValueError):
    """The bytes look like a picture but cannot be decoded."""


def decode(data: bytes) -> tuple[NDArray[np.uint8], float]:
    """The photo as a BGR array at most WORK_SIDE on its longest side, and the factor that
    turns its coordinates back into the original photo's pixels."""
    # MAX_PIXELS is under Pillow's own warning size, so only its error (at twice that size,
    # raised by open() itself) comes before the check here.
    try:
        opened = Image.open(io.BytesIO(data))
        if opened.width * opened.height > MAX_PIXELS:
            raise Unreadable("too many pixels")
        image: Image.Image = ImageOps.exif_transpose(opened).convert("RGB")
    except UnidentifiedImageError as error:
        raise NotAnImage(str(error)) from error
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombError) as error:
        raise Unreadable(str(error)) from error
    if min(image.width, image.height) < 16:
        raise Unreadable("too small")
    scale = 1.0
    longest = max(image.width, image.height)
    if longest > WORK_SIDE:
        scale = longest / WORK_SIDE
        size = (round(image.width / scale), round(image.height / scale))
        image = image.resize(size, Image.Resampling.BILINEAR, reducing_gap=2.0)
    rgb = np.asarray(image, dtype=np.uint8)
    return np.ascontiguousarray(rgb[:, :, ::-1]), scale
