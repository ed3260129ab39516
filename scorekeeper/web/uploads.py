"""Uploads kept in memory: Werkzeug writes a file part over 500 KB to an (unlinked) temporary
file; a photo of a hand is never written anywhere, so its request parses files into memory,
bounded by the request's max_content_length (checked before and while the body is read)."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import IO, Any

from flask import Request, current_app
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.formparser import FormDataParser

from scorekeeper.services import photos as photo_service


def _memory(
    total_content_length: int | None,
    content_type: str | None,
    filename: str | None,
    content_length: int | None = None,
) -> IO[bytes]:
    return io.BytesIO()


class InMemoryParser(FormDataParser):
    """Werkzeug's form parser with every file part kept in a BytesIO."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.stream_factory = _memory


def in_memory(request: Request) -> None:
    """Parse this request's files into memory (call before its form is first read)."""
    request.form_data_parser_class = InMemoryParser


def hand_photo(
    request: Request, *, busy_first: bool = True, protect: Callable[[], None] | None = None
) -> bytes:
    """The bytes of the photo a request sends (multipart field `photo`), for every route that
    reads a hand from a photo (the round sheet's, the table link's, the API's). Raises
    services.photos.PhotoRefused: 413 past PHOTO_MAX_BYTES (before a byte is parsed), 503 when
    the photo lane is full (`busy_first`: before the upload is parsed; a page posted without
    JavaScript parses its form first, to keep what was typed), 400 with no photo or an empty
    file. `protect`: the CSRF check, run once the upload limit is raised for the photo."""
    max_bytes = current_app.config["PHOTO_MAX_BYTES"]
    request.max_content_length = max_bytes + photo_service.FORM_ROOM
    in_memory(request)
    if (request.content_length or 0) > request.max_content_length:
        raise photo_service.too_large(max_bytes)
    if busy_first:
        photo_service.refuse_when_busy()
    try:
        if protect is not None:
            protect()
        upload = request.files.get("photo")
    except RequestEntityTooLarge:
        raise photo_service.too_large(max_bytes) from None
    return photo_service.uploaded(upload)
