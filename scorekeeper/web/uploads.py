"""Uploads kept in memory: Werkzeug writes a file part over 500 KB to an (unlinked) temporary
file; a photo of a hand is never written anywhere, so its request parses files into memory,
bounded by the request's max_content_length (checked before and while the body is read)."""

from __future__ import annotations

import io
from typing import IO, Any

from flask import Request
from werkzeug.formparser import FormDataParser


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
