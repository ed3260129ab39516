"""Where a domino's pips sit (up to 18 a half): the geometry the `domino` macro draws
(templates/games/_macros.html)."""

from __future__ import annotations

_STANDARD: dict[int, list[tuple[int, int]]] = {
    0: [],
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)],
    5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)],
    7: [(0, 0), (0, 1), (0, 2), (1, 1), (2, 0), (2, 1), (2, 2)],
    8: [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)],
    9: [(c, r) for r in range(3) for c in range(3)],
}


def pip_positions(n: int) -> list[tuple[float, float]]:
    """Where the pips of a half showing n sit, in a unit square (0..1)."""
    if n in _STANDARD:
        return [(0.2 + 0.3 * c, 0.2 + 0.3 * r) for c, r in _STANDARD[n]]
    rows = -(-n // 3)
    step = 0.8 / max(rows - 1, 1)
    return [(0.2 + 0.3 * (i % 3), 0.1 + step * (i // 3)) for i in range(n)]
