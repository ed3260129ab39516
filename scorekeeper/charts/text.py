"""The words on every chart (game, season, player), in English or in the request's language."""

from __future__ import annotations

import functools
import re
from dataclasses import astuple, dataclass

from flask import current_app, has_request_context
from flask_babel import get_locale
from flask_babel import gettext as _

from scorekeeper.charts.cache import digest


@dataclass(frozen=True)
class ChartText:
    """Every word the charts show; chart_text() gives them translated, tests may pass their own."""

    # A game's charts.
    race_title: str = "Running totals"
    rounds_title: str = "Points per round"
    engine: str = "Engine"
    hand: str = "Hand"
    total: str = "Total"
    points: str = "Points"
    # A season's chart: its y axis says what the season's method counts.
    season_title: str = "Standings after each club night or day of play"
    club_night: str = "Club night (or day of play)"
    games_won: str = "Games won"
    average: str = "Average per round (lower is better)"
    # A player's chart.
    player_title: str = "Average score per round"
    that_month: str = "That month"
    since_first_game: str = "Since the first game"
    month: str = "Month"
    per_round: str = "Points per round"
    # A player's rating chart.
    rating_title: str = "Rating after each game"
    game_played: str = "Game (date played)"
    rating: str = "Rating"

    @functools.cached_property
    def digest(self) -> str:
        """A short fingerprint, part of every chart's key: new wording never serves old charts."""
        return digest("\x1f".join(astuple(self)), 4)


def chart_text() -> ChartText:
    """The words on the charts, in the request's language (English outside a request)."""
    if not has_request_context():  # the CLI, a benchmark: no reader to translate for
        return ChartText()
    # Keyed by the catalogues' folders too: two apps in one process (the tests) may differ.
    return _translated(locale(), str(current_app.config.get("BABEL_TRANSLATION_DIRECTORIES")))


def locale() -> str:
    """The request's language as a file-name-safe code (the default one outside a request)."""
    # Outside a request (CLI, tests) the selector has no Accept-Language to read.
    found = get_locale() if has_request_context() else current_app.config["BABEL_DEFAULT_LOCALE"]
    return re.sub(r"[^A-Za-z0-9_]", "", str(found)) if found else "en"


@functools.lru_cache(maxsize=16)
def _translated(_locale: str, _directories: str) -> ChartText:
    # Translations do not change while the app runs: once per language.
    return ChartText(
        race_title=_("Running totals"),
        rounds_title=_("Points per round"),
        engine=_("Engine"),
        hand=_("Hand"),
        total=_("Total"),
        points=_("Points"),
        season_title=_("Standings after each club night or day of play"),
        club_night=_("Club night (or day of play)"),
        games_won=_("Games won"),
        average=_("Average per round (lower is better)"),
        player_title=_("Average score per round"),
        that_month=_("That month"),
        since_first_game=_("Since the first game"),
        month=_("Month"),
        per_round=_("Points per round"),
        rating_title=_("Rating after each game"),
        game_played=_("Game (date played)"),
        rating=_("Rating"),
    )
