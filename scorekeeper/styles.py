"""The stylesheets each page carries in its own <style>, and the hashes the CSP allows them by.

A linked stylesheet in the head is render-blocking: on a slow phone network (2 s a round trip)
the page could only be drawn after a second round trip for it. So pages carry their CSS inline
(static/css files, read once at start-up, comments and runs of blanks taken out) and each
response's Content-Security-Policy allows exactly the <style> elements that page holds, by their
SHA-256 (security.py): no 'unsafe-inline'. The files stay in static/ for the print views.
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from flask import Flask, current_app, g
from markupsafe import Markup

COMMENT = re.compile(r"/\*.*?\*/", re.S)
BLANKS = re.compile(r"\s+")
KEY = "inline_styles"


@dataclass(frozen=True)
class Style:
    """One stylesheet as a page inlines it: its text and the CSP source that allows it."""

    text: str
    source: str


def compact(css: str) -> str:
    """`css` without comments and with every run of blanks as one space (no string in our CSS
    holds two blanks in a row, or a comment)."""
    return BLANKS.sub(" ", COMMENT.sub("", css)).strip()


def csp_source(text: str) -> str:
    """The CSP source expression ('sha256-...') that allows a <style> holding exactly `text`."""
    digest = hashlib.sha256(text.encode()).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"


def load(folder: Path) -> dict[str, Style]:
    """Every stylesheet of `folder` by name ('app' for app.css), compacted and hashed."""
    styles = {}
    for path in sorted(folder.glob("*.css")):
        text = compact(path.read_text(encoding="utf-8"))
        styles[path.stem] = Style(text, csp_source(text))
    return styles


def inline_css(*names: str) -> Markup:
    """<style> elements for the named stylesheets; their hashes go into this response's CSP."""
    app = current_app
    if app.debug:  # `make dev`: an edited stylesheet shows on the next reload
        app.extensions[KEY] = load(Path(app.static_folder or "", "css"))
    styles = [app.extensions[KEY][name] for name in names]
    sources = g.setdefault("style_sources", [])
    sources.extend(style.source for style in styles if style.source not in sources)
    return Markup("".join(f"<style>{style.text}</style>" for style in styles))


def page_style_sources() -> list[str]:
    """The CSP sources of the <style> elements the page being answered holds."""
    return list(g.get("style_sources", ()))


def init_app(app: Flask) -> None:
    """Read and hash the stylesheets once; give templates `inline_css`."""
    app.extensions[KEY] = load(Path(app.static_folder or "", "css"))
    app.jinja_env.globals["inline_css"] = inline_css
