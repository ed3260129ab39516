"""A domino drawn as SVG, for the engine of the round (pips up to 18 a half)."""

from __future__ import annotations

from markupsafe import Markup, escape

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


def domino_svg(high: int, low: int, label: str, size: int = 120) -> Markup:
    """An upright domino (high half on top) with an accessible label."""
    width, half = size // 2, size // 2
    parts = [
        f'<svg class="domino" viewBox="0 0 {width} {size}" width="{width}" height="{size}" '
        f'role="img" aria-label="{escape(label)}">',
        f'<rect x="1" y="1" width="{width - 2}" height="{size - 2}" rx="6" class="domino-face"/>',
        f'<line x1="6" y1="{half}" x2="{width - 6}" y2="{half}" class="domino-bar"/>',
    ]
    radius = 4.2 if max(high, low) <= 9 else 3.2
    for offset, value in ((0, high), (half, low)):
        for x, y in pip_positions(value):
            parts.append(
                f'<circle cx="{x * width:.1f}" cy="{offset + y * half:.1f}" r="{radius}" '
                'class="domino-pip"/>'
            )
    parts.append("</svg>")
    return Markup("".join(parts))
