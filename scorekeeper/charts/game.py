"""A game's charts (race and rounds): their data from the game's snapshot, drawn once per game
version, language and wording, then served from the chart cache.

Scores come from the core through the game services; nothing is added up here.
"""

from __future__ import annotations

import re

from scorekeeper import core
from scorekeeper.charts import draw
from scorekeeper.charts.cache import CACHE
from scorekeeper.charts.text import ChartText, chart_text, locale
from scorekeeper.models import Game, game_key
from scorekeeper.services.games import GameRef, snapshot_of

KINDS = ("race", "rounds")


def file_name(game: Game | GameRef, kind: str, text: ChartText) -> str:
    """The cache file of one chart: game, kind, version, language, wording and drawing style.

    The game's key (models.game_key) tells apart games that had the same id (a deleted game's,
    a recreated or a test database): a cached chart can never be another game's.
    """
    words = f"{locale()}-{text.digest}-s{draw.STYLE}"
    return f"g{game.id}-{kind}-v{game.version}-{game_key(game.view_token)}-{words}.svg"


def render(game: Game | GameRef, kind: str, text: ChartText) -> bytes:
    """Draw one chart of the game from the core's round scores (no cache)."""
    # The route read the game's id and version only (enough for a cached chart); its snapshot
    # is kept per version, or read in a fixed number of queries.
    snapshot = snapshot_of(game)
    setup, results = snapshot.setup, list(snapshot.results)
    scores = core.round_scores(setup, results)
    if setup.is_draw:
        labels = [str(number) for number in range(1, len(results) + 1)]
        xlabel = text.hand
    else:
        labels = ["" if r.engine is None else str(r.engine) for r in results]
        state = snapshot.state
        if not state.finished:  # the rounds still to play, so the chart shows how far along
            labels += [str(engine) for engine in state.engines[len(results) :]]
        xlabel = text.engine
    players = list(setup.players)
    if kind == "race":
        totals = {name: core.running_totals(rounds) for name, rounds in scores.items()}
        return draw.race_chart(
            players,
            labels,
            totals,
            higher_wins=setup.is_draw,
            title=text.race_title,
            xlabel=xlabel,
            ylabel=text.total,
        )
    if kind == "rounds":
        return draw.rounds_chart(
            players, labels, scores, title=text.rounds_title, xlabel=xlabel, ylabel=text.points
        )
    raise ValueError(f"unknown chart kind {kind!r}")


def chart_svg(game: Game | GameRef, kind: str, text: ChartText | None = None) -> tuple[bytes, str]:
    """The chart's SVG and its ETag, from the cache or drawn and stored (in the request's
    language unless `text` is given)."""
    if kind not in KINDS:
        raise ValueError(f"unknown chart kind {kind!r}")
    words = text or chart_text()

    def older(other: str) -> bool:
        match = re.match(rf"g{game.id}-{re.escape(kind)}-v(\d+)-", other)
        # Only older: a slow worker still holding an old version must not delete a newer one.
        return match is not None and int(match.group(1)) < game.version

    return CACHE.get(file_name(game, kind, words), lambda: render(game, kind, words), older)
