"""How figures read on every page: one rounding rule (core.round_half_up), the reader's language.

Averages and points are rounded here, and only here, before Babel formats them (Babel alone
would round half to even: 6.125 -> 6.12). Registered as template globals by create_app.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from flask import Flask
from flask_babel import format_decimal

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


def init_app(app: Flask) -> None:
    """Make the figure formats available to every template."""
    app.jinja_env.globals.update(
        figure=figure, one_decimal=one_decimal, season_figure=season_figure
    )
