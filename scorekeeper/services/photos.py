"""Reading a photo of a hand, whichever way it comes in (the round sheet, the API, `flask
count-pips`): one call to the reader (in the photo lane, photo_lane.py), one answer shape, one
set of refusals. Nothing is stored: not the photo, not the reading."""

from __future__ import annotations

from typing import TypedDict

from flask import current_app
from flask_babel import gettext as _
from werkzeug.datastructures import FileStorage

from scorekeeper.photos.decode import MAX_PIXELS, MIN_SIDE, NotAnImage, Unreadable
from scorekeeper.photos.reader import ADVICE, Reading, read_photo
from scorekeeper.services import photo_lane

# Room in a multipart body for the other fields beside the photo (the round sheet sends the
# whole round form with it).
FORM_ROOM = 64 * 1024


class PhotoRefused(Exception):
    """The photo cannot be read: the HTTP status that says why, and the words for the user."""

    def __init__(self, status: int, message: str, retry_after: int | None = None) -> None:
        self.status = status
        self.message = message
        # Seconds to wait before sending it again (a 503's Retry-After).
        self.retry_after = retry_after
        super().__init__(message)


class TileAnswer(TypedDict):
    pips: list[int]
    confidence: float
    corners: list[list[float]]


class PhotoAnswer(TypedDict):
    tiles: list[TileAnswer]
    total: int
    advice: list[str]


def too_large(max_bytes: int) -> PhotoRefused:
    """413: the photo (or the body carrying it) is larger than `max_bytes`."""
    megabytes = max_bytes // (1024 * 1024)
    return PhotoRefused(
        413, _("The photo is larger than %(n)s MB: take it again at a smaller size.", n=megabytes)
    )


def no_photo() -> PhotoRefused:
    """400: no photo was sent (no file chosen)."""
    return PhotoRefused(400, _("Choose a photo of the hand first."))


def empty_file() -> PhotoRefused:
    """400: a file was sent, but it holds nothing (a photo the phone did not finish writing)."""
    return PhotoRefused(400, _("That photo file is empty: take the photo again or choose another."))


def uploaded(upload: FileStorage | None) -> bytes:
    """The bytes of an upload (the multipart field `photo`). Raises PhotoRefused (400) when no
    file was chosen (no field, or a form's file field left empty: no file name)."""
    data = upload.read() if upload is not None else b""
    if not data and (upload is None or not upload.filename):
        raise no_photo()
    return data


def unreadable(reason: str) -> PhotoRefused:
    """422: a picture that is not read, and why (decode.Unreadable's reason)."""
    messages = {
        "cut": _("The photo file is incomplete (cut short while sending?): send it again."),
        "pixels": _(
            "The photo has more than %(n)s megapixels: take it again at a smaller size.",
            n=MAX_PIXELS // 1_000_000,
        ),
        "small": _(
            "The picture is too small to show a hand: it needs at least %(n)s pixels each way.",
            n=MIN_SIDE,
        ),
        "narrow": _("The picture is too long and narrow to show a hand: take a photo of the hand."),
    }
    return PhotoRefused(
        422, messages.get(reason) or _("That photo could not be read: take it again.")
    )


def busy() -> PhotoRefused:
    """503: every place in the photo lane is taken; try again in a few seconds."""
    return PhotoRefused(
        503,
        _("Many photos are being read right now: wait a few seconds and send this one again."),
        retry_after=photo_lane.RETRY_AFTER,
    )


def refuse_when_busy() -> None:
    """Raise busy() (503) when the photo lane is full, before the photo is even read."""
    if photo_lane.full(current_app._get_current_object()):  # type: ignore[attr-defined]
        raise busy()


def read_hand(
    data: bytes, *, set_max: int, max_bytes: int | None, in_process: bool = False
) -> Reading:
    """The tiles on a photo of one hand of a double-`set_max` set, read in the photo lane (or
    `in_process`: the command line's, where no request waits behind it). Raises PhotoRefused:
    400 (an empty file), 413 (over `max_bytes`, if given), 415 (not a JPEG, PNG, WebP or HEIC
    picture), 422 (a picture that cannot be read, and why), 503 (the lane is full)."""
    if not data:
        raise empty_file()
    if max_bytes is not None and len(data) > max_bytes:
        raise too_large(max_bytes)
    try:
        if in_process:
            return read_photo(data, set_max=set_max)
        return photo_lane.read(data, set_max)
    except NotAnImage:
        raise PhotoRefused(
            415, _("That file is not a photo: choose a JPEG, PNG or HEIC picture.")
        ) from None
    except Unreadable as error:
        raise unreadable(error.reason) from None
    except photo_lane.Busy:
        raise busy() from None


def answer(reading: Reading) -> PhotoAnswer:
    """The reading as the API, the page's script and `flask count-pips` send it: each tile's
    values, confidence (0-1) and four corners in the photo's pixels; the total; advice in
    words."""
    return {
        "tiles": [
            {
                "pips": list(tile.pips),
                "confidence": tile.confidence,
                "corners": [list(point) for point in tile.corners],
            }
            for tile in reading.tiles
        ],
        "total": reading.total,
        "advice": [_(ADVICE[code]) for code in reading.advice],
    }
