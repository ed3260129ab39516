"""A player's rating chart (their rating after each game): keyed by the figures it shows, drawn
once per key, then served from the chart cache. Its ETag is the club's ratings mark plus `shown`,
so a repeat is answered 304 without reading the ratings."""

from __future__ import annotations

import re
from collections.abc import Sequence

from babel.dates import format_date
from flask import has_request_context
from flask_babel import get_locale

from scorekeeper.charts import draw
from scorekeeper.charts.cache import CACHE, digest
from scorekeeper.charts.text import ChartText, chart_text, locale
from scorekeeper.models import Club
from scorekeeper.services.rating_replay import BASE, Step

# Part of every chart's key: bump it when draw.rating_chart draws differently.
CHART_STYLE = 1


def labels_of(steps: Sequence[Step]) -> list[str]:
    """Each game's date, short, in the reader's language."""
    found = get_locale() if has_request_context() else None
    return [format_date(step.played_on, "short", locale=found or "en") for step in steps]


def shown(entry_id: int, text: ChartText | None = None) -> str:
    """Everything a player's rating chart shows besides the club's ratings and the language
    (whose chart, its drawing style, its words): for its ETag."""
    words = text or chart_text()
    return f"rating-{entry_id}-s{CHART_STYLE}.{draw.STYLE}-{words.digest}"


def chart_key(steps: Sequence[Step], labels: Sequence[str], text: ChartText | None = None) -> str:
    """The chart's content fingerprint, which is also its ETag: the ratings it shows are the
    data version (a replay has no version column to bump)."""
    words = text or chart_text()
    parts = [str(CHART_STYLE), *(f"{s.game_id}:{s.rating}" for s in steps), *labels, words.digest]
    return digest("\x1f".join(parts), 12)


def chart_svg(
    club: Club,
    entry_id: int,
    steps: Sequence[Step],
    labels: Sequence[str],
    text: ChartText | None = None,
) -> tuple[bytes, str]:
    """The chart's SVG and ETag (its key), from the cache or drawn and stored; this player's
    older rating charts in the same wording are deleted."""
    words = text or chart_text()
    key = chart_key(steps, labels, words)
    prefix = f"c{club.id}-r{entry_id}-{locale()}-{words.digest}-s{draw.STYLE}-"
    own = re.compile(re.escape(prefix) + r"[0-9a-f]+\.svg$")
    ratings = [step.rating for step in steps]

    def render() -> bytes:
        return draw.rating_chart(
            labels,
            ratings,
            newcomer=BASE,
            title=words.rating_title,
            xlabel=words.game_played,
            ylabel=words.rating,
        )

    svg, _etag = CACHE.get(f"{prefix}{key}.svg", render, own.match)
    return svg, key
