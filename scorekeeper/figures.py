"""How figures and game dates read on every page, in the reader's language.

Averages and points are rounded here, and only here, by the one rule (core.round_half_up),
before Babel formats them (Babel alone would round half to even: 6.125 -> 6.12). A game is
dated by the day it was played (a club night's date), with the time only when it was entered
live. Registered as template globals by create_app.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any

from flask import Flask
from flask_babel import format_date, format_datetime, format_decimal

from scorekeeper import core

Figure = Fraction | Decimal | float | int


def figure(value: Figure | None, places: int, *, fixed: bool = True, none: str = "—") -> str:
    """`value` rounded half up to `places` decimals, in the reader's language; `fixed` keeps
    trailing zeros ('2.50'), otherwise they go ('2.5', '6'); `none` when there is no value."""
    if value is None:
        return none
    rounded = core.round_half_up(value, places)
    decimals = ("0" if fixed else "#") * places
    return format_decimal(rounded, "#,##0" + (f".{decimals}" if places else ""))


def one_decimal(value: Figure | None) -> str:
    """An average on a player's page: 12.3; a dash when there is nothing to show."""
    return figure(value, 1)


def season_figure(value: Figure | None, fixed: bool = False) -> str:
    """Points ('6', '4.5', '0.33') or, `fixed`, an average ('2.31'); '–' for none."""
    return figure(value, 2, fixed=fixed, none="–")


def played_when(game: Any) -> str:
    """When a game (or a line with played_on and played_at) was played: '1/10/25' for a game
    entered after the fact, '1/10/25, 7:05 PM' for one entered live."""
    day: date = game.played_on
    moment: datetime | None = game.played_at
    if moment is not None and moment.date() == day:
        return format_datetime(moment, "short")
    return format_date(day, "short")


def init_app(app: Flask) -> None:
    """Make the figure and date formats available to every template."""
    app.jinja_env.globals.update(
        figure=figure,
        one_decimal=one_decimal,
        season_figure=season_figure,
        played_when=played_when,
    )
