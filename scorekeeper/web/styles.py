"""The stylesheets a page carries in its own <style>, the hashes the CSP allows them by, and the
one it links when it has been drawn.

A linked stylesheet in the head is render-blocking: on a slow phone network (2 s a round trip)
the page could only be drawn after a second round trip for it. So a page carries inline what its
first screen needs (static/css/app.css on every page, then forms.css or sheet.css: templates
name them, `inline_css`), read once at start-up with comments and blanks taken out, and each
response's Content-Security-Policy allows exactly the <style> elements that page holds, by their
SHA-256 (security.py): no 'unsafe-inline'. The rest (later.css) is linked at the end of the page
(`stylesheet_url`): the browser draws what came before it first. Its address carries a digest of
the file, so the phone keeps it for a year (static_files.py) and a new release is a new address;
the service worker keeps it too, for pages opened offline. The print views link the files.
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from flask import Flask, current_app, g, url_for
from markupsafe import Markup

COMMENT = re.compile(r"/\*.*?\*/", re.S)
BLANKS = re.compile(r"\s+")
# Blanks around braces, semicolons and commas, and after a colon, are not needed: a declaration's
# colon never starts a selector's pseudo-class (" :hover" keeps its blank), and a quoted string
# is left as it is.
TIGHT = re.compile(r"(\"[^\"]*\"|'[^']*')|\s*([{};,])\s*|(:)\s+")
KEY = "inline_styles"
# The stylesheet linked at the end of every page: what no first screen needs.
LATER = "later"
# The first screens' stylesheets, each inline in the pages that need it and linked (before
# later.css) at the end of the others, so every page has every rule.
FIRST = ("app", "sheet", "forms")


@dataclass(frozen=True)
class Style:
    """One stylesheet: its text as a page inlines it, the CSP source that allows it, and the
    version its address carries (a digest of the file)."""

    text: str
    source: str
    version: str


def compact(css: str) -> str:
    """`css` without comments, blanks where none are needed, or a last semicolon in a block (no
    string in our CSS holds a brace, a semicolon, two blanks in a row, or a comment)."""
    text = BLANKS.sub(" ", COMMENT.sub("", css)).strip()
    text = TIGHT.sub(lambda m: m.group(1) or m.group(2) or m.group(3), text)
    return text.replace(";}", "}")


def csp_source(text: str) -> str:
    """The CSP source expression ('sha256-...') that allows a <style> holding exactly `text`."""
    digest = hashlib.sha256(text.encode()).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"


def load(folder: Path) -> dict[str, Style]:
    """Every stylesheet of `folder` by name ('app' for app.css), compacted, hashed, versioned."""
    styles = {}
    for path in sorted(folder.glob("*.css")):
        source = path.read_bytes()
        text = compact(source.decode("utf-8"))
        version = hashlib.sha256(source).hexdigest()[:12]
        styles[path.stem] = Style(text, csp_source(text), version)
    return styles


def _styles() -> dict[str, Style]:
    app = current_app
    if app.debug:  # `make dev`: an edited stylesheet shows on the next reload
        app.extensions[KEY] = load(Path(app.static_folder or "", "css"))
    styles: dict[str, Style] = app.extensions[KEY]
    return styles


def inline_css(*names: str) -> Markup:
    """<style> elements for the named stylesheets; their hashes go into this response's CSP."""
    styles = [_styles()[name] for name in names]
    g.setdefault("inline_names", set()).update(names)
    sources = g.setdefault("style_sources", [])
    sources.extend(style.source for style in styles if style.source not in sources)
    return Markup("".join(f"<style>{style.text}</style>" for style in styles))


def stylesheet_url(name: str = LATER) -> str:
    """The address of static/css/<name>.css with its version: kept a year (static_files.py)."""
    return url_for("static", filename=f"css/{name}.css", v=_styles()[name].version)


def linked_css() -> Markup:
    """<link> elements, for the end of a page, for the first screens' stylesheets the page does
    not hold inline and for later.css."""
    inline = g.get("inline_names", set())
    names = [name for name in FIRST if name not in inline] + [LATER]
    return Markup(
        "".join(f'<link rel="stylesheet" href="{stylesheet_url(name)}">' for name in names)
    )


def current_version(filename: str) -> str | None:
    """The version of a static file's address if it is one of the stylesheets ('css/x.css')."""
    folder, _, name = filename.partition("/")
    if folder != "css" or not name.endswith(".css"):
        return None
    style = current_app.extensions[KEY].get(name[: -len(".css")])
    return style.version if style else None


def page_style_sources() -> list[str]:
    """The CSP sources of the <style> elements the page being answered holds."""
    return list(g.get("style_sources", ()))


def init_app(app: Flask) -> None:
    """Read and hash the stylesheets once; give templates `inline_css`, `linked_css` and
    `stylesheet_url`."""
    app.extensions[KEY] = load(Path(app.static_folder or "", "css"))
    app.jinja_env.globals["inline_css"] = inline_css
    app.jinja_env.globals["stylesheet_url"] = stylesheet_url
    app.jinja_env.globals["linked_css"] = linked_css
