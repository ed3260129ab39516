"""Photo bytes to pixels: JPEG, PNG, WebP and iPhone HEIC, turned upright, at a working size.

Everything a file's header says is checked before a pixel is decoded: its format (only those
four: no GIF, BMP, TIFF, EPS...), its size (at most MAX_PIXELS, both sides at least MIN_SIDE,
no side more than MAX_ASPECT times the other). A file cut short is refused, not half read."""

from __future__ import annotations

import io
import warnings

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageOps, UnidentifiedImageError
from pillow_heif import register_heif_opener

register_heif_opener()

# Pillow's names of the formats read ("HEIF" is pillow-heif's, for HEIC and HEIF files alike).
FORMATS = ("JPEG", "PNG", "WEBP", "HEIF")
# What the reader works on: a 1600 px phone photo is read at this size (pips stay >= 6 px wide).
WORK_SIDE = 1200
# A phone photo is 12 MP (24 MP at most by default); more is refused before it is decoded
# (a few hundred bytes can claim a picture that takes gigabytes once decoded).
MAX_PIXELS = 24_000_000
# A hand needs room: a picture narrower than this on either side cannot show one.
MIN_SIDE = 32
# A panorama is at most about 4:1; a strip longer than this is no photo of a hand.
MAX_ASPECT = 10


class NotAnImage(ValueError):
    """The bytes are not a picture in any format we read."""


class Unreadable(ValueError):
    """The bytes are a picture that is not read: `reason` says why, one of "damaged", "cut"
    (the file ends early), "pixels" (over MAX_PIXELS), "small" (a side under MIN_SIDE) and
    "narrow" (one side over MAX_ASPECT times the other)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


def opened(data: bytes) -> Image.Image:
    """The picture in `data`, its header read and checked, no pixel decoded yet."""
    try:
        with warnings.catch_warnings():
            # Pillow warns (then refuses) far above MAX_PIXELS: either way, too many pixels.
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data), formats=FORMATS)
    except UnidentifiedImageError as error:
        raise NotAnImage(str(error)) from error
    except (Image.DecompressionBombWarning, Image.DecompressionBombError):
        raise Unreadable("pixels") from None
    except (OSError, ValueError, SyntaxError, EOFError, RuntimeError) as error:
        raise Unreadable("damaged") from error
    width, height = image.size
    if width * height > MAX_PIXELS:
        raise Unreadable("pixels")
    if min(width, height) < MIN_SIDE:
        raise Unreadable("small")
    if max(width, height) > MAX_ASPECT * min(width, height):
        raise Unreadable("narrow")
    return image


def decode(data: bytes) -> tuple[NDArray[np.uint8], float]:
    """The photo as a BGR array at most WORK_SIDE on its longest side, and the factor that
    turns its coordinates back into the original photo's pixels."""
    image = opened(data)
    try:
        # Pillow's LOAD_TRUNCATED_IMAGES stays False: a file that ends early raises here.
        image.load()
        image = ImageOps.exif_transpose(image).convert("RGB")
    except (OSError, ValueError, SyntaxError, EOFError, RuntimeError) as error:
        raise Unreadable("cut" if "truncated" in str(error) else "damaged") from error
    scale = 1.0
    longest = max(image.width, image.height)
    if longest > WORK_SIDE:
        scale = longest / WORK_SIDE
        size = (max(1, round(image.width / scale)), max(1, round(image.height / scale)))
        image = image.resize(size, Image.Resampling.BILINEAR, reducing_gap=2.0)
    rgb = np.asarray(image, dtype=np.uint8)
    return np.ascontiguousarray(rgb[:, :, ::-1]), scale
