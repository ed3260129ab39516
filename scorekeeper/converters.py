"""The URL converter for ids and numbers in paths: bounded, so no URL reaches the database with a
number it cannot hold (SQLite stops at 2**63-1, PostgreSQL's integer at 2**31-1)."""

from __future__ import annotations

from flask import Flask
from werkzeug.routing import IntegerConverter, Map

# PostgreSQL's `integer`, the type of every id column: the largest id any table can hold.
MAX_ID = 2**31 - 1


class IdConverter(IntegerConverter):
    """`<id:name>`: a positive whole number up to MAX_ID, ASCII digits only; anything else
    (zero, a sign, more digits, other scripts' digits) matches no route, so it is a 404."""

    # Ten digits hold MAX_ID; a longer run never reaches int() (which refuses > 4,300 digits).
    regex = r"[0-9]{1,10}"

    def __init__(self, map: Map, min: int = 1, max: int = MAX_ID) -> None:
        super().__init__(map, min=min, max=max)


def init_app(app: Flask) -> None:
    """Register the `id` converter (before any blueprint's routes are added)."""
    app.url_map.converters["id"] = IdConverter
