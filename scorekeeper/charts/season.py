"""A season's charts: the leaders' standing after each club night (its data from the season
standings service, drawn once per season data version, language and wording) and each player's
race chart (their place after each night), both served from the chart cache."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date

from flask_babel import format_date

from scorekeeper.charts import draw
from scorekeeper.charts.cache import CACHE, digest
from scorekeeper.charts.text import ChartText, chart_text, locale
from scorekeeper.figures import season_figure
from scorekeeper.models import Season
from scorekeeper.services import season_standings, season_story
from scorekeeper.services.season_standings import NightByNight

# How many players the chart follows (the leaders); more lines would not read.
CHART_PLAYERS = 6
# Part of the cache key: bumped when the legend's figures change (2: rounded half up, so a
# chart drawn before reads as the table does once its file is replaced).
LEGEND = 2
# A race chart's answer under a URL naming its data version: members' pages only (private), and
# that URL's answer never changes.
RACE_KEPT = "private, max-age=31536000, immutable"


def chart_data(season: Season) -> NightByNight:
    """What the chart draws: the leaders' cumulative figure after each club night."""
    return season_standings.leaders_by_night(season, CHART_PLAYERS)


def night_label(day: date) -> str:
    """A night's date under its tick, in the request's language ('31 Dec')."""
    return format_date(day, "d MMM")


def chart_svg(
    season: Season, text: ChartText | None = None, label_of: Callable[[date], str] = night_label
) -> tuple[bytes, str]:
    """The season chart's SVG and its ETag: drawn once per season data version (see
    season_standings.data_version), language and wording, then served from the cache.
    `label_of` writes a night's date under its tick."""
    words = text or chart_text()
    probe = label_of(date(2001, 12, 31))  # the date format of the request's language
    key = digest(repr((season_standings.data_version(season), probe, LEGEND)), 10)
    # This season's other charts in these words go: its data moved on.
    prefix = f"season-{season.id}-{locale()}-{words.digest}-s{draw.STYLE}-"
    mine = re.compile(re.escape(prefix) + r"[0-9a-f]+\.svg$")
    return CACHE.get(f"{prefix}{key}.svg", lambda: _render(season, words, label_of), mine.match)


def _render(season: Season, text: ChartText, label_of: Callable[[date], str]) -> bytes:
    data = chart_data(season)
    # The one rounding rule, as in the season's table (6.125 -> 6.13), in the reader's language.
    legend = [
        season_figure(values[-1] if values else None)
        for values in (data.series[name] for name in data.names)
    ]
    ylabel = {"games_won": text.games_won, "average": text.average}.get(season.method, text.points)
    return draw.season_chart(
        data.names,
        [label_of(day) for day in data.nights],
        data.series,
        legend,
        higher_is_better=data.higher_is_better,
        title=text.season_title,
        xlabel=text.club_night,
        ylabel=ylabel,
    )


class NotInSeason(LookupError):
    """A race chart asked for a roster entry that has no counted game in the season."""


def race_svg(season: Season, roster_id: int) -> tuple[bytes, str, str]:
    """One player's race chart (their place after each night, a sparkline without words, so
    one file serves every language), its ETag and the data version it was drawn from.

    One small chart per player, drawn when its own URL is first asked for: ~30 ms each, so
    24 players cost under a second spread over the page's image requests (one figure of 24
    panels costs ~1 s in one request), and each sits in its player's row. The page gives each
    URL ?v=<data version>, so a browser may keep it until the season's figures change."""
    version = season_standings.data_version(season)
    prefix = f"race-{season.id}-p{roster_id}-s{draw.STYLE}-"
    mine = re.compile(re.escape(prefix) + r"[0-9a-f]+\.svg$")

    def render() -> bytes:
        race = season_story.race(season, roster_id)
        if race is None:
            raise NotInSeason(roster_id)
        return draw.race_sparkline(race.places, race.nights, race.ranked, title=race.name)

    svg, etag = CACHE.get(f"{prefix}{version}.svg", render, mine.match)
    return svg, etag, version
