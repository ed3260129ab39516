"""A pseudo-translation of every message, and a reader of a page's visible words, to find English
that escaped translation: each msgstr is its msgid with every letter accented inside ⟦…⟧
(placeholders, HTML tags and entities kept), so any plain ASCII word left on a page was never
looked up in the catalogue."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "scorekeeper" / "translations" / "messages.pot"
# A language Babel knows and the app does not ship, written in another alphabet: its dates and
# month names (Babel's own) cannot pass for English words.
PSEUDO = "el"

_ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "áƀçðéƒĝĥíĵķĺɱñöþʠŕšţúṽŵẋýžÁƁÇÐÉƑĜĤÍĴĶĹṀÑÖÞǪŔŠŢÚṼŴẊÝŽ",
)
# What must survive translation untouched: Python placeholders, brace placeholders (the
# JavaScript's "{n}", "__N__"), HTML tags and entities.
_KEPT = re.compile(
    r"(%\([^)]*\)[-#0 +]*\d*(?:\.\d+)?[sdifr]|%[sdifr%]|\{[^{}]*\}|__\w+__|<[^>]*>|&#?\w+;)"
)


def pseudo(text: str) -> str:
    """`text` with each letter accented and the whole marked ⟦…⟧ (placeholders kept)."""
    parts = _KEPT.split(text)
    return "⟦" + "".join(p if i % 2 else p.translate(_ACCENTED) for i, p in enumerate(parts)) + "⟧"


def build(folder: Path, template: Path = TEMPLATE) -> Path:
    """Compile a pseudo catalogue of every message in `template` into `folder` (the directory
    to give BABEL_TRANSLATION_DIRECTORIES); returns `folder`."""
    with open(template, "rb") as source:
        messages = read_po(source)
    catalog = Catalog(locale=PSEUDO)
    for message in messages:
        if not message.id:
            continue
        if message.pluralizable:
            singular, plural = message.id
            forms = [pseudo(singular)] + [pseudo(plural)] * (catalog.num_plurals - 1)
            catalog.add(message.id, tuple(forms), context=message.context)
        else:
            catalog.add(message.id, pseudo(message.id), context=message.context)
    out = folder / PSEUDO / "LC_MESSAGES"
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "messages.mo", "wb") as mo:
        write_mo(mo, catalog)
    return folder


_NOT_WORDS = re.compile(
    # links, emails, figures, paths, tokens, and the scripts' placeholders ("{n}", "__N__")
    r"https?://\S+|\S+@\S+|\S*\d\S*|/\S*|\S{20,}|\{\w+\}|__\w+__|%\(\w+\)[sd]"
)
_ASCII_WORD = re.compile(r"[A-Za-z]{2,}")


def english_words(texts: list[str], allowed: set[str]) -> list[str]:
    """The plain ASCII words in `texts`, less the `allowed` ones (names the players typed, brand
    words). Inside ⟦…⟧ too: a plain word there came through a placeholder ("Round 2, Ana: out"
    where "out" was never translated)."""
    found: list[str] = []
    for text in texts:
        rest = _NOT_WORDS.sub(" ", text)
        found += [word for word in _ASCII_WORD.findall(rest) if word not in allowed]
    return found


_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
         "track", "wbr"}  # fmt: skip
_SHOWN_ATTRIBUTES = {"title", "alt", "aria-label", "placeholder", "aria-roledescription"}
_HIDDEN = {"script", "style"}


class _Visible(HTMLParser):
    """Collects what a reader sees or hears: text, and the attributes browsers show or speak."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        # Per open element: whether its text is skipped (script, style, another `lang`).
        self.stack: list[bool] = []
        self.page_lang: str | None = None

    def skipping(self) -> bool:
        return any(self.stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "html":
            self.page_lang = values.get("lang")
        other_language = "lang" in values and tag != "html" and values["lang"] != self.page_lang
        skip = tag in _HIDDEN or other_language
        if not (self.skipping() or skip):
            self._attributes(tag, values)
        if tag not in _VOID:
            self.stack.append(skip)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self.skipping():
            self._attributes(tag, {name: value or "" for name, value in attrs})

    def _attributes(self, tag: str, values: dict[str, str]) -> None:
        for name, value in values.items():
            shown = name in _SHOWN_ATTRIBUTES or (
                name == "value" and tag == "input" and values.get("type") in ("submit", "button")
            )
            # Words the scripts show come from data attributes: the ones holding a phrase (not
            # a JSON list, a URL or a one-word setting like data-live-target="night").
            said = (
                name.startswith("data-")
                and " " in value.strip()
                and not value.startswith(("/", "[", "{", "http"))
            )
            if shown or said:
                self.texts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag not in _VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if not self.skipping() and data.strip():
            self.texts.append(data)


def visible_texts(html: str) -> tuple[str | None, list[str]]:
    """The page's `<html lang>` and every piece of text it shows."""
    parser = _Visible()
    parser.feed(html)
    parser.close()
    return parser.page_lang, parser.texts


def svg_texts(svg: str) -> list[str]:
    """The words an SVG chart draws (its <text> and <title>)."""
    return [
        re.sub(r"<[^>]+>", " ", found)
        for found in re.findall(r"<(?:text|title)\b[^>]*>(.*?)</(?:text|title)>", svg, re.S)
    ]
