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

    # 1 to 2147483647 written out as a pattern: Werkzeug checks a route's method before its
    # converter's bounds, so an id that only failed `max` made DELETE answer 405 (the path
    # "matched" the GET route); an id this pattern refuses matches no route and is a plain 404.
    # A longer run of digits never reaches int() either (it refuses > 4,300 digits).
    regex = (
        r"(?:[1-9][0-9]{0,8}|1[0-9]{9}|20[0-9]{8}|21[0-3][0-9]{7}|214[0-6][0-9]{6}"
        r"|2147[0-3][0-9]{5}|21474[0-7][0-9]{4}|214748[0-2][0-9]{3}|2147483[0-5][0-9]{2}"
        r"|21474836[0-3][0-9]|214748364[0-7])"
    )

    def __init__(self, map: Map, min: int = 1, max: int = MAX_ID) -> None:
        super().__init__(map, min=min, max=max)


def init_app(app: Flask) -> None:
    """Register the `id` converter (before any blueprint's routes are added)."""
    app.url_map.converters["id"] = IdConverter
