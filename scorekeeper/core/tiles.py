"""Domino tiles and sets: the double-N sets, parsing `a-b`, and what a tile is worth."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum

from .problems import N_, Problem, RuleError

SUPPORTED_SETS: tuple[int, ...] = (6, 9, 12, 15, 18)
DEFAULT_SET = 12


class BlankScoring(StrEnum):
    """How blanks count (RULES.md section 2)."""

    FACE = "face"
    BLANK_25 = "blank_25"
    DOUBLE_BLANK_25 = "double_blank_25"
    DOUBLE_BLANK_50 = "double_blank_50"


@dataclass(frozen=True, order=True)
class Tile:
    """One domino, stored with its smaller end first: Tile(3, 7) is 3-7 and also 7-3."""

    low: int
    high: int

    @classmethod
    def of(cls, a: int, b: int) -> Tile:
        """The tile with ends a and b, in either order."""
        return cls(min(a, b), max(a, b))

    @property
    def is_double(self) -> bool:
        return self.low == self.high

    @property
    def pips(self) -> int:
        return self.low + self.high

    def __str__(self) -> str:
        # Players name a tile high end first: "six-four" is 6-4.
        return f"{self.high}-{self.low}"


def double(n: int) -> Tile:
    """The double n-n."""
    return Tile(n, n)


def tiles_in_set(set_size: int) -> Iterator[Tile]:
    """Every tile of a double-N set, smallest first."""
    for low in range(set_size + 1):
        for high in range(low, set_size + 1):
            yield Tile(low, high)


def tile_count(set_size: int) -> int:
    """How many tiles a double-N set holds: (N+1)(N+2)/2."""
    return (set_size + 1) * (set_size + 2) // 2


def set_pips(set_size: int) -> int:
    """The pips on every tile of a double-N set: N(N+1)(N+2)/2."""
    return set_size * (set_size + 1) * (set_size + 2) // 2


def check_set(set_size: int) -> None:
    """Raise RuleError unless set_size is a supported double-N set."""
    if set_size not in SUPPORTED_SETS:
        raise RuleError(
            Problem(
                "set_unsupported",
                N_("Double-%(set)s sets are not supported: choose double-6, 9, 12, 15 or 18."),
                {"set": set_size},
                field="set",
            )
        )


def tile_value(tile: Tile, blank_scoring: BlankScoring = BlankScoring.FACE) -> int:
    """What a tile left in hand scores under a blank option."""
    if tile.low != 0 or blank_scoring == BlankScoring.FACE:
        return tile.pips
    if blank_scoring == BlankScoring.BLANK_25:
        return 25 * (2 if tile.is_double else 1) + tile.high
    if not tile.is_double:
        return tile.pips
    return 25 if blank_scoring == BlankScoring.DOUBLE_BLANK_25 else 50


def hand_value(tiles: Iterable[Tile], blank_scoring: BlankScoring = BlankScoring.FACE) -> int:
    """What a hand of tiles scores under a blank option."""
    return sum(tile_value(tile, blank_scoring) for tile in tiles)


_TILE = re.compile(r"^\s*\[?\s*(\d{1,2})\s*[-|/:]\s*(\d{1,2})\s*\]?\s*$")


def parse_tile(text: str) -> Tile:
    """Read a tile written `a-b` or `[a|b]`; raise RuleError if it is not one."""
    match = _TILE.match(text) if isinstance(text, str) else None
    if match is None:
        raise RuleError(
            Problem(
                "tile_unreadable",
                N_("%(text)s is not a tile: write it like 6-4."),
                {"text": str(text)},
                field="tiles",
            )
        )
    return Tile.of(int(match.group(1)), int(match.group(2)))


def best_tiles_value(
    set_size: int,
    count: int,
    blank_scoring: BlankScoring = BlankScoring.FACE,
    engine: Tile | None = None,
) -> int:
    """The most `count` tiles of the set (engine left out) can be worth together."""
    values = sorted(
        (tile_value(t, blank_scoring) for t in tiles_in_set(set_size) if t != engine),
        reverse=True,
    )
    return sum(values[:count])


def most_in_hands(
    set_size: int, blank_scoring: BlankScoring = BlankScoring.FACE, engine: Tile | None = None
) -> int:
    """The value of every tile of the set but the engine: no hand, nor all hands, can hold more."""
    return best_tiles_value(set_size, tile_count(set_size), blank_scoring, engine)
