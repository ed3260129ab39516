"""Draw the app icons (a domino on the header's navy) as PNG and ICO: run once, commit the output.

`python docs/make_icons.py` from the repository root; needs Pillow (matplotlib's
dependency, already installed).
"""

from pathlib import Path

from PIL import Image, ImageDraw

HERE = Path(__file__).resolve().parents[1] / "static" / "img"
NAVY, WHITE = "#12263f", "#ffffff"
# Pips of a 3 over a 4, on a 32-unit grid like favicon.svg.
PIPS = [(13, 5.5), (16, 8.25), (19, 11), (13, 20.5), (19, 20.5), (13, 26.5), (19, 26.5)]


def icon(size: int, *, maskable: bool = False) -> Image.Image:
    """A white domino on navy; a maskable icon keeps it inside the middle 80%."""
    scale = size / 32 * (0.7 if maskable else 0.9)
    offset = (size - 32 * scale) / 2
    image = Image.new("RGBA", (size, size), NAVY)
    draw = ImageDraw.Draw(image)

    def at(x: float, y: float) -> tuple[float, float]:
        return offset + x * scale, offset + y * scale

    draw.rounded_rectangle([*at(9, 1), *at(23, 31)], radius=3 * scale, fill=WHITE)
    draw.line([at(11, 16), at(21, 16)], fill=NAVY, width=max(1, round(2 * scale)))
    for x, y in PIPS:
        r = 1.7 * scale
        cx, cy = at(x, y)
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=NAVY)
    return image


if __name__ == "__main__":
    icon(192).save(HERE / "icon-192.png", optimize=True)
    icon(512).save(HERE / "icon-512.png", optimize=True)
    icon(512, maskable=True).save(HERE / "icon-maskable-512.png", optimize=True)
    icon(180).convert("RGB").save(HERE / "apple-touch-icon.png", optimize=True)
    icon(48).save(HERE / "favicon.ico", sizes=[(16, 16), (32, 32), (48, 48)])
