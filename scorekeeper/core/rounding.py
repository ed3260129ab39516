"""The one rounding rule for every figure shown or scored: half up (6.125 -> 6.13, 9.25 -> 9.3)."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction


def round_half_up(value: Fraction | Decimal | float | int, places: int = 0) -> Decimal:
    """`value` rounded half up to `places` decimals; a tie goes away from zero (-2.5 -> -3).

    A float is read as the shortest decimal that prints it (2.675 is 2.675, not the binary
    2.67499...), so a figure rounds as it reads; a Fraction is exact (49/8 -> 6.13)."""
    exact = Fraction(repr(value)) if isinstance(value, float) else Fraction(value)
    scaled = abs(exact) * 10**places
    whole = math.floor(scaled + Fraction(1, 2))
    return Decimal(whole if exact >= 0 else -whole).scaleb(-places)
