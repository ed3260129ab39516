"""A player's chart (average score per round, month by month): keyed by the figures it shows,
drawn once per key, then served from the chart cache."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import astuple

from scorekeeper.charts import draw
from scorekeeper.charts.cache import CACHE, digest
from scorekeeper.charts.text import ChartText, chart_text, locale
from scorekeeper.models import Club
from scorekeeper.services.players import MonthPoint

# Part of every chart's key: bump it when draw.player_chart draws differently, so files cached
# by an older build are not served again.
CHART_STYLE = 2


def chart_key(
    points: Sequence[MonthPoint], labels: Sequence[str], text: ChartText | None = None
) -> str:
    """The chart's content fingerprint, which is also its ETag: the player's data version.

    It changes when a game of theirs finishes (or is reopened, moved, merged) and when the
    wording changes; there is no version column to bump, so the data is the version."""
    words = text or chart_text()
    parts = [str(CHART_STYLE), *(repr(astuple(p)) for p in points), *labels, words.digest]
    return digest("\x1f".join(parts), 12)


def chart_svg(
    club: Club,
    entry_id: int,
    points: Sequence[MonthPoint],
    labels: Sequence[str],
    text: ChartText | None = None,
) -> tuple[bytes, str]:
    """The chart's SVG and ETag (its key), from the cache or drawn and stored; this player's
    older charts in the same wording are deleted."""
    words = text or chart_text()
    key = chart_key(points, labels, words)
    # One file per player and wording (language): a new data version replaces the old file.
    prefix = f"c{club.id}-p{entry_id}-{locale()}-{words.digest}-s{draw.STYLE}-"
    own = re.compile(re.escape(prefix) + r"[0-9a-f]+\.svg$")
    svg, _etag = CACHE.get(f"{prefix}{key}.svg", lambda: _render(points, labels, words), own.match)
    return svg, key


def _render(points: Sequence[MonthPoint], labels: Sequence[str], text: ChartText) -> bytes:
    return draw.player_chart(
        labels,
        [p.average for p in points],
        [p.running_average for p in points],
        title=text.player_title,
        month_label=text.that_month,
        running_label=text.since_first_game,
        xlabel=text.month,
        ylabel=text.per_round,
    )
